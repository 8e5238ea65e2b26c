/**
 * The low-dimensional linear programs of ORCA (van den Berg, Guy, Lin & Manocha 2011,
 * "Reciprocal n-body collision avoidance", §5.2; RVO2 `src/Agent.cc` `linearProgram1/2/3`, same
 * names and argument order). Velocities in m/s in the world x-y plane.
 *
 * A {@link Line} is a directed line; the permitted half-plane is to its left, i.e. velocity v
 * satisfies the constraint iff det(direction, point − v) ≤ 0.
 */
import { type Vec2, add, absSq, det, dot, normalize, scale, sub, vec2 } from './vec2';

/** An ORCA half-plane: permitted velocities lie left of `point + t·direction` (`direction` unit). */
export interface Line {
  point: Vec2;
  direction: Vec2;
}

/** RVO2's `RVO_EPSILON`: |det| below this counts as parallel lines (dimensionless, on unit directions). */
export const RVO_EPSILON = 0.00001;

/** Mutable output slot for the linear programs (RVO2 passes `Vector2 &result`). */
export interface VelocityResult {
  value: Vec2;
}

/**
 * Solves the 1D LP on line `lineNo` within the speed circle of `radius`, subject to lines
 * 0..lineNo−1 (paper §5.2). With `directionOpt`, maximises along `optVelocity` (a unit vector);
 * otherwise finds the point closest to `optVelocity`.
 *
 * @returns false when infeasible (the circle misses the line, or a parallel line excludes it, or
 *   the interval is empty); `result.value` is then unchanged.
 */
export function linearProgram1(
  lines: readonly Line[], lineNo: number, radius: number, optVelocity: Vec2, directionOpt: boolean, result: VelocityResult,
): boolean {
  const line = lines[lineNo];
  const dotProduct = dot(line.point, line.direction);
  const discriminant = dotProduct * dotProduct + radius * radius - absSq(line.point);
  if (discriminant < 0) return false; // Max speed circle fully invalidates line lineNo.
  const sqrtDiscriminant = Math.sqrt(discriminant);
  let tLeft = -dotProduct - sqrtDiscriminant;
  let tRight = -dotProduct + sqrtDiscriminant;
  for (let i = 0; i < lineNo; i++) {
    const denominator = det(line.direction, lines[i].direction);
    const numerator = det(lines[i].direction, sub(line.point, lines[i].point));
    if (Math.abs(denominator) <= RVO_EPSILON) {
      // Lines lineNo and i are (almost) parallel.
      if (numerator < 0) return false;
      continue;
    }
    const t = numerator / denominator;
    if (denominator >= 0) tRight = Math.min(tRight, t); // Line i bounds line lineNo on the right.
    else tLeft = Math.max(tLeft, t); // Line i bounds line lineNo on the left.
    if (tLeft > tRight) return false;
  }
  if (directionOpt) {
    // Optimise direction: take the extreme along optVelocity.
    const t = dot(optVelocity, line.direction) > 0 ? tRight : tLeft;
    result.value = add(line.point, scale(line.direction, t));
  } else {
    // Optimise closest point.
    const t = dot(line.direction, sub(optVelocity, line.point));
    const clamped = t < tLeft ? tLeft : Math.min(t, tRight);
    result.value = add(line.point, scale(line.direction, clamped));
  }
  return true;
}

/**
 * Solves the 2D LP: the velocity in the disc of `radius` satisfying all `lines` that is closest to
 * `optVelocity` (or, with `directionOpt`, furthest along the unit vector `optVelocity`), by
 * randomised-incremental style insertion in the given order (paper §5.2).
 *
 * @returns the index of the first line whose 1D LP failed (the result then satisfies lines before
 *   it), or `lines.length` on success.
 */
export function linearProgram2(
  lines: readonly Line[], radius: number, optVelocity: Vec2, directionOpt: boolean, result: VelocityResult,
): number {
  if (directionOpt) {
    // Optimise direction; optVelocity is a unit vector here.
    result.value = scale(optVelocity, radius);
  } else if (absSq(optVelocity) > radius * radius) {
    // Optimise closest point, optVelocity outside the circle.
    result.value = scale(normalize(optVelocity), radius);
  } else {
    // Optimise closest point, optVelocity inside the circle.
    result.value = optVelocity;
  }
  for (let i = 0; i < lines.length; i++) {
    if (det(lines[i].direction, sub(lines[i].point, result.value)) > 0) {
      // Result does not satisfy constraint i: compute a new optimum on line i.
      const tempResult = result.value;
      if (!linearProgram1(lines, i, radius, optVelocity, directionOpt, result)) {
        result.value = tempResult;
        return i;
      }
    }
  }
  return lines.length;
}

/**
 * The 3D LP used when the 2D LP is infeasible (paper §5.2, "dense conditions"): from line
 * `beginLine` on, minimises the largest penetration into the agent half-planes while keeping the
 * first `numObstLines` (obstacle) lines hard, by a 2D LP on the bisectors of each violated line.
 * Updates `result` in place.
 */
export function linearProgram3(
  lines: readonly Line[], numObstLines: number, beginLine: number, radius: number, result: VelocityResult,
): void {
  let distance = 0;
  for (let i = beginLine; i < lines.length; i++) {
    if (det(lines[i].direction, sub(lines[i].point, result.value)) > distance) {
      // Result does not satisfy the constraint of line i.
      const projLines: Line[] = lines.slice(0, numObstLines);
      for (let j = numObstLines; j < i; j++) {
        let point: Vec2;
        const determinant = det(lines[i].direction, lines[j].direction);
        if (Math.abs(determinant) <= RVO_EPSILON) {
          // Line i and line j are parallel.
          if (dot(lines[i].direction, lines[j].direction) > 0) continue; // Same direction.
          point = scale(add(lines[i].point, lines[j].point), 0.5); // Opposite direction.
        } else {
          const t = det(lines[j].direction, sub(lines[i].point, lines[j].point)) / determinant;
          point = add(lines[i].point, scale(lines[i].direction, t));
        }
        projLines.push({ point, direction: normalize(sub(lines[j].direction, lines[i].direction)) });
      }
      const tempResult = result.value;
      const optDirection = vec2(-lines[i].direction.y, lines[i].direction.x);
      if (linearProgram2(projLines, radius, optDirection, true, result) < projLines.length) {
        // In principle impossible (the result is feasible by construction); floating-point error:
        // keep the current result.
        result.value = tempResult;
      }
      distance = det(lines[i].direction, sub(lines[i].point, result.value));
    }
  }
}
