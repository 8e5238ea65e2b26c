/**
 * Agents of the ladder families (UrbanGround's vocabulary): the contract, and the two agents that
 * need no model — the oracle, which proves every task solvable with the agent's own actions, and a
 * seeded random walker, the floor any agent must beat.
 */
import { createRng, type Rng } from '../../core/random';
import type { Vec2 } from '../../world/geometry';
import { navIndex, shortestNavPath } from '../../world/nav-index';
import { yawToHeading } from '../../world/georef';
import type { ObservationImages } from '../agent';
import type { ArenaTask } from '../task';
import type { World } from '../../world/world';
import type { ControlSession } from '../control/session';
import { WALK_SPEED } from '../walker';
import { SPRINT_SPEED } from '../free-walker';
import { navDistances } from '../network';
import { crossedClosure, type LadderAction, type LadderObservation } from './episode';

/** A ladder agent's reply to one observation. */
export interface LadderTurn {
  action: LadderAction;
  thought: string;
  tokens?: number;
  latencyMs?: number;
  parseErrors?: number;
}

/** What a privileged agent may read (the oracle): the world, the task with its truth, the avatar's session. */
export interface LadderPrivileged {
  world: World;
  task: ArenaTask;
  session: ControlSession;
}

/** An agent of the ladder families. */
export interface LadderAgent {
  readonly name: string;
  readonly needsImages: boolean;
  begin(brief: { taskId: string; family: string; instruction: string }, privileged: LadderPrivileged): void | Promise<void>;
  /** One action for the observation; throws when the agent fails (the episode ends as agent_error). */
  act(obs: LadderObservation, images: ObservationImages | null): Promise<LadderTurn>;
}

const LETTERS = 'ABCD';

/** Indices of the navigation edges a closure line crosses (what a route around the closures may not use). */
export function closedEdges(nav: World['nav'], closures: readonly { label: string; line: readonly Vec2[] }[]): Set<number> {
  const out = new Set<number>();
  nav.edges.forEach((e, k) => {
    if (crossedClosure(closures, nav.nodes[e.a], nav.nodes[e.b])) out.add(k);
  });
  return out;
}
/** The waypoint nearest `p` within `radius` metres. @throws Error when none is. */
function nodeNear(world: World, p: Vec2, radius: number, what: string): number {
  const n = navIndex(world.nav).nodesNear(p, radius)[0];
  if (n === undefined) throw new Error(`no waypoint within ${radius} m of ${what}`);
  return n;
}

/**
 * The shortest pedestrian-network walk from `start` through every one of `stops` in any order (the
 * best of all orders, exact for up to 6 stops): the visiting order (indices into `stops`) and its
 * length in metres, from the waypoint nearest `start` over the waypoints nearest the stops, plus the
 * straight legs from those waypoints to the stops.
 *
 * @throws Error when a stop has no waypoint within 40 m or no walk joins them.
 */
export function bestTour(world: World, start: Vec2, stops: readonly Vec2[]): { order: number[]; length: number } {
  if (stops.length > 6) throw new Error(`bestTour: ${stops.length} stops (at most 6)`);
  const nodes = stops.map((s, k) => nodeNear(world, s, 40, `stop ${k + 1}`));
  const from = nodeNear(world, start, 30, 'the start');
  const off = stops.map((s, k) => Math.hypot(s[0] - world.nav.nodes[nodes[k]][0], s[1] - world.nav.nodes[nodes[k]][1]));
  const dist = [from, ...nodes].map((n) => navDistances(world.nav, n).dist);
  // Leg i→j: to stop j's waypoint from where stop i was reached (its waypoint; the start's for i = 0).
  const leg = (i: number, j: number) => dist[i][nodes[j]] + off[j] + (i > 0 ? off[i - 1] : 0);
  let best = { order: [] as number[], length: Infinity };
  const visit = (order: number[], length: number) => {
    if (length >= best.length) return;
    if (order.length === stops.length) {
      best = { order: [...order], length };
      return;
    }
    for (let j = 0; j < stops.length; j++) {
      if (order.includes(j)) continue;
      order.push(j);
      visit(order, length + leg(order.length === 1 ? 0 : order[order.length - 2] + 1, j));
      order.pop();
    }
  };
  visit([], 0);
  if (!Number.isFinite(best.length)) throw new Error('bestTour: no walk joins the start and the stops');
  return best;
}

const wrapDeg = (d: number) => ((((d + 180) % 360) + 360) % 360) - 180;

/** Within this of a path point the oracle takes the next one, metres. */
const REACHED = 0.6;
/** Heading error the oracle turns away before walking, degrees. */
const AIM_DEG = 4;
/** How far from the straight line ahead the path points it skips may lie, metres. */
const KEEP_TO_PATH = 0.25;

/** Distance from `p` to the segment a–b, metres. */
function distanceToSegment(p: Vec2, a: Vec2, b: Vec2): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0;
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/**
 * The oracle: answers questions from the truth; goes to each goal in turn (the goal; the place of
 * the kind nearest along the network; a schedule's stops in order; a multi-stop route's in its best
 * order, {@link bestTour}) along the shortest pedestrian-network path around the closures in force
 * (from the waypoint nearest where it stands to the one nearest the goal, then the goal itself; it
 * replans when closures are announced), turning with `look` and, towards the farthest path point
 * whose straight line keeps within 0.25 m of the path, running (`sprint`, at most 2 s) or walking
 * the last metres; it moves on (or stops) well inside the radius.
 */
export class LadderOracle implements LadderAgent {
  readonly name = 'oracle';
  readonly needsImages = false;
  private p: LadderPrivileged | null = null;
  private legs: Vec2[] = [];
  private leg = 0;
  private radius = 0;
  private closures: readonly { label: string; line: readonly Vec2[] }[] = [];
  private path: Vec2[] = [];
  private next = 0;
  private lastPosition: Vec2 | null = null;
  private stuck = 0;

  begin(_brief: unknown, privileged: LadderPrivileged): void {
    this.p = privileged;
    this.legs = [];
    this.leg = 0;
    this.stuck = 0;
    this.lastPosition = null;
    const { task, world, session } = privileged;
    const t = task.truth;
    this.closures = task.closureNotice ? [] : (task.closures ?? []);
    const here = session.position;
    if (t.scoring === 'arrival') this.legs = [t.goal];
    else if (t.scoring === 'arrival_any') {
      const d = navDistances(world.nav, nodeNear(world, here, 30, `the start of ${task.id}`)).dist;
      const reach = (g: Vec2) => {
        const n = navIndex(world.nav).nodesNear(g, 40)[0];
        return n === undefined ? Infinity : d[n] + Math.hypot(g[0] - world.nav.nodes[n][0], g[1] - world.nav.nodes[n][1]);
      };
      this.legs = [t.goals.map((g) => g.goal).reduce((a, b) => (reach(b) < reach(a) ? b : a))];
    } else if (t.scoring === 'schedule') this.legs = t.stops.map((s) => s.goal);
    else if (t.scoring === 'multi_stop') this.legs = bestTour(world, here, t.stops.map((s) => s.goal)).order.map((k) => t.stops[k].goal);
    else return;
    this.radius = t.radius;
    this.plan();
  }

  /** The path from where the avatar stands to the current leg's goal, around the closures in force. */
  private plan(): void {
    const { world, task, session } = this.p!;
    const nav = world.nav;
    const goal = this.legs[this.leg];
    const from = nodeNear(world, session.position, 30, `the avatar in ${task.id}`);
    const to = nodeNear(world, goal, 40, `the goal of ${task.id}`);
    const route = shortestNavPath(nav, from, to, { removed: closedEdges(nav, this.closures) });
    if (!route) throw new Error(`oracle: no network path to the goal of ${task.id}`);
    this.path = [...route.nodes.map((n) => nav.nodes[n]), goal];
    this.next = 0;
  }

  async act(obs: LadderObservation): Promise<LadderTurn> {
    const p = this.p;
    if (!p) throw new Error('oracle: act before begin');
    const t = p.task.truth;
    if (t.scoring === 'choice') return { action: { action: 'answer', answer: LETTERS[t.answer] }, thought: 'privileged: the right option' };
    if (this.legs.length === 0) throw new Error(`oracle: ${p.task.family} is not a ladder family`);
    // Closures announced: go around them from here.
    if (p.task.closureNotice && this.closures.length === 0 && obs.step >= p.task.closureNotice.afterSteps) {
      this.closures = p.task.closures ?? [];
      this.plan();
    }
    const pos = p.session.position;
    const goal = this.legs[this.leg];
    if (Math.hypot(pos[0] - goal[0], pos[1] - goal[1]) <= this.radius / 2) {
      if (this.leg === this.legs.length - 1) return { action: { action: 'terminate' }, thought: 'privileged: well inside the radius' };
      this.leg++;
      this.plan();
    }
    // A move that did not move (a prop or a pedestrian in the way): step aside, then go on.
    if (this.lastPosition && Math.hypot(pos[0] - this.lastPosition[0], pos[1] - this.lastPosition[1]) < 0.05 && obs.notices.some((n) => n.includes('stopped by'))) {
      this.stuck++;
      this.lastPosition = null;
      return { action: { action: 'move', dir: this.stuck % 2 ? 'left' : 'right', seconds: 0.5 }, thought: 'privileged: blocked, stepping aside' };
    }
    // The next path point is the first one not reached nor passed (past it along the path's next leg).
    const passed = (k: number) => {
      const [a, b] = [this.path[k], this.path[k + 1]];
      return Math.hypot(pos[0] - a[0], pos[1] - a[1]) < REACHED || (pos[0] - a[0]) * (b[0] - a[0]) + (pos[1] - a[1]) * (b[1] - a[1]) > 0;
    };
    while (this.next < this.path.length - 1 && passed(this.next)) this.next++;
    // Aim at the farthest path point within a sprint whose straight line keeps to the path.
    let far = this.next;
    for (let j = this.next + 1; j < this.path.length; j++) {
      const q = this.path[j];
      const len = Math.hypot(q[0] - pos[0], q[1] - pos[1]);
      if (len > SPRINT_SPEED * 2) break;
      let keeps = true;
      for (let k = this.next; k < j && keeps; k++) keeps = distanceToSegment(this.path[k], pos, q) <= KEEP_TO_PATH;
      if (!keeps) break;
      far = j;
    }
    const target = this.path[far];
    const dx = target[0] - pos[0];
    const dy = target[1] - pos[1];
    const turn = wrapDeg(obs.state.yaw - yawToHeading(Math.atan2(dy, dx)));
    // UrbanGround's look: positive yaw turns right (the compass heading grows).
    if (Math.abs(turn) > AIM_DEG) {
      this.lastPosition = null;
      return { action: { action: 'look', yaw: Math.round(-turn * 10) / 10, pitch: 0 }, thought: `privileged: face waypoint ${this.next}` };
    }
    const dist = Math.hypot(dx, dy);
    const sprint = dist > WALK_SPEED * 2;
    const seconds = Math.min(2, Math.max(0.05, Math.round((dist / (sprint ? SPRINT_SPEED : WALK_SPEED)) * 20) / 20));
    this.lastPosition = pos;
    return { action: { action: sprint ? 'sprint' : 'move', dir: 'forward', seconds }, thought: `privileged: ${sprint ? 'run' : 'walk'} to waypoint ${far} of ${this.path.length}${this.legs.length > 1 ? ` (stop ${this.leg + 1} of ${this.legs.length})` : ''}` };
  }
}

/** A seeded random agent: turns and walks at random; answers a random letter. */
export class LadderRandom implements LadderAgent {
  readonly name = 'random';
  readonly needsImages = false;
  private rng: Rng;

  constructor(private readonly seed: number) {
    this.rng = createRng(seed);
  }

  begin(): void {
    this.rng = createRng(this.seed);
  }

  async act(obs: LadderObservation): Promise<LadderTurn> {
    const r = this.rng;
    if (obs.answerTurn) return { action: { action: 'answer', answer: LETTERS[r.int(0, 3)] }, thought: 'random' };
    const u = r.next();
    if (obs.options && u < 0.05) return { action: { action: 'terminate' }, thought: 'random' };
    if (u < 0.35) return { action: { action: 'look', yaw: [-90, -45, -30, 30, 45, 90][r.int(0, 5)], pitch: 0 }, thought: 'random' };
    return { action: { action: 'move', dir: 'forward', seconds: [0.5, 1, 2][r.int(0, 2)] }, thought: 'random' };
  }
}
