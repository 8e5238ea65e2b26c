/**
 * Plain 2D vectors for the crowd reference (the x-y plane of the Z-up world frame, metres or m/s).
 * Immutable value helpers in RVO2's vocabulary (`src/Vector2.h`: `det`, `absSq`, `normalize`).
 */

/** A 2D vector: a position (m) or velocity (m/s) in the world x-y plane. */
export interface Vec2 {
  readonly x: number;
  readonly y: number;
}

/** `{x, y}`. */
export const vec2 = (x: number, y: number): Vec2 => ({ x, y });
/** a + b. */
export const add = (a: Vec2, b: Vec2): Vec2 => ({ x: a.x + b.x, y: a.y + b.y });
/** a − b. */
export const sub = (a: Vec2, b: Vec2): Vec2 => ({ x: a.x - b.x, y: a.y - b.y });
/** s·a. */
export const scale = (a: Vec2, s: number): Vec2 => ({ x: a.x * s, y: a.y * s });
/** Dot product a·b. */
export const dot = (a: Vec2, b: Vec2): number => a.x * b.x + a.y * b.y;
/** 2D cross product (determinant of the 2×2 matrix with columns a, b): a.x·b.y − a.y·b.x. */
export const det = (a: Vec2, b: Vec2): number => a.x * b.y - a.y * b.x;
/** |a|². */
export const absSq = (a: Vec2): number => a.x * a.x + a.y * a.y;
/** |a|. */
export const abs = (a: Vec2): number => Math.sqrt(absSq(a));
/** a / |a| (NaN for the zero vector, as in RVO2). */
export const normalize = (a: Vec2): Vec2 => scale(a, 1 / abs(a));
/** Signed area test of RVO2's `leftOf(a, b, c)` = det(a − c, b − a): > 0 when c is left of a→b. */
export const leftOf = (a: Vec2, b: Vec2, c: Vec2): number => det(sub(a, c), sub(b, a));

/** Squared distance from point c to segment a–b (RVO2 `distSqPointLineSegment`). */
export function distSqPointLineSegment(a: Vec2, b: Vec2, c: Vec2): number {
  const ab = sub(b, a);
  const r = dot(sub(c, a), ab) / absSq(ab);
  if (r < 0) return absSq(sub(c, a));
  if (r > 1) return absSq(sub(c, b));
  return absSq(sub(c, add(a, scale(ab, r))));
}
