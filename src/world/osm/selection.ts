/**
 * Which part of an OSM file becomes a world, and the world frame it is drawn in.
 *
 * A selection is a square (`--centre LAT,LON --size M`, 150–2000 m, like procedural worlds), a
 * box (`--bbox W,S,E,N`, degrees), or, with neither, the file's own bounds when they are at most
 * {@link MAX_SELECTION} across. The world frame is the local east-north-up plane at the
 * selection's centre (georef.ts: +x east, +y north, metres), so the world's georeference is that
 * centre at height 0 (OSM carries no heights).
 */
import { z } from 'zod';
import { geodeticToWorld, type Georeference } from '../georef';
import type { Box } from '../geometry';
import { OsmError, type LatLonBox, type OsmData } from './elements';

/** Largest side of a selection, metres (as for procedural worlds). */
export const MAX_SELECTION = 2000;
/** Smallest side of a selection, metres. */
export const MIN_SELECTION = 150;

/** A selection as the user gives it. */
export type OsmSelection =
  | { kind: 'centre'; lat: number; lon: number; size: number }
  | { kind: 'bbox'; west: number; south: number; east: number; north: number }
  | { kind: 'file' };

/** An {@link OsmSelection} in a file (extracts, scenario and task worlds): degrees, metres. */
export const OsmSelectionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('centre'), lat: z.number().min(-85).max(85), lon: z.number().min(-180).max(180), size: z.number().min(MIN_SELECTION).max(MAX_SELECTION) }).strict(),
  z.object({ kind: z.literal('bbox'), west: z.number().min(-180).max(180), south: z.number().min(-85).max(85), east: z.number().min(-180).max(180), north: z.number().min(-85).max(85) }).strict(),
  z.object({ kind: z.literal('file') }).strict(),
]);

/** A selection resolved against a file: its world frame and extent. */
export interface ResolvedSelection {
  selection: OsmSelection;
  /** The world origin (the selection's centre, height 0). */
  georeference: Georeference;
  /** World bounds `[minX, minY, maxX, maxY]`, metres, ENU about the origin. */
  bounds: Box;
  /** The selection's lat/lon box, degrees (for the square: the box enclosing it). */
  latLon: LatLonBox;
}

/** Parses `LAT,LON` (degrees). @throws OsmError naming `what`. */
export function parseLatLon(text: string, what = '--centre'): { lat: number; lon: number } {
  const parts = text.split(',').map((s) => s.trim());
  const [lat, lon] = parts.map(Number);
  if (parts.length !== 2 || parts.some((p) => p === '') || !Number.isFinite(lat) || !Number.isFinite(lon)) throw new OsmError(`${what} ${text}: expected LAT,LON in degrees (e.g. 43.7396,7.4278)`);
  if (Math.abs(lat) > 85 || Math.abs(lon) > 180) throw new OsmError(`${what} ${text}: latitude must be within ±85° and longitude within ±180°`);
  return { lat, lon };
}

/** Parses `W,S,E,N` (degrees). @throws OsmError naming `what`. */
export function parseBbox(text: string, what = '--bbox'): { west: number; south: number; east: number; north: number } {
  const parts = text.split(',').map((s) => s.trim());
  const v = parts.map(Number);
  if (parts.length !== 4 || parts.some((p) => p === '') || !v.every(Number.isFinite)) throw new OsmError(`${what} ${text}: expected W,S,E,N in degrees (west, south, east, north longitude/latitude)`);
  const [west, south, east, north] = v;
  if (!(west < east) || !(south < north)) throw new OsmError(`${what} ${text}: west must be less than east and south less than north`);
  if (Math.abs(south) > 85 || Math.abs(north) > 85 || Math.abs(west) > 180 || Math.abs(east) > 180) throw new OsmError(`${what} ${text}: latitudes must be within ±85° and longitudes within ±180°`);
  return { west, south, east, north };
}

const fmt = (b: LatLonBox) => `lat ${b.minlat.toFixed(5)}..${b.maxlat.toFixed(5)}, lon ${b.minlon.toFixed(5)}..${b.maxlon.toFixed(5)}`;

/** A selection's text as the tools print and record it (`centre 43.7396,7.4278 size 800`, `bbox W,S,E,N`, `file bounds`). */
export function selectionText(s: OsmSelection): string {
  if (s.kind === 'centre') return `centre ${s.lat},${s.lon} size ${s.size}`;
  if (s.kind === 'bbox') return `bbox ${s.west},${s.south},${s.east},${s.north}`;
  return 'file bounds';
}

function boxFromCorners(g: Georeference, b: LatLonBox): Box {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const lat of [b.minlat, (b.minlat + b.maxlat) / 2, b.maxlat]) {
    for (const lon of [b.minlon, (b.minlon + b.maxlon) / 2, b.maxlon]) {
      const [x, y] = geodeticToWorld(g, { lat, lon, height: 0 });
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
  }
  return [x0, y0, x1, y1];
}

/**
 * Resolves a selection against a file.
 *
 * @param file the file's name for messages.
 * @throws OsmError when the square's size is outside [150, 2000] m, a box or the file's bounds are
 *   over 2 km or under 150 m across (naming `--centre/--size` or `--bbox` to give), or the
 *   selection lies outside the file's bounds.
 */
export function resolveSelection(data: OsmData, selection: OsmSelection, file: string): ResolvedSelection {
  let latLon: LatLonBox;
  let georeference: Georeference;
  let bounds: Box;
  if (selection.kind === 'centre') {
    if (!(selection.size >= MIN_SELECTION && selection.size <= MAX_SELECTION)) throw new OsmError(`--size ${selection.size}: must be ${MIN_SELECTION}–${MAX_SELECTION} metres`);
    georeference = { lat: selection.lat, lon: selection.lon, height: 0 };
    const h = selection.size / 2;
    bounds = [-h, -h, h, h];
    // Degrees per metre at the centre (a 0.1 % margin over the sphere's for the ellipsoid).
    const dLat = (h / 6_356_752) * (180 / Math.PI) * 1.001;
    const dLon = dLat / Math.cos((selection.lat * Math.PI) / 180);
    latLon = { minlat: selection.lat - dLat, maxlat: selection.lat + dLat, minlon: selection.lon - dLon, maxlon: selection.lon + dLon };
  } else {
    const b = selection.kind === 'bbox'
      ? { minlat: selection.south, minlon: selection.west, maxlat: selection.north, maxlon: selection.east }
      : data.bounds!;
    georeference = { lat: (b.minlat + b.maxlat) / 2, lon: (b.minlon + b.maxlon) / 2, height: 0 };
    bounds = boxFromCorners(georeference, b);
    latLon = { ...b };
    const w = bounds[2] - bounds[0], h = bounds[3] - bounds[1];
    const what = selection.kind === 'bbox' ? `--bbox ${selection.west},${selection.south},${selection.east},${selection.north}` : `${file}: the file's ${data.declaredBounds ? 'bounds' : 'extent'} (${fmt(b)})`;
    const verb = selection.kind === 'bbox' || !data.declaredBounds ? 'is' : 'are';
    if (Math.max(w, h) > MAX_SELECTION) {
      throw new OsmError(`${what} ${verb} ${(w / 1000).toFixed(1)} × ${(h / 1000).toFixed(1)} km, over ${MAX_SELECTION / 1000} km across: ${selection.kind === 'bbox' ? 'give a smaller box' : 'give --centre LAT,LON --size M (150–2000) or --bbox W,S,E,N'}`);
    }
    if (Math.min(w, h) < MIN_SELECTION) throw new OsmError(`${what} ${verb} ${w.toFixed(0)} × ${h.toFixed(0)} m, under ${MIN_SELECTION} m across: give a larger selection`);
  }
  const f = data.bounds!;
  if (latLon.maxlat < f.minlat || latLon.minlat > f.maxlat || latLon.maxlon < f.minlon || latLon.minlon > f.maxlon) {
    throw new OsmError(`${file}: the selection (${selectionText(selection)}) lies outside the file's ${data.declaredBounds ? 'bounds' : 'extent'} (${fmt(f)})`);
  }
  return { selection, georeference, bounds, latLon };
}
