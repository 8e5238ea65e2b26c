/**
 * The shipped body-set file format (`assets/humans/makehuman-lod<k>.json`, written by
 * `src/humans/bake/make-body-set.ts`): one JSON object per level of detail (LOD) whose `data` field
 * is base64 of little-endian binary arrays, and its decoder into a {@link BodyModel}.
 *
 * `data` holds, in this order (V vertices, F triangles, J = 24 joints, B shape directions):
 *
 * | array | type | count | meaning |
 * |---|---|---|---|
 * | template | f32 | V×3 | rest vertices T̄, metres, body frame (x forward, y left, z up) |
 * | skinIndices | u8 | V×4 | SMPL joint of each of the 4 strongest influences |
 * | skinWeights | f32 | V×4 | their weights (sum 1) |
 * | shapeDirs | f32 | B×V×3 | shape directions per unit β, metres, component-major |
 * | jointTemplate | f32 | J×3 | rest joints J(0), metres |
 * | jointShapeDirs | f32 | B×J×3 | joint offsets per unit β |
 * | faces | u16 | F×3 | counter-clockwise triangles |
 * | sourceVertex | u16 | V | index of the vertex in hm08's body group (0–13379): the same index ⇒ the same data at every LOD |
 * | uvs | f32 | V×2 | hm08 texture coordinates |
 */
import { SMPL_JOINT_NAMES, SMPL_PARENTS, type BodyModel } from './body-model';

/** Format tag of the files. */
export const BODY_SET_FORMAT = 'curbside-body-lod/1';

/** One LOD file's JSON. */
export interface BodyLodFile {
  format: string;
  /** e.g. `makehuman-lod0`. */
  name: string;
  /** Licence and provenance, one line. */
  source: string;
  vertexCount: number;
  faceCount: number;
  jointCount: number;
  shapeNames: string[];
  /** base64 of the arrays in the module doc's order. */
  data: string;
}

/** A decoded LOD: the body model and each vertex's hm08 source index. */
export interface BodyLod {
  model: BodyModel;
  /** V source-vertex indices into hm08's 13,380 body vertices. */
  sourceVertex: Uint16Array;
}

function sizes(V: number, F: number, J: number, B: number) {
  return { template: V * 12, skinIndices: V * 4, skinWeights: V * 16, shapeDirs: B * V * 12, jointTemplate: J * 12, jointShapeDirs: B * J * 12, faces: F * 6, sourceVertex: V * 2, uvs: V * 8 };
}

const toBase64 = (bytes: Uint8Array): string => {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
};

const fromBase64 = (text: string): Uint8Array => {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
};

/**
 * Encodes a LOD (the inverse of {@link decodeBodyLod}); deterministic bytes for the same input.
 *
 * @throws Error when the model is not on 24 joints, has ≥ 65,536 vertices, or a skin index > 255.
 */
export function encodeBodyLod(name: string, source: string, lod: BodyLod): BodyLodFile {
  const m = lod.model;
  const V = m.vertexCount, F = m.faces.length / 3, J = m.jointCount, B = m.shapeCount;
  if (J !== 24 || V >= 65536) throw new Error(`encodeBodyLod ${name}: needs 24 joints and < 65,536 vertices (got ${J}, ${V})`);
  const s = sizes(V, F, J, B);
  const total = Object.values(s).reduce((a, b) => a + b, 0);
  const buf = new ArrayBuffer(total);
  const bytes = new Uint8Array(buf);
  let o = 0;
  const put = (arr: ArrayBufferView, n: number) => {
    bytes.set(new Uint8Array(arr.buffer, arr.byteOffset, n), o);
    o += n;
  };
  put(Float32Array.from(m.template), s.template);
  put(Uint8Array.from(m.skinIndices), s.skinIndices);
  put(Float32Array.from(m.skinWeights), s.skinWeights);
  put(Float32Array.from(m.shapeDirs), s.shapeDirs);
  put(Float32Array.from(m.jointTemplate), s.jointTemplate);
  put(Float32Array.from(m.jointShapeDirs), s.jointShapeDirs);
  put(Uint16Array.from(m.faces), s.faces);
  put(Uint16Array.from(lod.sourceVertex), s.sourceVertex);
  put(Float32Array.from(m.uvs ?? new Float32Array(V * 2)), s.uvs);
  return { format: BODY_SET_FORMAT, name, source, vertexCount: V, faceCount: F, jointCount: J, shapeNames: [...m.shapeNames], data: toBase64(bytes) };
}

/**
 * Decodes one LOD file into a {@link BodyModel} (source `makehuman`, SMPL's 24-joint tree, no pose
 * blend shapes, `sourceToBody` = identity: the file is already in the body frame).
 *
 * @throws Error when the format tag or the data length does not match.
 */
export function decodeBodyLod(file: BodyLodFile): BodyLod {
  if (file.format !== BODY_SET_FORMAT) throw new Error(`decodeBodyLod ${file.name}: format '${file.format}', expected '${BODY_SET_FORMAT}'`);
  const V = file.vertexCount, F = file.faceCount, J = file.jointCount, B = file.shapeNames.length;
  const bytes = fromBase64(file.data);
  const s = sizes(V, F, J, B);
  const total = Object.values(s).reduce((a, b) => a + b, 0);
  if (bytes.length !== total) throw new Error(`decodeBodyLod ${file.name}: ${bytes.length} data bytes, expected ${total}`);
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
  let o = 0;
  const take = <T>(make: (b: ArrayBuffer, off: number, n: number) => T, n: number, width: number): T => {
    const out = make(buf.slice(o, o + n * width), 0, n);
    o += n * width;
    return out;
  };
  const f32 = (n: number) => take((b, off, k) => new Float32Array(b, off, k), n, 4);
  const template = f32(V * 3);
  const skinIndices = Uint32Array.from(take((b, off, k) => new Uint8Array(b, off, k), V * 4, 1));
  const skinWeights = f32(V * 4);
  const shapeDirs = f32(B * V * 3);
  const jointTemplate = f32(J * 3);
  const jointShapeDirs = f32(B * J * 3);
  const faces = Uint32Array.from(take((b, off, k) => new Uint16Array(b, off, k), F * 3, 2));
  const sourceVertex = take((b, off, k) => new Uint16Array(b, off, k), V, 2);
  const uvs = f32(V * 2);
  const identity = new Float64Array(16);
  identity[0] = identity[5] = identity[10] = identity[15] = 1;
  return {
    model: {
      name: file.name, source: 'makehuman', vertexCount: V, jointCount: J, parents: Int32Array.from(SMPL_PARENTS),
      jointNames: [...SMPL_JOINT_NAMES], template, faces, uvs, jointTemplate, skinIndices, skinWeights,
      shapeCount: B, shapeNames: [...file.shapeNames], shapeDirs, jointShapeDirs, sourceToBody: identity,
    },
    sourceVertex,
  };
}
