/** Types of `tiny-osmpbf` 0.1 (the package ships none): its result is Overpass-style OSM JSON. */
declare module 'tiny-osmpbf' {
  interface TinyOsmElement {
    type: 'node' | 'way' | 'relation';
    id: number;
    lat?: number;
    lon?: number;
    nodes?: number[];
    members?: { type: 'node' | 'way' | 'relation'; ref: number; role: string }[];
    tags?: Record<string, string>;
  }
  interface TinyOsmResult {
    bounds?: { minlat: number; minlon: number; maxlat: number; maxlon: number };
    elements: TinyOsmElement[];
  }
  function parse(data: Uint8Array | ArrayBuffer): TinyOsmResult;
  export default parse;
}

/** The blob framing messages of the PBF format, as compiled by `pbf` inside `tiny-osmpbf`. */
declare module 'tiny-osmpbf/proto/fileformat.js' {
  import type Pbf from 'pbf';
  export const BlobHeader: { read(pbf: Pbf, end?: number): { type: string; indexdata: Uint8Array | null; datasize: number } };
  export const Blob: { read(pbf: Pbf, end?: number): { raw: Uint8Array | null; raw_size: number; zlib_data: Uint8Array | null } };
}

/** The part of `pbf` 3 (Mapbox's protocol-buffer reader) used to walk PBF blob headers. */
declare module 'pbf' {
  export default class Pbf {
    constructor(buf?: Uint8Array);
    pos: number;
    length: number;
  }
}
