/**
 * The expert's lateral plan: where across the sidewalk to be when passing the pedestrians ahead.
 *
 * ORCA alone is local and sees the robot as a disc around its footprint's half-diagonal; on a 1.7–3 m
 * sidewalk with a queue or a non-yielding oncoming pedestrian it asks for more room than there is,
 * and the unicycle (0.65 rad/s) starts its sidestep too late. So, in the route's frame (along the
 * tangent at the robot's route progress, lateral along its left normal), the expert collects the
 * bodies it must pass — standing pedestrians merged into groups (passed as a whole, never between
 * members: SidewalkBench's Conversing and Queuing rule), slow walkers, and oncoming pedestrians at the
 * lateral position they will have when they meet the robot — measures the walkable width from the
 * walkable-area boundary, and picks a lateral offset in the widest free gap beside all of them. The
 * policy then pursues the route shifted by that offset, slows down while the shift is not done, and
 * stops short of a body that leaves no gap (a queue across the whole sidewalk) until it moves.
 * Deterministic: ties go to the right-hand side.
 */
import { closestOnSegment, ringIntersectsCircle, segmentsIntersect, type Vec2 } from '../core/geometry2d';
import type { Observation } from '../sim/episode-contracts';
import type { RobotSpec } from '../robot/robot-spec';
import { footprintCorners, type RobotState, type VelocityCommand } from '../robot/unicycle';

export interface LateralOptions {
  /** Standing bodies this far ahead of the robot (along the route), metres, are planned around. */
  staticWindow: number;
  /** Oncoming pedestrians meeting the robot within this time, s, are planned around. */
  meetWindow: number;
  /** A pedestrian counts as oncoming when its velocity against the route tangent exceeds this, m/s. */
  oncomingSpeed: number;
  /** …and its lateral speed is below this fraction of that (it walks along the sidewalk). */
  oncomingSlope: number;
  /** Pedestrians slower than this (not oncoming) are passed as standing bodies, m/s. */
  slowSpeed: number;
  /** Slow pedestrians closer than this form one body (a group), metres. */
  linkDistance: number;
  /** Clearance between the footprint and a pedestrian cylinder / the sidewalk edge, metres. */
  pedestrianClearance: number;
  edgeClearance: number;
  /** The smallest clearances accepted when the preferred ones leave no gap, metres. */
  minPedestrianClearance: number;
  minEdgeClearance: number;
  /** Robot speed assumed when predicting where an oncoming pedestrian is met, m/s. */
  plannedSpeed: number;
}

export const DEFAULT_LATERAL: LateralOptions = {
  staticWindow: 7,
  meetWindow: 8,
  oncomingSpeed: 0.3,
  oncomingSlope: 0.4,
  slowSpeed: 0.8,
  linkDistance: 1.8,
  pedestrianClearance: 0.2,
  edgeClearance: 0.15,
  minPedestrianClearance: 0.05,
  minEdgeClearance: 0.05,
  plannedSpeed: 0.8,
};

/** A body to pass: its along-route and lateral extents in the route frame, metres. */
export interface Body {
  along: [number, number];
  lateral: [number, number];
  /** Pedestrian indices in it. */
  members: number[];
  oncoming: boolean;
  /** Seconds until an oncoming body meets the robot (0 for standing ones). */
  meet: number;
}

/** The plan for this control step. */
export interface LateralPlan {
  /** Route frame: origin (the robot's foot on the route's tangent line at its progress), unit tangent, left normal. */
  origin: Vec2;
  tangent: Vec2;
  normal: Vec2;
  /** The robot's lateral position and the target one, metres. */
  robotLateral: number;
  target: number;
  /** The bodies being passed. */
  bodies: Body[];
  /** No gap beside the bodies: stop short of the nearest one (its near end, along the route, metres). */
  blockedAt: number | null;
}

/** Walkable-boundary segments within `range` metres of a route (computed once per episode). */
export function edgesNearRoute(edges: readonly [Vec2, Vec2][], route: readonly Vec2[], range: number): [Vec2, Vec2][] {
  const pts: Vec2[] = [];
  for (let i = 0; i + 1 < route.length; i++) {
    const [ax, ay] = route[i];
    const [bx, by] = route[i + 1];
    const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / 2));
    for (let k = 0; k < n; k++) pts.push([ax + ((bx - ax) * k) / n, ay + ((by - ay) * k) / n]);
  }
  pts.push(route[route.length - 1]);
  return edges.filter(([a, b]) => {
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const n = Math.max(1, Math.ceil(len / 2));
    for (let k = 0; k <= n; k++) {
      const x = a[0] + ((b[0] - a[0]) * k) / n;
      const y = a[1] + ((b[1] - a[1]) * k) / n;
      if (pts.some(([px, py]) => Math.hypot(px - x, py - y) < range + 1)) return true;
    }
    return false;
  });
}

/** Distance from `q` along `dir` to the first boundary segment, metres (capped at `cap`). */
function rayDistance(q: Vec2, dir: Vec2, edges: readonly [Vec2, Vec2][], cap: number): number {
  let best = cap;
  for (const [a, b] of edges) {
    const ex = b[0] - a[0];
    const ey = b[1] - a[1];
    const den = dir[0] * ey - dir[1] * ex;
    if (Math.abs(den) < 1e-12) continue;
    const wx = a[0] - q[0];
    const wy = a[1] - q[1];
    const u = (wx * ey - wy * ex) / den;
    const w = (wx * dir[1] - wy * dir[0]) / den;
    if (u > 1e-6 && u < best && w >= 0 && w <= 1) best = u;
  }
  return best;
}

/** Walkable extent [right (≤ 0), left (≥ 0)] across the route frame at along positions a0..a1, the narrowest. */
export function walkableExtent(frame: Pick<LateralPlan, 'origin' | 'tangent' | 'normal'>, a0: number, a1: number, edges: readonly [Vec2, Vec2][]): [number, number] {
  let left = 6;
  let right = 6;
  const n = Math.max(1, Math.ceil((a1 - a0) / 0.5));
  for (let k = 0; k <= n; k++) {
    const a = a0 + ((a1 - a0) * k) / n;
    const q: Vec2 = [frame.origin[0] + frame.tangent[0] * a, frame.origin[1] + frame.tangent[1] * a];
    left = Math.min(left, rayDistance(q, frame.normal, edges, 6));
    right = Math.min(right, rayDistance(q, [-frame.normal[0], -frame.normal[1]], edges, 6));
  }
  return [-right, left];
}

/**
 * The lateral plan for this step. `previous` is the last target (kept while it stays feasible, so
 * the robot does not swap sides mid-manoeuvre); `extraDiscs` are small static obstacles (posts) that
 * also close gaps while bodies are being passed.
 */
export function planLateral(
  obs: Pick<Observation, 'state' | 'route' | 'pedestrians' | 'pedestrianVelocities'>,
  spec: RobotSpec,
  edges: readonly [Vec2, Vec2][],
  previous: number | null,
  extraDiscs: readonly { position: { x: number; y: number }; radius: number }[] = [],
  o: LateralOptions = DEFAULT_LATERAL,
): LateralPlan {
  const s = obs.state;
  const route = obs.route;
  const origin = route.pointAt(route.progress);
  const ahead = route.pointAt(route.progress + 0.5);
  const behind = route.pointAt(route.progress - 0.5);
  let tx = ahead[0] - behind[0];
  let ty = ahead[1] - behind[1];
  const tl = Math.hypot(tx, ty);
  if (tl < 1e-9) {
    tx = Math.cos(s.yaw);
    ty = Math.sin(s.yaw);
  } else {
    tx /= tl;
    ty /= tl;
  }
  // The frame's origin is the robot's foot on the route's tangent line (the route point itself when
  // the robot is beside it; ahead of the robot when it is behind the route's start, where progress
  // clamps to 0), so along-route positions are measured from the robot.
  const foot = (s.x - origin[0]) * tx + (s.y - origin[1]) * ty;
  const frame = { origin: [origin[0] + tx * foot, origin[1] + ty * foot] as Vec2, tangent: [tx, ty] as Vec2, normal: [-ty, tx] as Vec2 };
  const [ox, oy] = frame.origin;
  const toFrame = (x: number, y: number): Vec2 => [(x - ox) * tx + (y - oy) * ty, -(x - ox) * ty + (y - oy) * tx];
  const [, robotLateral] = toFrame(s.x, s.y);
  const halfLength = spec.length / 2 + Math.max(0, spec.footprintOffsetX);
  const rear = -(spec.length / 2 - Math.min(0, spec.footprintOffsetX));
  const plan: LateralPlan = { ...frame, robotLateral, target: 0, bodies: [], blockedAt: null };

  // Pedestrians in the route frame; slow ones are linked into groups.
  const n = obs.pedestrians.length;
  const local = obs.pedestrians.map((p) => toFrame(p.x, p.y));
  const vel = obs.pedestrians.map((_, i) => {
    const [vx, vy] = obs.pedestrianVelocities[i] ?? [0, 0];
    return [vx * tx + vy * ty, -vx * ty + vy * tx] as Vec2;
  });
  // Oncoming along the sidewalk (not crossing it: those are left to ORCA alone).
  const oncoming = vel.map((v) => v[0] < -o.oncomingSpeed && Math.abs(v[1]) < o.oncomingSlope * -v[0]);
  const slow = vel.map((v, i) => !oncoming[i] && Math.hypot(v[0], v[1]) < o.slowSpeed);
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (slow[i] && slow[j] && Math.hypot(local[i][0] - local[j][0], local[i][1] - local[j][1]) < o.linkDistance) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) if (slow[i]) groups.set(find(i), [...(groups.get(find(i)) ?? []), i]);
  const bodies: Body[] = [];
  for (const members of groups.values()) {
    const r = (i: number) => obs.pedestrians[i].radius;
    const along: [number, number] = [Math.min(...members.map((i) => local[i][0] - r(i) + Math.min(0, vel[i][0]) * 2)), Math.max(...members.map((i) => local[i][0] + r(i) + Math.max(0, vel[i][0]) * 2))];
    if (along[1] < rear - 0.3 || along[0] > halfLength + o.staticWindow) continue;
    bodies.push({ along, lateral: [Math.min(...members.map((i) => local[i][1] - r(i))), Math.max(...members.map((i) => local[i][1] + r(i)))], members, oncoming: false, meet: 0 });
  }
  for (let i = 0; i < n; i++) {
    if (!oncoming[i]) continue;
    const [a, l] = local[i];
    const r = obs.pedestrians[i].radius;
    if (a + r < rear - 0.3) continue;
    const meet = Math.max(0, a - halfLength - r) / (o.plannedSpeed - vel[i][0]);
    if (meet > o.meetWindow) continue;
    const lm = l + vel[i][1] * Math.min(meet, 3);
    bodies.push({ along: [rear - 0.3, a + r], lateral: [Math.min(l, lm) - r, Math.max(l, lm) + r], members: [i], oncoming: true, meet });
  }
  if (bodies.length === 0) return plan;
  plan.bodies = bodies;

  // Small static obstacles beside the bodies close gaps too.
  const a0 = Math.min(0, ...bodies.map((b) => b.along[0]));
  const a1 = Math.max(...bodies.map((b) => b.along[1]));
  const blockers = bodies.map((b) => b.lateral);
  for (const d of extraDiscs) {
    const [a, l] = toFrame(d.position.x, d.position.y);
    if (a + d.radius > a0 && a - d.radius < a1) blockers.push([l - d.radius, l + d.radius]);
  }
  const [eRight, eLeft] = walkableExtent(frame, a0, a1, edges);
  const half = spec.width / 2;
  const gaps = (pc: number, ec: number): [number, number][] => {
    let free: [number, number][] = [[eRight + half + ec, eLeft - half - ec]];
    for (const [l0, l1] of blockers) {
      const lo = l0 - half - pc;
      const hi = l1 + half + pc;
      free = free.flatMap(([f0, f1]): [number, number][] => (hi <= f0 || lo >= f1 ? [[f0, f1]] : ([[f0, Math.min(f1, lo)], [Math.max(f0, hi), f1]] as [number, number][]).filter(([x, y]) => y - x > 1e-6)));
    }
    return free.filter(([x, y]) => y >= x);
  };
  let free = gaps(o.pedestrianClearance, o.edgeClearance);
  if (free.length === 0) free = gaps(o.minPedestrianClearance, o.minEdgeClearance);
  if (free.length === 0) {
    plan.target = robotLateral;
    plan.blockedAt = Math.min(...bodies.map((b) => b.along[0]));
    return plan;
  }
  // Keep the previous side while it is feasible; else the widest gap, ties to the right.
  const keep = previous === null ? undefined : free.find(([x, y]) => previous >= x - 0.05 && previous <= y + 0.05);
  const pick = keep ?? free.reduce((best, g) => (g[1] - g[0] > best[1] - best[0] + 1e-6 ? g : best));
  // Aim for the middle of the gap, no farther from the bodies than needed when the gap is wide.
  const mid = (pick[0] + pick[1]) / 2;
  const slack = Math.max(0, (pick[1] - pick[0]) / 2 - 0.25);
  plan.target = Math.min(mid + slack, Math.max(mid - slack, 0));
  return plan;
}

/**
 * Whether command `cmd`, held for `horizon` seconds, keeps the footprint on walkable ground: no
 * segment from the predicted base to a footprint corner crosses the walkable boundary (corners
 * already across it now are not judged). Turning in place next to the kerb swings the
 * corners (half-diagonal) over it; the policy stops the turn when this is false.
 */
export function keepsOnWalkable(state: Readonly<RobotState>, cmd: VelocityCommand, spec: RobotSpec, edges: readonly [Vec2, Vec2][], horizon: number): boolean {
  const steps = 5;
  const p: RobotState = { ...state };
  const near = edges.filter(([a, b]) => closestOnSegment(state.x, state.y, a[0], a[1], b[0], b[1]).dist2 < (cmd.v * horizon + spec.length + spec.width) ** 2);
  if (near.length === 0) return true;
  const across = (from: Vec2, c: Vec2) => near.some(([a, b]) => segmentsIntersect(from, c, a, b));
  const judged = footprintCorners(state, spec).map((c) => !across([state.x, state.y], c));
  for (let k = 0; k < steps; k++) {
    const dt = horizon / steps;
    p.yaw += cmd.w * dt;
    p.x += cmd.v * Math.cos(p.yaw) * dt;
    p.y += cmd.v * Math.sin(p.yaw) * dt;
    const base: Vec2 = [p.x, p.y];
    if (across([state.x, state.y], base)) return false;
    if (footprintCorners(p, spec).some((c, i) => judged[i] && across(base, c))) return false;
  }
  return true;
}

/**
 * Whether command `cmd`, held for `horizon` seconds, keeps the footprint clear (by `clearance`
 * metres) of the pedestrians moving at their current velocities. Pedestrians touching it already
 * are not judged (nothing the robot does now undoes that).
 */
export function clearOfPedestrians(state: Readonly<RobotState>, cmd: VelocityCommand, spec: RobotSpec, obs: Pick<Observation, 'pedestrians' | 'pedestrianVelocities'>, horizon: number, clearance: number): boolean {
  const steps = 5;
  const reach = Math.hypot(spec.length / 2 + Math.abs(spec.footprintOffsetX), spec.width / 2);
  const peds = obs.pedestrians
    .map((p, i) => ({ p, v: obs.pedestrianVelocities[i] ?? [0, 0] }))
    .filter(({ p, v }) => Math.hypot(p.x - state.x, p.y - state.y) < reach + p.radius + clearance + (cmd.v + Math.hypot(v[0], v[1])) * horizon)
    .filter(({ p }) => !ringIntersectsCircle(footprintCorners(state, spec), p.x, p.y, p.radius + clearance));
  if (peds.length === 0) return true;
  const q: RobotState = { ...state };
  for (let k = 1; k <= steps; k++) {
    const dt = horizon / steps;
    q.yaw += cmd.w * dt;
    q.x += cmd.v * Math.cos(q.yaw) * dt;
    q.y += cmd.v * Math.sin(q.yaw) * dt;
    const fp = footprintCorners(q, spec);
    const t = k * dt;
    if (peds.some(({ p, v }) => ringIntersectsCircle(fp, p.x + v[0] * t, p.y + v[1] * t, p.radius + clearance))) return false;
  }
  return true;
}
