/**
 * Progress of the robot along its reference route (a polyline of waypoints in the world frame):
 * the arc length of the closest route point, searched within ± `window` metres of arc around the
 * last projection so a
 * route that passes near itself does not make progress jump.
 */
import { closestOnSegment, type Vec2 } from '../core/geometry2d';

export class RouteTracker {
  /** Cumulative arc length at each waypoint, metres. */
  readonly cumulative: number[];
  /** Total route length, metres. */
  readonly length: number;
  private current = 0;
  /** Greatest arc length reached so far, metres. */
  maxProgress = 0;

  /**
   * @param route ≥ 2 waypoints, metres, world frame.
   * @param window How far (metres of arc) ahead and behind the current segment to search.
   * @param before Route length completed before this route began, metres (a route re-planned
   *   mid-episode, src/bench/closures.ts): counts in {@link completion} and {@link totalLength}.
   * @throws Error when the route has fewer than 2 points or a non-finite coordinate.
   */
  constructor(readonly route: Vec2[], private readonly window = 5, readonly before = 0) {
    if (route.length < 2) throw new Error(`RouteTracker: a route needs at least 2 waypoints, got ${route.length}`);
    if (!route.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y))) throw new Error('RouteTracker: non-finite waypoint');
    this.cumulative = [0];
    for (let i = 1; i < route.length; i++) {
      this.cumulative.push(this.cumulative[i - 1] + Math.hypot(route[i][0] - route[i - 1][0], route[i][1] - route[i - 1][1]));
    }
    this.length = this.cumulative[route.length - 1];
  }

  /** Projects a position; returns the arc length (m) and lateral distance (m) and updates maxProgress. */
  update(x: number, y: number): { progress: number; lateral: number } {
    let best = { s: this.current, d2: Infinity };
    for (let i = 0; i + 1 < this.route.length; i++) {
      if (this.cumulative[i + 1] < this.current - this.window || this.cumulative[i] > this.current + this.window) continue;
      const [ax, ay] = this.route[i];
      const [bx, by] = this.route[i + 1];
      const c = closestOnSegment(x, y, ax, ay, bx, by);
      if (c.dist2 < best.d2) best = { s: this.cumulative[i] + c.t * (this.cumulative[i + 1] - this.cumulative[i]), d2: c.dist2 };
    }
    this.current = best.s;
    this.maxProgress = Math.max(this.maxProgress, best.s);
    return { progress: best.s, lateral: Math.sqrt(best.d2) };
  }

  /** Arc length of the last projection, metres. */
  get progress(): number {
    return this.current;
  }

  /** Length of the whole route, metres: {@link before} plus this polyline's length. */
  get totalLength(): number {
    return this.before + this.length;
  }

  /** Route completion in [0, 1]: ({@link before} + maximum progress) over {@link totalLength}. */
  get completion(): number {
    return this.totalLength > 0 ? Math.min(1, (this.before + this.maxProgress) / this.totalLength) : 1;
  }

  /** The point at arc length `s` (clamped to the route). */
  pointAt(s: number): Vec2 {
    const t = Math.min(this.length, Math.max(0, s));
    let i = 0;
    while (i + 2 < this.route.length && this.cumulative[i + 1] < t) i++;
    const seg = this.cumulative[i + 1] - this.cumulative[i];
    const u = seg > 0 ? (t - this.cumulative[i]) / seg : 0;
    const [ax, ay] = this.route[i];
    const [bx, by] = this.route[i + 1];
    return [ax + u * (bx - ax), ay + u * (by - ay)];
  }

  /** Index of the route waypoint closest to (x, y) — where a long-horizon episode resets after a failure. */
  closestWaypoint(x: number, y: number): number {
    let best = 0;
    let bestD = Infinity;
    this.route.forEach(([wx, wy], i) => {
      const d = Math.hypot(wx - x, wy - y);
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    });
    return best;
  }

  /** Resets progress tracking to waypoint `i` (keeps maxProgress). */
  resetTo(i: number): void {
    this.current = this.cumulative[Math.min(Math.max(0, i), this.route.length - 1)];
  }
}
