/**
 * The arena agent's body on the pedestrian network: 360CityArena's movement model (a walker that
 * moves forward along the captured street trajectories and picks a branch where they fork; paper
 * §3.1 and its runner's key actions) on Curbside's navigation graph (`world.nav`, waypoints every
 * ~2 m on sidewalks and crosswalks).
 *
 * The walker stands on an edge of the graph, travelling from one waypoint to the next; its camera
 * looks `viewYaw` radians left of the travel direction and `pitch` radians up. Walking forward moves
 * along the edge at {@link WALK_SPEED} and carries on through plain waypoints (two edges; the camera
 * turns with the path, as in a video), and stops at a *branch* waypoint (three or more edges: where
 * a crosswalk leaves a sidewalk, a corner, a fork) or a dead end. Facing backwards (|viewYaw| > 90°)
 * and walking forward turns round on the edge first. At a branch the walker leaves by the edge most
 * nearly in the camera's direction (within {@link BRANCH_CONE}), or by one picked with `LEFT`,
 * `UP`, `RIGHT` ({@link branchOptions}).
 *
 * Frames and units: world frame (Z up, metres), yaw in radians from +x counter-clockwise, time in
 * seconds. Plain data, deterministic: the same actions give the same states bit for bit.
 */
import type { Vec2 } from '../world/geometry';
import type { NavGraph } from '../world/navgraph';
import { navIndex, type NavNeighbour } from '../world/nav-index';

/** Walking speed, m/s (a pedestrian's preferred speed; SidewalkBench's walkers 1.1–1.65). */
export const WALK_SPEED = 1.4;
/** Widest angle between the camera and an edge for forward to take that edge at a branch, rad (60°). */
export const BRANCH_CONE = Math.PI / 3;
/** Half-width of the straight-on sector at a branch, rad (35°): `UP` takes an edge within it. */
export const STRAIGHT_SECTOR = (35 * Math.PI) / 180;
/** Widest angle from the travel direction that `LEFT` / `RIGHT` take, rad (150°): nothing that turns back. */
export const SIDE_LIMIT = (150 * Math.PI) / 180;
/** Pitch limits, rad: 360CityArena's camera clamps to [−75°, +85°]. */
export const PITCH_MIN = (-75 * Math.PI) / 180;
export const PITCH_MAX = (85 * Math.PI) / 180;

/** Where the walker is and where it looks. */
export interface WalkerState {
  /** The edge it is on, travelling from waypoint `from` to waypoint `to` (`world.nav.nodes` indices). */
  from: number;
  to: number;
  /** Distance travelled along the edge from `from`, metres, in [0, edge length]. */
  offset: number;
  /** Camera yaw left of the travel direction, rad, in (−π, π]. */
  viewYaw: number;
  /** Camera pitch, rad, up positive, in [{@link PITCH_MIN}, {@link PITCH_MAX}]. */
  pitch: number;
}

/** A branch the walker can take at a branch waypoint. */
export interface BranchOption {
  /** The token that takes it, or null when the edge is reachable only by facing it and walking. */
  token: 'LEFT' | 'UP' | 'RIGHT' | null;
  /** The waypoint the branch leads to. */
  to: number;
  /** Angle left of the travel direction, rad. */
  angle: number;
  kind: 'sidewalk' | 'crosswalk';
}

/** What a forward walk did. */
export interface WalkResult {
  /** Metres walked. */
  distance: number;
  /** Seconds spent walking (distance / speed). */
  seconds: number;
  /** Why it stopped before the time ran out, or null. */
  stop: 'branch' | 'dead-end' | 'no-path-ahead' | null;
}

const wrap = (a: number): number => {
  let r = a % (2 * Math.PI);
  if (r <= -Math.PI) r += 2 * Math.PI;
  if (r > Math.PI) r -= 2 * Math.PI;
  return r;
};

/** The walker on a navigation graph (see the module comment). */
export class NetworkWalker {
  private readonly adj: readonly NavNeighbour[][];

  /**
   * @param nav the world's navigation graph.
   * @param state the starting state (copied).
   * @throws RangeError when `from`–`to` is not an edge of the graph or the offset is off it.
   */
  constructor(private readonly nav: NavGraph, state: WalkerState) {
    this.adj = navIndex(nav).adj;
    const len = this.edgeLength(state.from, state.to);
    if (len === undefined) throw new RangeError(`walker: ${state.from}–${state.to} is not an edge of the pedestrian network`);
    if (!(state.offset >= 0 && state.offset <= len)) throw new RangeError(`walker: offset ${state.offset} outside the edge (0..${len.toFixed(3)} m)`);
    this.s = { ...state };
  }

  private s: WalkerState;

  /** A walker standing on waypoint `node` facing along its edge to `towards`. */
  static atNode(nav: NavGraph, node: number, towards: number): NetworkWalker {
    return new NetworkWalker(nav, { from: node, to: towards, offset: 0, viewYaw: 0, pitch: 0 });
  }

  /** A copy of the state. */
  get state(): WalkerState {
    return { ...this.s };
  }

  private edgeLength(a: number, b: number): number | undefined {
    return this.adj[a]?.find((n) => n.to === b)?.length;
  }

  private dirYaw(a: number, b: number): number {
    const p = this.nav.nodes[a];
    const q = this.nav.nodes[b];
    return Math.atan2(q[1] - p[1], q[0] - p[0]);
  }

  /** Ground position, metres. */
  get position(): Vec2 {
    const p = this.nav.nodes[this.s.from];
    const q = this.nav.nodes[this.s.to];
    const len = this.edgeLength(this.s.from, this.s.to)!;
    const t = len > 0 ? this.s.offset / len : 0;
    return [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t];
  }

  /** Travel direction, rad from +x. */
  get travelYaw(): number {
    return this.dirYaw(this.s.from, this.s.to);
  }

  /** Camera yaw in the world, rad from +x, in (−π, π]. */
  get cameraYaw(): number {
    return wrap(this.travelYaw + this.s.viewYaw);
  }

  /** The waypoint the walker stands on (at either end of its edge), or null between waypoints. */
  get node(): number | null {
    if (this.s.offset === 0) return this.s.from;
    if (this.s.offset === this.edgeLength(this.s.from, this.s.to)) return this.s.to;
    return null;
  }

  /** Whether the walker stands on a branch waypoint (three or more edges). */
  get atBranch(): boolean {
    const n = this.node;
    return n !== null && this.adj[n].length >= 3;
  }

  /**
   * The branches at the waypoint the walker stands on (empty elsewhere): every edge but the one it
   * came along, with its angle left of the travel direction and the token that takes it: `UP` the
   * straightest within ±35°, `LEFT` / `RIGHT` the one nearest ±90° among the rest on that side
   * (between 17.5° and 150°), sorted from the leftmost.
   */
  branchOptions(): BranchOption[] {
    if (!this.atBranch) return [];
    const n = this.node!;
    // Arrived at `to`: every edge but the one behind. Standing at `from` (a start, a branch just taken): every edge.
    const back = n === this.s.to ? this.s.from : -1;
    const travel = this.travelYaw;
    const opts: BranchOption[] = this.adj[n]
      .filter((e) => e.to !== back)
      .map((e) => ({ token: null, to: e.to, angle: wrap(this.dirYaw(n, e.to) - travel), kind: e.kind }));
    const straight = opts.filter((o) => Math.abs(o.angle) <= STRAIGHT_SECTOR).sort((a, b) => Math.abs(a.angle) - Math.abs(b.angle) || a.to - b.to)[0];
    if (straight) straight.token = 'UP';
    const side = (sign: 1 | -1) =>
      opts
        .filter((o) => o.token === null && o.angle * sign > STRAIGHT_SECTOR / 2 && o.angle * sign <= SIDE_LIMIT)
        .sort((a, b) => Math.abs(a.angle * sign - Math.PI / 2) - Math.abs(b.angle * sign - Math.PI / 2) || a.to - b.to)[0];
    const left = side(1);
    if (left) left.token = 'LEFT';
    const right = side(-1);
    if (right) right.token = 'RIGHT';
    return opts.sort((a, b) => b.angle - a.angle || a.to - b.to);
  }

  /**
   * Takes the branch of `token` at a branch waypoint: the walker turns onto its edge, facing along
   * it (the view resets to the travel direction), without moving.
   *
   * @returns false (nothing changes) when not at a branch or no branch has that token.
   */
  takeBranch(token: 'LEFT' | 'UP' | 'RIGHT'): boolean {
    const o = this.branchOptions().find((b) => b.token === token);
    if (!o) return false;
    this.s = { from: this.node!, to: o.to, offset: 0, viewYaw: 0, pitch: this.s.pitch };
    return true;
  }

  /** Turns the camera left by `rad` (negative: right). */
  rotate(rad: number): void {
    this.s.viewYaw = wrap(this.s.viewYaw + rad);
  }

  /** Tilts the camera up by `rad` (negative: down), clamped to the pitch limits. */
  tilt(rad: number): void {
    this.s.pitch = Math.min(PITCH_MAX, Math.max(PITCH_MIN, this.s.pitch + rad));
  }

  /** Points the camera along the travel direction, level (360CityArena's `S`). */
  resetView(): void {
    this.s.viewYaw = 0;
    this.s.pitch = 0;
  }

  /** Turns round on the edge: the travel direction reverses, the camera keeps its world direction. */
  private reverse(): void {
    const len = this.edgeLength(this.s.from, this.s.to)!;
    this.s = { from: this.s.to, to: this.s.from, offset: len - this.s.offset, viewYaw: wrap(this.s.viewYaw + Math.PI), pitch: this.s.pitch };
  }

  /** Of `edges` leaving waypoint n, the one most nearly in the camera's direction within {@link BRANCH_CONE} (ties by waypoint), or undefined. */
  private nearestToCamera(n: number, edges: readonly NavNeighbour[]): NavNeighbour | undefined {
    const camera = this.cameraYaw;
    return edges
      .map((e) => ({ e, d: Math.abs(wrap(this.dirYaw(n, e.to) - camera)) }))
      .filter((c) => c.d <= BRANCH_CONE)
      .sort((a, b) => a.d - b.d || a.e.to - b.e.to)[0]?.e;
  }

  /**
   * At a waypoint where the current edge ends, moves onto the edge to leave by: the other edge of a
   * plain waypoint, the edge nearest the camera's direction at a branch (within BRANCH_CONE).
   * Returns false when there is none (a dead end, or no branch ahead of the camera).
   */
  private leave(n: number, atBranchStart: boolean): boolean {
    const camera = this.cameraYaw;
    const back = this.s.from;
    const out = this.adj[n].filter((e) => e.to !== back);
    let next: NavNeighbour | undefined;
    if (this.adj[n].length === 2 && !atBranchStart) next = out[0];
    else next = this.nearestToCamera(n, out);
    if (!next) return false;
    this.s = { from: n, to: next.to, offset: 0, viewYaw: wrap(camera - this.dirYaw(n, next.to)), pitch: this.s.pitch };
    return true;
  }

  /**
   * Walks forward for `seconds` at {@link WALK_SPEED} (see the module comment for where it stops).
   *
   * @throws RangeError for a negative or non-finite duration.
   */
  forward(seconds: number): WalkResult {
    if (!(seconds >= 0 && Number.isFinite(seconds))) throw new RangeError(`walker: forward ${seconds} s is not a duration`);
    if (Math.abs(this.s.viewYaw) > Math.PI / 2) this.reverse();
    let left = seconds * WALK_SPEED;
    let walked = 0;
    let stop: WalkResult['stop'] = null;
    for (let guard = 0; left > 1e-9 && guard < 100000; guard++) {
      const len = this.edgeLength(this.s.from, this.s.to)!;
      if (this.s.offset >= len) {
        const n = this.s.to;
        if (this.adj[n].length >= 3 && walked > 0) { stop = 'branch'; break; }
        if (this.adj[n].length === 1) { stop = 'dead-end'; break; }
        if (!this.leave(n, this.adj[n].length >= 3)) { stop = 'no-path-ahead'; break; }
        continue;
      }
      if (this.s.offset === 0 && walked === 0 && this.adj[this.s.from].length >= 3) {
        // Leaving a branch waypoint: by the edge nearest the camera (the current one if it is within the cone).
        const n = this.s.from;
        const camera = this.cameraYaw;
        const d = Math.abs(wrap(this.travelYaw - camera));
        if (d > BRANCH_CONE) {
          // The camera faces another branch: take the edge nearest it within the cone (or stop).
          const nearest = this.nearestToCamera(n, this.adj[n]);
          if (!nearest) { stop = 'no-path-ahead'; break; }
          const to = nearest.to;
          this.s = { from: n, to, offset: 0, viewYaw: wrap(camera - this.dirYaw(n, to)), pitch: this.s.pitch };
          continue; // the new edge's length
        }
      }
      const step = Math.min(left, len - this.s.offset);
      this.s.offset = step === len - this.s.offset ? len : this.s.offset + step;
      left -= step;
      walked += step;
    }
    return { distance: walked, seconds: walked / WALK_SPEED, stop };
  }
}
