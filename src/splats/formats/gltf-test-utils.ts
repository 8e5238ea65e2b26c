/**
 * Test helpers for the glTF `KHR_gaussian_splatting` loader: a writer built on @gltf-transform/core
 * (an implementation independent of the loader) that stores a known cloud with chosen accessor
 * encodings, node transforms and layouts and returns the cloud the loader must give back, plus
 * GLB pack/unpack for hand-edited and malformed files. Not used by the loaders themselves.
 */
import { Document, Extension, NodeIO, Primitive, VertexLayout, type GLTF, type WriterContext } from '@gltf-transform/core';
import { createRng } from '../../core/random';
import { allocateSplatCloud, shRestCount, type SplatCloud } from '../splat-cloud';
import { RUB_TO_RDF_SH_SIGN } from './common';

export const EXT = 'KHR_gaussian_splatting';

/** Writes `extensions.KHR_gaussian_splatting` on every primitive (gltf-transform drops unknown extensions). */
class GaussianSplattingWriter extends Extension {
  static override EXTENSION_NAME = EXT;
  override readonly extensionName = EXT;
  read(): this { return this; }
  write(context: WriterContext): this {
    for (const mesh of this.document.getRoot().listMeshes()) {
      const def = context.jsonDoc.json.meshes![context.meshIndexMap.get(mesh)!];
      for (const p of def.primitives) p.extensions = { ...p.extensions, [EXT]: { kernel: 'ellipse', colorSpace: 'srgb_rec709_display' } };
    }
    return this;
  }
}

/** A random cloud (RDF, like a PLY): centres in ±5 m, scales e^[−4, 0], unit quaternions, SH. */
export function randomCloud(n: number, degree: number, seed = 1): SplatCloud {
  const g = createRng(seed);
  const r = () => g.next();
  const c = allocateSplatCloud(n, degree);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      c.positions[3 * i + a] = 10 * r() - 5;
      c.scales[3 * i + a] = Math.exp(-4 * r());
      c.shDc[3 * i + a] = 2 * r() - 1;
    }
    const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const len = Math.hypot(...q);
    q.forEach((v, j) => { c.rotations[4 * i + j] = v / len; });
    c.opacities[i] = r();
  }
  for (let k = 0; k < c.shRest.length; k++) c.shRest[k] = 0.6 * r() - 0.3;
  return c;
}

export type Enc = 'f32' | 'i8n' | 'i16n' | 'u8' | 'u8n' | 'u16' | 'u16n';
/** Stores floats as `enc` and returns the array plus the values glTF §3.11 decodes them to. */
export function quantise(values: ArrayLike<number>, enc: Enc): { array: Float32Array | Int8Array | Int16Array | Uint8Array | Uint16Array; decoded: Float64Array; normalized: boolean } {
  const v = Array.from(values);
  const spec = {
    f32: [Float32Array, 1, 1], i8n: [Int8Array, 127, 127], i16n: [Int16Array, 32767, 32767],
    u8: [Uint8Array, 1, 1], u8n: [Uint8Array, 255, 255], u16: [Uint16Array, 1, 1], u16n: [Uint16Array, 65535, 65535],
  } as const;
  const [Ctor, mul, div] = spec[enc];
  const array = enc === 'f32' ? Float32Array.from(v) : new Ctor(v.map((x) => Math.round(x * mul)));
  const decoded = Float64Array.from(array, (x) => (enc.startsWith('i') ? Math.max(x / div, -1) : enc === 'f32' ? x : x / div));
  return { array, decoded, normalized: enc.endsWith('n') };
}

export interface Trs { translation?: [number, number, number]; rotation?: [number, number, number, number]; scale?: [number, number, number] }
export interface WriteOptions {
  position?: Enc; rotation?: Enc; scale?: Enc; opacity?: Enc;
  /** Transform of the node holding the mesh, and of a parent node above it. */
  node?: Trs; parent?: Trs;
  layout?: VertexLayout;
  /** Write accessors as sparse where gltf-transform can (mostly-zero data). */
  sparse?: boolean;
}

/**
 * A Document with one splat primitive holding `cloud` (given in RDF, like a PLY) converted to glTF's
 * RUB axes as the spec's note asks of converters: (x, y, z) → (x, −y, −z), quaternion
 * (w, x, y, z) → (x, −y, −z, w) in glTF order, SH bands × RUB_TO_RDF_SH_SIGN. Also returns the
 * cloud the loader should give back (the stored values decoded, before any node transform).
 */
export function splatDocument(cloud: SplatCloud, o: WriteOptions = {}): { doc: Document; expected: SplatCloud } {
  const n = cloud.count, K = shRestCount(cloud.shDegree);
  const doc = new Document();
  doc.createExtension(GaussianSplattingWriter);
  const buffer = doc.createBuffer();
  const expected = allocateSplatCloud(n, cloud.shDegree);
  const accessor = (type: GLTF.AccessorType, values: ArrayLike<number>, enc: Enc = 'f32') => {
    const q = quantise(values, enc);
    const a = doc.createAccessor().setType(type).setArray(q.array).setNormalized(q.normalized).setBuffer(buffer).setSparse(o.sparse ?? false);
    return { a, decoded: q.decoded };
  };
  const pos = Float64Array.from(cloud.positions, (v, k) => (k % 3 === 0 ? v : -v));
  const rot = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    const [w, x, y, z] = cloud.rotations.subarray(4 * i, 4 * i + 4);
    rot.set([x, -y, -z, w], 4 * i);
  }
  const prim = doc.createPrimitive().setMode(Primitive.Mode.POINTS);
  const P = accessor('VEC3', pos, o.position);
  const R = accessor('VEC4', rot, o.rotation);
  const S = accessor('VEC3', cloud.scales, o.scale);
  const A = accessor('SCALAR', cloud.opacities, o.opacity);
  prim.setAttribute('POSITION', P.a).setAttribute(`${EXT}:ROTATION`, R.a).setAttribute(`${EXT}:SCALE`, S.a).setAttribute(`${EXT}:OPACITY`, A.a)
    .setAttribute(`${EXT}:SH_DEGREE_0_COEF_0`, accessor('VEC3', cloud.shDc).a);
  for (let l = 1; l <= cloud.shDegree; l++) {
    for (let m = 0; m <= 2 * l; m++) {
      const k = l * l - 1 + m;
      const coef = new Float32Array(3 * n);
      for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) coef[3 * i + c] = RUB_TO_RDF_SH_SIGN[k] * cloud.shRest[(i * K + k) * 3 + c];
      prim.setAttribute(`${EXT}:SH_DEGREE_${l}_COEF_${m}`, accessor('VEC3', coef).a);
    }
  }
  // What the loader must return: decoded values back in RDF, quaternions renormalised.
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      expected.positions[3 * i + a] = (a === 0 ? 1 : -1) * P.decoded[3 * i + a];
      expected.scales[3 * i + a] = S.decoded[3 * i + a];
    }
    const [x, y, z, w] = R.decoded.subarray(4 * i, 4 * i + 4);
    const len = Math.hypot(x, y, z, w);
    expected.rotations.set([w / len, x / len, -y / len, -z / len], 4 * i);
    expected.opacities[i] = A.decoded[i];
  }
  expected.shDc.set(Float32Array.from(cloud.shDc));
  expected.shRest.set(cloud.shRest);
  const node = doc.createNode('splats').setMesh(doc.createMesh().addPrimitive(prim));
  const setTrs = (nd: typeof node, t: Trs) => {
    if (t.translation) nd.setTranslation(t.translation);
    if (t.rotation) nd.setRotation(t.rotation);
    if (t.scale) nd.setScale(t.scale);
  };
  if (o.node) setTrs(node, o.node);
  const scene = doc.createScene();
  if (o.parent) {
    const parent = doc.createNode('parent').addChild(node);
    setTrs(parent, o.parent);
    scene.addChild(parent);
  } else {
    scene.addChild(node);
  }
  return { doc, expected };
}

export const io = (layout = VertexLayout.INTERLEAVED) => new NodeIO().registerExtensions([GaussianSplattingWriter]).setVertexLayout(layout);

export async function writeGlb(cloud: SplatCloud, o: WriteOptions = {}): Promise<{ glb: Uint8Array; expected: SplatCloud }> {
  const { doc, expected } = splatDocument(cloud, o);
  return { glb: await io(o.layout).writeBinary(doc), expected };
}

/** Splits a GLB into its JSON and BIN chunk (test-side, independent of the loader). */
export function unpackGlb(glb: Uint8Array): { json: GLTF.IGLTF; bin: Uint8Array } {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLen = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLen))) as GLTF.IGLTF;
  const binLen = dv.getUint32(20 + jsonLen, true);
  return { json, bin: glb.slice(28 + jsonLen, 28 + jsonLen + binLen) };
}

/** Packs JSON and an optional BIN chunk into a GLB (both padded to 4 bytes). */
export function packGlb(json: object, bin?: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jl = Math.ceil(text.length / 4) * 4, bl = bin ? Math.ceil(bin.length / 4) * 4 : 0;
  const total = 12 + 8 + jl + (bin ? 8 + bl : 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true); dv.setUint32(4, 2, true); dv.setUint32(8, total, true);
  dv.setUint32(12, jl, true); dv.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jl);
  out.set(text, 20);
  if (bin) {
    dv.setUint32(20 + jl, bl, true); dv.setUint32(24 + jl, 0x004e4942, true);
    out.set(bin, 28 + jl);
  }
  return out;
}

/** A GLB of `cloud` with its JSON edited by `edit`. */
export async function editedGlb(cloud: SplatCloud, edit: (json: GLTF.IGLTF) => void, o: WriteOptions = {}): Promise<Uint8Array> {
  const { json, bin } = unpackGlb((await writeGlb(cloud, o)).glb);
  edit(json);
  return packGlb(json, bin);
}

export const attrs = (json: GLTF.IGLTF) => json.meshes![0].primitives[0].attributes;
