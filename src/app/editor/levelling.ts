/**
 * Levelling a capture in the scene editor: from a fitted ground plane (capture frame) to the scene
 * transform that puts the ground at world z = 0 with +z up, a chosen yaw and scale; moving the
 * local origin; the three-point override; and carrying drawn annotations along when the
 * transform changes (so they stay on the same spots of the scan).
 */
import type { Vec2 } from '../../core/geometry2d';
import { quatToMat3 } from '../../core/quaternion';
import type { GroundPlane } from '../../splats/ground-plane';
import { levellingRotation } from '../../splats/ground-plane';
import type { SplatCloud } from '../../splats/splat-cloud';
import type { DraftTransform, SceneDraft } from './scene-draft';

type V3 = [number, number, number];

/** Up-axis choices of the editor: a hint for the ground fit (capture frame). */
export const UP_AXES = { auto: null, '+x': [1, 0, 0], '-x': [-1, 0, 0], '+y': [0, 1, 0], '-y': [0, -1, 0], '+z': [0, 0, 1], '-z': [0, 0, -1] } as const satisfies Record<string, V3 | null>;
export type UpAxis = keyof typeof UP_AXES;

/**
 * The transform that levels `plane`: R turns its normal to +z then yaws by `yawDeg` about +z, the
 * plane's centroid goes to the world origin (ground at z = 0), distances × `scale`.
 */
export function levelledTransform(plane: Pick<GroundPlane, 'normal' | 'centroid'>, scale: number, yawDeg: number): DraftTransform {
  const rotation = levellingRotation(plane.normal, (yawDeg * Math.PI) / 180);
  const R = quatToMat3(rotation);
  const c = plane.centroid;
  const translation = [0, 1, 2].map((k) => -scale * (R[3 * k] * c[0] + R[3 * k + 1] * c[1] + R[3 * k + 2] * c[2])) as V3;
  return { scale, rotation, translation };
}

/** Capture point → world (p_w = s R p_c + t). */
export function applyTransform(t: DraftTransform, p: readonly number[]): V3 {
  const R = quatToMat3(t.rotation);
  return [0, 1, 2].map((k) => t.scale * (R[3 * k] * p[0] + R[3 * k + 1] * p[1] + R[3 * k + 2] * p[2]) + t.translation[k]) as V3;
}

/** World point → capture (p_c = Rᵀ (p_w − t) / s). */
export function invertTransform(t: DraftTransform, p: readonly number[]): V3 {
  const R = quatToMat3(t.rotation);
  const d = [p[0] - t.translation[0], p[1] - t.translation[1], p[2] - t.translation[2]];
  return [0, 1, 2].map((k) => (R[k] * d[0] + R[3 + k] * d[1] + R[6 + k] * d[2]) / t.scale) as V3;
}

/** The same transform with the world origin moved to world point (x, y) (the ground height is kept). */
export function shiftOrigin(t: DraftTransform, x: number, y: number): DraftTransform {
  return { ...t, translation: [t.translation[0] - x, t.translation[1] - y, t.translation[2]] };
}

/**
 * Moves every annotation of `d` (polygons, points; taken at `d.groundHeight`) from the world of
 * transform `from` to the world of `to`, so each stays on the same capture point. Heights, names
 * and kinds are unchanged; z is dropped (annotations are 2D on the ground).
 */
export function remapAnnotations(d: SceneDraft, from: DraftTransform, to: DraftTransform): void {
  const move = (v: Vec2): Vec2 => {
    const w = applyTransform(to, invertTransform(from, [v[0], v[1], d.groundHeight]));
    return [w[0], w[1]];
  };
  for (const p of d.polygons) {
    p.outer = p.outer.map(move);
    p.holes = p.holes.map((h) => h.map(move));
  }
  for (const pt of d.points) pt.position = move(pt.position);
}

/**
 * The ground under world point (x, y) of a levelled cloud: the median height of the opaque
 * (≥ 0.5) splats within `radius` metres, or null when there are fewer than 3. For the three-point
 * override, where the user clicks on the top-down view.
 */
export function groundPointAt(cloud: SplatCloud, x: number, y: number, radius: number): V3 | null {
  const zs: number[] = [];
  for (let i = 0; i < cloud.count; i++) {
    if (cloud.opacities[i] < 0.5) continue;
    const dx = cloud.positions[3 * i] - x, dy = cloud.positions[3 * i + 1] - y;
    if (dx * dx + dy * dy <= radius * radius) zs.push(cloud.positions[3 * i + 2]);
  }
  if (zs.length < 3) return null;
  zs.sort((a, b) => a - b);
  return [x, y, zs[zs.length >> 1]];
}

/**
 * The plane through three points (any frame), its normal on the side of `up`.
 *
 * @throws RangeError when the points are (nearly) collinear.
 */
export function planeThroughPoints(a: V3, b: V3, c: V3, up: V3): Pick<GroundPlane, 'normal' | 'centroid'> {
  const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  let n: V3 = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const l = Math.hypot(...n);
  const scale = Math.hypot(...u) * Math.hypot(...v);
  if (!(l > 1e-6 * scale)) throw new RangeError('the three ground points are collinear: pick a triangle');
  n = n.map((x) => x / l) as V3;
  if (n[0] * up[0] + n[1] * up[1] + n[2] * up[2] < 0) n = n.map((x) => -x) as V3;
  return { normal: n, centroid: [0, 1, 2].map((k) => (a[k] + b[k] + c[k]) / 3) as V3 };
}

/** The editor's levelling parameters: ground plane (capture frame; its centroid becomes the world origin), scale and yaw. */
export interface Levelling {
  plane: Pick<GroundPlane, 'normal' | 'centroid'>;
  scale: number;
  yawDeg: number;
}

/** The transform of a levelling (see {@link levelledTransform}). */
export function levellingTransform(l: Levelling): DraftTransform {
  return levelledTransform(l.plane, l.scale, l.yawDeg);
}

/**
 * The levelling that reproduces a transform (a loaded scene file's): normal = Rᵀ z (capture frame),
 * the capture point that maps to the world origin, the scale, and the yaw left after
 * {@link levellingRotation}'s shortest arc.
 */
export function levellingOf(t: DraftTransform): Levelling {
  const R = quatToMat3(t.rotation);
  const normal: V3 = [R[6], R[7], R[8]];
  const R0 = quatToMat3(levellingRotation(normal));
  // Rz(yaw) = R R0ᵀ: its first column is (cos, sin, 0).
  const m00 = R[0] * R0[0] + R[1] * R0[1] + R[2] * R0[2];
  const m10 = R[3] * R0[0] + R[4] * R0[1] + R[5] * R0[2];
  return { plane: { normal, centroid: invertTransform(t, [0, 0, 0]) }, scale: t.scale, yawDeg: (Math.atan2(m10, m00) * 180) / Math.PI };
}
