/**
 * Per-vertex material coordinates of a body on SMPL's 24 joints, the pedestrian pass's static
 * vertex buffer: where a vertex sits on the body, so that the fragment shader
 * (`shaders/humans/pedestrian.wgsl`) cuts garments, sleeves and hair by per-walker thresholds on
 * smoothly interpolated values instead of per-vertex region ids. Derived from the rest pose
 * (template, rest joints) and the skin weights only, so every body (procedural, MakeHuman at any
 * LOD) gets the same coordinates at the same place, and an hm08 vertex gets the same values at every
 * LOD (the LODs keep hm08 vertices with their own weights).
 *
 * Layout per vertex ({@link MATERIAL_VERTEX_LAYOUT}, 32 bytes):
 *
 * | offset | format | value |
 * |---|---|---|
 * | 0 | float32x3 | rest position p (template), metres, body frame: fabric pattern coordinates |
 * | 12 | float32 | bodyZ: rest height mapped piecewise-linearly through the joints (ankle 0, knee 1, pelvis 2, neck 3, head 4) |
 * | 16 | float32 | armT: position along the vertex side's arm (shoulder 0, elbow 1, wrist 2, hand 3), nearest point of that polyline |
 * | 20 | float32 | headU: (z − head joint z) / (crown z − head joint z) |
 * | 24 | float32 | headBack: (head centre x − x) / head half-depth (+1 back of the head, −1 face) |
 * | 28 | unorm8x4 | skin-weight sums: arm (joints 16–23), hand (20–23), head and neck (12, 15), foot (7, 8, 10, 11) |
 */
import { SMPL_JOINT_COUNT, type BodyModel } from './body-model';

/** Byte layout of one vertex of the material buffer (see the module doc). */
export const MATERIAL_VERTEX_LAYOUT = { stride: 32, restPosition: 0, bodyZ: 12, armT: 16, headU: 20, headBack: 24, weights: 28 } as const;

const ARM = [16, 17, 18, 19, 20, 21, 22, 23];
const HAND = [20, 21, 22, 23];
const HEAD = [12, 15];
const FOOT = [7, 8, 10, 11];

/** Piecewise-linear map through (x_i, i) knots (ascending x), extrapolated with the end slopes. */
function knotCoordinate(z: number, knots: readonly number[]): number {
  const n = knots.length;
  let i = 0;
  while (i < n - 2 && z > knots[i + 1]) i++;
  return i + (z - knots[i]) / (knots[i + 1] - knots[i]);
}

/** Nearest-point parameter of p on the polyline through `pts` (segment index + t). */
function polylineParameter(p: readonly number[], pts: readonly (readonly number[])[]): number {
  let best = Infinity, param = 0;
  for (let s = 0; s + 1 < pts.length; s++) {
    const a = pts[s], b = pts[s + 1];
    const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const l2 = ab[0] ** 2 + ab[1] ** 2 + ab[2] ** 2;
    const t = Math.min(1, Math.max(0, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1] + (p[2] - a[2]) * ab[2]) / l2));
    const d = (p[0] - a[0] - t * ab[0]) ** 2 + (p[1] - a[1] - t * ab[1]) ** 2 + (p[2] - a[2] - t * ab[2]) ** 2;
    if (d < best) {
      best = d;
      param = s + t;
    }
  }
  return param;
}

/** The head's reference frame for hair: head joint height, crown height, head centre x and half-depth (metres). */
export interface HeadFrame {
  jointZ: number;
  crownZ: number;
  centreX: number;
  halfDepth: number;
}

const HEAD_WEIGHT_SET = HEAD;

/** Weight sum of `set` joints at vertex v (clamped to 1). */
function weightSum(model: BodyModel, v: number, set: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < 4; i++) if (set.includes(model.skinIndices[4 * v + i])) s += model.skinWeights[4 * v + i];
  return Math.min(1, s);
}

/**
 * The head frame of `model`: from the vertices whose head-and-neck weight is ≥ 0.5 above the head
 * joint (crown = highest, centre and half-depth from their x extent). A decimated LOD should use
 * its full-resolution parent's frame, so its hair line cannot move (makehuman-set.ts does).
 */
export function headFrame(model: BodyModel): HeadFrame {
  const T = model.template, Jt = model.jointTemplate;
  const jointZ = Jt[3 * 15 + 2];
  let crownZ = jointZ + 0.1, minX = Infinity, maxX = -Infinity;
  for (let v = 0; v < model.vertexCount; v++) {
    if (weightSum(model, v, HEAD_WEIGHT_SET) < 0.5 || T[3 * v + 2] < jointZ) continue;
    crownZ = Math.max(crownZ, T[3 * v + 2]);
    minX = Math.min(minX, T[3 * v]);
    maxX = Math.max(maxX, T[3 * v]);
  }
  if (!Number.isFinite(minX)) return { jointZ, crownZ, centreX: Jt[3 * 15], halfDepth: 0.1 };
  return { jointZ, crownZ, centreX: 0.5 * (minX + maxX), halfDepth: Math.max(0.03, 0.5 * (maxX - minX)) };
}

/**
 * The material vertex buffer of `model` (see the module doc).
 *
 * @param head the head frame (default {@link headFrame} of the model itself).
 * @returns V × 32 bytes.
 * @throws Error when the model does not have SMPL's 24 joints.
 */
export function materialVertexData(model: BodyModel, head: HeadFrame = headFrame(model)): ArrayBuffer {
  if (model.jointCount !== SMPL_JOINT_COUNT) throw new Error(`materialVertexData ${model.name}: needs SMPL's 24 joints, has ${model.jointCount}`);
  const V = model.vertexCount;
  const T = model.template, Jt = model.jointTemplate;
  const joint = (k: number) => [Jt[3 * k], Jt[3 * k + 1], Jt[3 * k + 2]];
  const avgZ = (a: number, b: number) => 0.5 * (Jt[3 * a + 2] + Jt[3 * b + 2]);
  const knots = [avgZ(7, 8), avgZ(4, 5), Jt[2], Jt[3 * 12 + 2], Jt[3 * 15 + 2]];
  const arms = [[16, 18, 20, 22].map(joint), [17, 19, 21, 23].map(joint)];
  const sum = (v: number, set: readonly number[]) => weightSum(model, v, set);
  const { jointZ: hz, crownZ: top, centreX: cx, halfDepth } = head;
  const out = new ArrayBuffer(V * MATERIAL_VERTEX_LAYOUT.stride);
  const f = new Float32Array(out), u8 = new Uint8Array(out);
  for (let v = 0; v < V; v++) {
    const p = [T[3 * v], T[3 * v + 1], T[3 * v + 2]];
    const o = v * 8;
    f.set(p, o);
    f[o + 3] = knotCoordinate(p[2], knots);
    f[o + 4] = polylineParameter(p, arms[p[1] >= 0 ? 0 : 1]);
    f[o + 5] = (p[2] - hz) / (top - hz);
    f[o + 6] = (cx - p[0]) / halfDepth;
    const b = v * 32 + 28;
    u8[b] = Math.round(255 * sum(v, ARM));
    u8[b + 1] = Math.round(255 * sum(v, HAND));
    u8[b + 2] = Math.round(255 * sum(v, HEAD));
    u8[b + 3] = Math.round(255 * sum(v, FOOT));
  }
  return out;
}
