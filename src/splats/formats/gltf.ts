/**
 * Loader for glTF 2.0 assets holding Gaussian splats in the Khronos `KHR_gaussian_splatting`
 * extension: a binary `.glb`, or a `.gltf` JSON file whose buffers are embedded as `data:` URIs
 * (external buffer files through an optional reader).
 *
 * Spec: KhronosGroup/glTF `extensions/2.0/Khronos/KHR_gaussian_splatting/README.md` (release
 * candidate, commit 63770cc of April 2026) and `schema/mesh.primitive.KHR_gaussian_splatting.schema.json`;
 * glTF 2.0 §3.4 (coordinate system), §3.5.3 (node transforms), §3.6.2 (accessors, sparse accessors),
 * §3.11 (normalised integers), §4.4 (GLB); KHR_mesh_quantization for integer positions.
 *
 * The loader is three modules: this one maps the extension's primitives to a SplatCloud;
 * `./gltf-accessors` reads the container and the accessors (GLB, buffers, buffer views, sparse and
 * normalised-integer accessors); `./gltf-transforms` holds the node-transform math and the axis change.
 *
 * A mesh primitive whose `extensions` hold `KHR_gaussian_splatting` is a splat field, one splat per
 * vertex, with these attributes (accessor type; component types the spec allows):
 * - `POSITION` (VEC3; float, or with KHR_mesh_quantization (normalised) byte/short, signed or
 *   unsigned): the centre, metres, in the primitive's local space.
 * - `KHR_gaussian_splatting:ROTATION` (VEC4; float, normalised byte, normalised short): unit
 *   quaternion in the glTF order (x, y, z, w); renormalised here (quantised values are not unit).
 * - `KHR_gaussian_splatting:SCALE` (VEC3; float, unsigned byte/short, normalised or not): the
 *   standard deviations along the local axes, *linear* (not the log-scale of INRIA PLY), ≥ 0.
 * - `KHR_gaussian_splatting:OPACITY` (SCALAR; float, normalised unsigned byte/short): opacity
 *   *after* the sigmoid, in [0, 1].
 * - `KHR_gaussian_splatting:SH_DEGREE_0_COEF_0` (VEC3 float): the SH dc coefficient per channel
 *   (INRIA `f_dc`; colour = 0.2820948 · dc + 0.5), not a linear RGB colour.
 * - `KHR_gaussian_splatting:SH_DEGREE_l_COEF_n` (VEC3 float; l = 1..3, n = 0..2l): the band-l
 *   coefficient of order m = n − l per channel. The spec's basis (with the Condon–Shortley phase)
 *   and order are those of 3DGS, so it is `shRest` coefficient k = l² − 1 + n. A degree must be
 *   complete, and every lower degree present.
 * `COLOR_0` is only the point-cloud fallback (sRGB-decoded, clamped) and is not read, except for
 * the 2024 drafts of the extension (early CesiumJS tools), which are read when the
 * `KHR_gaussian_splatting:` names are absent: `_ROTATION` (VEC4 x, y, z, w), `_SCALE` (VEC3,
 * linear) and `COLOR_0` (VEC4, RGB = 0.2820948 · dc + 0.5, A = opacity), no higher SH bands.
 * Integer components decode as glTF §3.11 says (`./gltf-accessors`).
 *
 * Placement: each splat primitive is instanced by every node of the scene whose `mesh` it is (the
 * `scene`, else scene 0; a file without scenes uses its root nodes, one without nodes its meshes
 * as they are), with the node's global transform M (parents × matrix or T·R·S) applied as the
 * spec's ellipse kernel says (`./gltf-transforms`, which also refuses the transforms the spec
 * leaves undefined: mirrors, zero or non-finite scales, and shear).
 *
 * Frame: glTF is right-handed with +Y up and +Z the asset's front, metres (§3.4), i.e. RUB axes.
 * Like `loadSpz`, this loader then converts to the RDF axes of INRIA PLY / COLMAP captures
 * (`./gltf-transforms`): y and z of centres negate, the quaternion (w, x, y, z) becomes
 * (w, x, −y, −z), and each SH coefficient is multiplied by `RUB_TO_RDF_SH_SIGN`.
 *
 * Not read: compression extensions (`KHR_gaussian_splatting_compression_*`, EXT_meshopt_compression,
 * KHR_draco_mesh_compression; refused with their name when required or when the attributes are
 * missing), `colorSpace` (both defined values are display-referred; `lin_rec709_display` colours
 * are used as they are), `kernel`, `projection` and `sortingMethod` (the spec falls back to the
 * ellipse kernel), materials, and the primitive `mode` (the spec requires POINTS; not checked).
 */
import type { GLTF } from '@gltf-transform/core';
import { allocateSplatCloud, concatSplatClouds, SH_C0, SplatFormatError, shRestCount, type SplatCloud } from '../splat-cloud';
import { storeUnitQuat } from './common';
import { enc, fail, item, list, openGltf, readAttribute, type Context, type Encoding, type GltfResourceReader } from './gltf-accessors';
import { applyNodeTransform, localMatrix, mul4, rubToRdf } from './gltf-transforms';

export { GLB_MAGIC, hasGlbMagic, looksLikeGltfJson, type GltfResourceReader } from './gltf-accessors';

/** The extension's name, also the prefix of its attribute semantics. */
export const KHR_GAUSSIAN_SPLATTING = 'KHR_gaussian_splatting';

const ROTATION = `${KHR_GAUSSIAN_SPLATTING}:ROTATION`;
const SCALE = `${KHR_GAUSSIAN_SPLATTING}:SCALE`;
const OPACITY = `${KHR_GAUSSIAN_SPLATTING}:OPACITY`;
const shSemantic = (l: number, n: number): string => `${KHR_GAUSSIAN_SPLATTING}:SH_DEGREE_${l}_COEF_${n}`;

/** Required extensions that change how geometry is stored, which this loader does not decode. */
const UNSUPPORTED_REQUIRED = /compression|meshopt|draco|^EXT_mesh_gpu_instancing$|^KHR_gaussian_splatting_/i;

// ---- attribute encodings the spec allows (module comment) -------------------------------------

const FLOAT = enc(5126);
const POSITION_ENCODINGS = [FLOAT, ...[5120, 5121, 5122, 5123].flatMap((c) => [enc(c), enc(c, true)])];
const ROTATION_ENCODINGS = [FLOAT, enc(5120, true), enc(5122, true)];
const SCALE_ENCODINGS = [FLOAT, enc(5121), enc(5121, true), enc(5123), enc(5123, true)];
const OPACITY_ENCODINGS = [FLOAT, enc(5121, true), enc(5123, true)];
const COLOR_ENCODINGS = [FLOAT, enc(5121, true), enc(5123, true)];

// ---- one primitive ------------------------------------------------------------------------------

/** Highest complete SH degree among the primitive's attributes; throws on gaps and partial degrees. */
function shDegreeOf(ctx: Context, where: string, attrs: Record<string, number>): number {
  let degree = 0;
  for (let l = 1; l <= 3; l++) {
    const present = Array.from({ length: 2 * l + 1 }, (_, n) => n).filter((n) => attrs[shSemantic(l, n)] !== undefined);
    if (present.length === 0) continue;
    if (present.length < 2 * l + 1) {
      fail(ctx, `${where}: SH degree ${l} is partially defined (has COEF_${present.join(', COEF_')} of COEF_0..COEF_${2 * l}; a degree must be complete)`);
    }
    if (degree !== l - 1) fail(ctx, `${where}: SH degree ${l} is present without degree ${l - 1} (every lower degree must be defined)`);
    degree = l;
  }
  return degree;
}

/** The splats of one primitive in its local glTF frame (rotations already (w, x, y, z)). */
function loadPrimitive(ctx: Context, where: string, prim: GLTF.IMeshPrimitive): SplatCloud {
  const attrs = (prim.attributes ?? {}) as Record<string, number>;
  const legacy = attrs[ROTATION] === undefined && attrs[SCALE] === undefined && (attrs._ROTATION !== undefined || attrs._SCALE !== undefined);
  const nested = Object.keys((prim.extensions?.[KHR_GAUSSIAN_SPLATTING] as { extensions?: object } | undefined)?.extensions ?? {});
  const need = (semantic: string): number => {
    if (attrs[semantic] === undefined) {
      const has = Object.keys(attrs).join(', ') || 'none';
      const hint = nested.length ? `; the splats are stored by ${nested.join(', ')}, which Curbside does not read` : '';
      fail(ctx, `${where}: missing attribute ${semantic} (the primitive has ${has})${hint}`);
    }
    return attrs[semantic];
  };
  const positions = readAttribute(ctx, where, 'POSITION', need('POSITION'), 'VEC3', POSITION_ENCODINGS, null);
  const n = positions.length / 3;
  const read = (semantic: string, type: 'SCALAR' | 'VEC3' | 'VEC4', encodings: Encoding[]) =>
    readAttribute(ctx, where, semantic, need(semantic), type, encodings, n);
  const rotSemantic = legacy ? '_ROTATION' : ROTATION, scaleSemantic = legacy ? '_SCALE' : SCALE;
  const rotations = read(rotSemantic, 'VEC4', ROTATION_ENCODINGS);
  const scales = read(scaleSemantic, 'VEC3', legacy ? [FLOAT] : SCALE_ENCODINGS);
  const useColor = legacy && (attrs[OPACITY] === undefined || attrs[shSemantic(0, 0)] === undefined);
  const color = useColor ? read('COLOR_0', 'VEC4', COLOR_ENCODINGS) : null;
  const opacities = color && attrs[OPACITY] === undefined ? null : read(OPACITY, 'SCALAR', OPACITY_ENCODINGS);
  const dc = color && attrs[shSemantic(0, 0)] === undefined ? null : read(shSemantic(0, 0), 'VEC3', [FLOAT]);
  const degree = legacy ? 0 : shDegreeOf(ctx, where, attrs);

  const cloud = allocateSplatCloud(n, degree);
  const bad = (semantic: string, i: number, v: number, why: string): never => fail(ctx, `${where}: ${semantic} of splat ${i} is ${v}; ${why}`);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      const p = positions[3 * i + a];
      if (!Number.isFinite(p)) bad('POSITION', i, p, 'positions must be finite');
      cloud.positions[3 * i + a] = p;
      const s = scales[3 * i + a];
      if (!(s >= 0 && s < Infinity)) bad(scaleSemantic, i, s, 'scales are linear standard deviations, finite and not negative (is this a log-scale?)');
      cloud.scales[3 * i + a] = s;
      const d = dc ? dc[3 * i + a] : (color![4 * i + a] - 0.5) / SH_C0;
      if (!Number.isFinite(d)) bad(dc ? shSemantic(0, 0) : 'COLOR_0', i, d, 'SH coefficients must be finite');
      cloud.shDc[3 * i + a] = d;
    }
    let o = opacities ? opacities[i] : color![4 * i + 3];
    if (o < 0 && o > -1e-6) o = 0;
    if (o > 1 && o < 1 + 1e-6) o = 1;
    if (!(o >= 0 && o <= 1)) bad(opacities ? OPACITY : 'COLOR_0 alpha', i, o, 'opacity must be in [0, 1] (the extension stores it after the sigmoid)');
    cloud.opacities[i] = o;
    const [x, y, z, w] = rotations.subarray(4 * i, 4 * i + 4);
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z) && Number.isFinite(w))) bad(rotSemantic, i, NaN, 'quaternions must be finite');
    storeUnitQuat(cloud.rotations, i, w, x, y, z);
  }
  if (degree > 0) {
    const K = shRestCount(degree);
    for (let l = 1; l <= degree; l++) {
      for (let m = 0; m <= 2 * l; m++) {
        const semantic = shSemantic(l, m);
        const k = l * l - 1 + m;
        const coef = read(semantic, 'VEC3', [FLOAT]);
        for (let i = 0; i < n; i++) {
          for (let c = 0; c < 3; c++) {
            const v = coef[3 * i + c];
            if (!Number.isFinite(v)) bad(semantic, i, v, 'SH coefficients must be finite');
            cloud.shRest[(i * K + k) * 3 + c] = v;
          }
        }
      }
    }
  }
  return cloud;
}

// ---- scene --------------------------------------------------------------------------------------

function nodeLabel(node: GLTF.INode, i: number): string {
  return node.name ? `node ${i} ("${node.name}")` : `node ${i}`;
}

/** A mesh to load and where: the global transform of the node instancing it (null: identity). */
interface MeshInstance { mesh: number; matrix: Float64Array | null; label: string }

/** The meshes the file's scene shows, each with its node's global transform. */
function meshInstances(ctx: Context): MeshInstance[] {
  const { json } = ctx;
  const nodes = json.nodes ?? [];
  let roots: unknown[];
  if (json.scenes && json.scenes.length > 0) {
    const si = json.scene ?? 0;
    roots = list(ctx, item(ctx, json.scenes, si, 'scene', 'scene').nodes, `scene ${si}: nodes`);
  } else if (nodes.length > 0) {
    const children = new Set(nodes.flatMap((_n, i) => list(ctx, item(ctx, nodes, i, 'node', 'nodes').children, `node ${i}: children`)));
    roots = nodes.map((_, i) => i).filter((i) => !children.has(i));
  } else {
    return (json.meshes ?? []).map((_, m) => ({ mesh: m, matrix: null, label: `mesh ${m}` }));
  }
  const out: MeshInstance[] = [];
  const visit = (index: unknown, parent: Float64Array | null, path: number[]): void => {
    const node = item(ctx, json.nodes, index, 'node', path.length ? nodeLabel(nodes[path[path.length - 1]], path[path.length - 1]) : 'scene');
    const i = index as number;
    if (path.includes(i)) fail(ctx, `${nodeLabel(node, i)} is its own ancestor (node cycle ${[...path, i].join(' → ')})`);
    const label = nodeLabel(node, i);
    const local = localMatrix(ctx, node, label);
    const global = parent ? mul4(parent, local) : local;
    if (node.mesh !== undefined) out.push({ mesh: node.mesh, matrix: global, label });
    for (const c of list(ctx, node.children, `${label}: children`)) visit(c, global, [...path, i]);
  };
  for (const r of roots) visit(r, null, []);
  return out;
}

/**
 * Loads the Gaussian splats of a glTF 2.0 asset with the `KHR_gaussian_splatting` extension: a
 * `.glb`, or `.gltf` JSON with embedded (`data:`) buffers or external ones given by `readResource`.
 * Every splat primitive the scene instances is loaded with its node's global transform and the
 * clouds are concatenated (at the highest SH degree among them; missing bands are zero).
 *
 * @param fileName used in error messages only.
 * @param bytes the whole `.glb` or `.gltf` file.
 * @param readResource returns the bytes of an external buffer file (`uri` percent-decoded), or
 *   undefined; without it external buffers are an error.
 * @returns an activated cloud in the PLY/COLMAP RDF frame (the glTF scene's RUB axes after the node
 *   transforms, with y and z negated; see the module comment), metres: scales as stored (linear),
 *   opacity as stored, rotations (w, x, y, z) renormalised, dc and higher SH bands as stored
 *   (bands rotated with the node and the axis change), coefficient-major/channel-minor.
 * @throws SplatFormatError (`file: problem`, one line) on a truncated or malformed GLB, invalid JSON,
 *   a glTF version other than 2.x, a required extension that changes the geometry storage
 *   (compression, meshopt, draco, instancing), no primitive with the extension, a missing
 *   attribute, an attribute of the wrong accessor type / component type / normalisation or with
 *   a count other than POSITION's, a partial or gapped SH degree, an out-of-range index, a buffer
 *   view past its buffer, a buffer shorter than its byteLength, an external buffer not supplied,
 *   a non-finite value, a negative scale, an opacity outside [0, 1], a node cycle, a mirroring,
 *   degenerate or shearing node transform, or when the primitives hold no splats; JSON of an
 *   unexpected shape is reported as `malformed glTF (…)`.
 */
export function loadGltfSplats(fileName: string, bytes: Uint8Array, readResource?: GltfResourceReader): SplatCloud {
  try {
    return loadGltf(fileName, bytes, readResource);
  } catch (e) {
    if (e instanceof SplatFormatError) throw e;
    // JSON of the wrong shape (e.g. `"meshes": 5`) that the checks above did not anticipate.
    throw new SplatFormatError(fileName, `malformed glTF (${(e as Error).message})`);
  }
}

function loadGltf(fileName: string, bytes: Uint8Array, readResource?: GltfResourceReader): SplatCloud {
  const ctx = openGltf(fileName, bytes, readResource);
  const { json } = ctx;
  const required = (json.extensionsRequired ?? []).filter((e) => UNSUPPORTED_REQUIRED.test(e));
  if (required.length) fail(ctx, `requires the extension${required.length > 1 ? 's' : ''} ${required.join(', ')}, which Curbside does not read (decompress the file first, e.g. with gltf-transform)`);

  const meshes = json.meshes ?? [];
  const primitives = meshes.map((_, m) => {
    const ps = list(ctx, item(ctx, meshes, m, 'mesh', 'meshes').primitives, `mesh ${m}: primitives`);
    ps.forEach((_, p) => item(ctx, ps, p, 'primitive', `mesh ${m}`));
    return ps;
  });
  const isSplat = (p: GLTF.IMeshPrimitive) => p.extensions?.[KHR_GAUSSIAN_SPLATTING] !== undefined;
  if (!primitives.some((ps) => ps.some(isSplat))) {
    const prims = primitives.reduce((s, ps) => s + ps.length, 0);
    const looks = primitives.some((ps) => ps.some((p) => Object.keys(p.attributes ?? {}).some((a) => a.startsWith(`${KHR_GAUSSIAN_SPLATTING}:`))));
    const hint = looks ? '; a primitive has KHR_gaussian_splatting:* attributes but no extensions.KHR_gaussian_splatting object' : '';
    fail(ctx, `no mesh primitive has the KHR_gaussian_splatting extension (${meshes.length} meshes, ${prims} primitives)${hint}`);
  }
  const clouds: SplatCloud[] = [];
  for (const inst of meshInstances(ctx)) {
    item(ctx, json.meshes, inst.mesh, 'mesh', inst.label);
    primitives[inst.mesh].forEach((prim, p) => {
      if (!isSplat(prim)) return;
      const where = `mesh ${inst.mesh} primitive ${p}`;
      const cloud = loadPrimitive(ctx, where, prim);
      if (inst.matrix) applyNodeTransform(ctx, cloud, inst.matrix, inst.label);
      clouds.push(cloud);
    });
  }
  if (clouds.length === 0) fail(ctx, `no node of the scene instances a mesh with KHR_gaussian_splatting primitives`);
  const cloud = concatSplatClouds(clouds);
  if (cloud.count === 0) fail(ctx, 'the KHR_gaussian_splatting primitives hold no splats (POSITION count 0)');
  rubToRdf(cloud);
  return cloud;
}
