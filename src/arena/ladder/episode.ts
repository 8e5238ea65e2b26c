/**
 * An episode of an UrbanGround ladder family (task.ts `URBANGROUND_FAMILIES`): the agent plays with
 * UrbanGround's free moves (`move`/`sprint`/`look`/map actions, `terminate`) on the same control
 * session `arena:serve` serves (control/session.ts), so an agent sees and does in `npm run arena`
 * exactly what it would through the HTTP API.
 *
 * Rules, as UrbanGround's harness (`AgentEvaluation/run_task.py`, `tasks/*`): a step is one valid
 * action (an action the session refuses is recorded and not counted); navigation ends `arrived` as
 * soon as an action leaves the avatar within the task's radius (15 m) of the goal, `terminated` when
 * the agent stops, `step_limit` at the limit (150), and scores where the avatar then stands; a move
 * that crosses one of the task's closure lines ends it at once as `closure_crossed` (score 0);
 * question answering explores until the agent stops or the limit, then takes one answer turn (a
 * letter A–D; anything else scores 0). Place search and implicit intent arrive at any place of
 * the kind. A schedule's stops must be reached in order by their due times on the simulation clock
 * (it reads the task's start time and runs with the moves' durations); a multi-stop route's in any
 * order; both end `arrived` when the last stop is reached and report stops reached, on-time
 * arrivals and the route's efficiency. Closure replanning (`closureNotice`) walks with no closure
 * until the notice step, then hands the agent a one-time notice, draws the closures on the map and
 * enforces them from then on. Same task and actions → same states and record.
 */
import type { Vec2 } from '../../world/geometry';
import { segmentsIntersect } from '../../core/geometry2d';
import type { World } from '../../world/world';
import type { WorldInventory } from '../../world/inventory';
import { type Georeference, worldToGeodetic } from '../../world/georef';
import { groundHeight } from '../../world/queries';
import type { EpisodeOutcome, EpisodeStatus, StepRecord } from '../episode';
import { DEFAULT_CONDITIONS, type Conditions } from '../../world/conditions';
import { scoreTask } from '../episode';
import { dueSecondsAfter, onTimeArrivals, routeEfficiency, type StopVisits } from '../scoring';
import type { ArenaTask } from '../task';
import type { UrbanGroundAction } from '../control/actions';
import { ControlSession, type ControlState, type ControlTask } from '../control/session';
import { controlTaskFromArena } from '../control/tasks';

/**
 * The actions an agent may take in a ladder episode: UrbanGround's model-facing set (their runner's
 * first-person and map actions; `navigate`, `identify_location`, teleports and the environment's
 * settings are the operator's, not the agent's), plus `terminate` and the answer.
 */
export const LADDER_AGENT_ACTIONS: readonly string[] = ['move', 'sprint', 'look', 'jump', 'open_map', 'close_map', 'map_select', 'map_pan', 'map_zoom', 'map_orbit', 'terminate', 'answer'];

/** What a ladder agent may do: an UrbanGround action, or (in the answer turn of a question) its answer. */
export type LadderAction = UrbanGroundAction | { action: 'answer'; answer: string };

/** What the agent is told at a step: the task, its progress, the avatar's `/state` and, in an answer turn, the options. */
export interface LadderObservation {
  taskId: string;
  instruction: string;
  step: number;
  stepsLeft: number;
  /** The last action's result line, or why it was refused. */
  notices: string[];
  /** UrbanGround's `/state` (WGS84 pose, surface, time, counters). */
  state: ControlState;
  /** The navigation goal as UrbanGround's tasks give it (label and WGS84), or null. */
  goal: { label: string; lat: number; lon: number } | null;
  /** Question tasks: the four options (A–D); `answerTurn` once exploring has ended and only an answer is taken. */
  options: string[] | null;
  answerTurn: boolean;
  /** Schedule and multi-stop tasks: the clock and each stop's status, as text (UrbanGround's per-turn progress line); else null. */
  progress: string | null;
}

/** UrbanGround's episode measures (`AgentEvaluation/tasks/metrics.py`). */
export interface LadderMetrics {
  /** Straight-line distance start → goal and final → goal, metres; their ratio (navigation), else null. */
  originalDistance: number | null;
  remainingDistance: number | null;
  remainingDistanceRatio: number | null;
  /** Share of the executed movement time spent on the pedestrian network, or null without movement. */
  networkAdherence: number | null;
  buildingCollisions: number;
  pedestrianCollisions: number;
  /** Steps whose action left the map open. */
  mapSteps: number;
  /** Closure lines crossed (UrbanGround's closure compliance is none crossed), or null for a task without closures. */
  closureCrossings: number | null;
  /** Schedule and multi-stop tasks (else null): stops, those reached (a schedule's in order), those reached by their due time (schedule), arrivals out of order (schedule). */
  stopsTotal: number | null;
  stopsReached: number | null;
  onTimeArrivals: number | null;
  orderViolations: number | null;
  /** Multi-stop with every stop reached: the oracle's tour over the distance walked (scoring.ts `routeEfficiency`), else null. */
  routeEfficiency: number | null;
}

/** The one-time notice of closure replanning (UrbanGround's `dynamic_closure_nav` notice, in our words). */
export function closureNoticeText(closures: readonly { label: string }[]): string {
  return `NOTICE: ${closures.length === 1 ? 'a closure has' : 'closures have'} just been put up and ${closures.length === 1 ? 'is' : 'are'} now drawn in red on the map: ${closures.map((c) => c.label).join('; ')}. Crossing ${closures.length === 1 ? 'it' : 'one'} from now on fails the task. Open the map and plan a way around.`;
}

const clockText = (start: string, seconds: number) => {
  const [h, m] = start.split(':').map(Number);
  const total = Math.floor(h * 60 + m + seconds / 60) % (24 * 60);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
};

/**
 * The label of the first closure the straight move from `a` to `b` crosses (segment intersection, as
 * UrbanGround's `tasks/geo.py` checks it), or null.
 */
export function crossedClosure(closures: readonly { label: string; line: readonly Vec2[] }[], a: Vec2, b: Vec2): string | null {
  for (const c of closures) for (let i = 0; i + 1 < c.line.length; i++) if (segmentsIntersect(a, b, c.line[i], c.line[i + 1])) return c.label;
  return null;
}

/** A ladder episode's end: the common outcome and UrbanGround's measures. */
export interface LadderOutcome extends EpisodeOutcome {
  metrics: LadderMetrics;
}

/** An episode of a ladder family (see the module comment). */
export class LadderEpisode {
  readonly session: ControlSession;
  readonly steps: StepRecord[] = [];
  private stepCount = 0;
  private answering = false;
  private notices: string[] = [];
  private mapSteps = 0;
  private closureCrossings = 0;
  private walked = 0;
  private walkSeconds = 0;
  private ended: LadderOutcome | null = null;
  private readonly start: Vec2;
  private readonly control: ControlTask;
  private closuresActive: boolean;
  private readonly visits: StopVisits | null;
  /** Whether the avatar stood within a stop's radius after the last action (an arrival is an entry). */
  private inside: boolean[] = [];

  /**
   * @param conditions the time of day and weather it runs under (a matched-condition run), or the session's default.
   * @throws RangeError when the task's start is inside an obstacle or outside the world.
   */
  constructor(readonly world: World, readonly inventory: WorldInventory, readonly georef: Georeference, readonly task: ArenaTask, conditions: Conditions | null = null) {
    const t = task.truth;
    // A schedule's clock starts at its start time (in the day's light unless a matched condition is asked).
    const look = conditions ?? (t.scoring === 'schedule' ? { ...DEFAULT_CONDITIONS, time: t.startTime } : null);
    const ct: ControlTask = { ...controlTaskFromArena(world, task), conditions: look };
    // Closures announced later are neither drawn nor counted until the notice (the control task holds none yet).
    this.closuresActive = !task.closureNotice;
    this.control = ct;
    this.session = new ControlSession(world, inventory, georef, new Map([[task.id, ct]]), ct.start);
    this.session.enterTask(task.id);
    this.start = ct.start.position;
    const stops = t.scoring === 'schedule' || t.scoring === 'multi_stop' ? t.stops : null;
    this.visits = stops ? { reachedAt: stops.map(() => null), orderViolations: 0 } : null;
    this.inside = (stops ?? []).map(() => false);
    this.updateStops();
  }

  /** Seconds of simulation time since the task began (the moves' durations: looks and the map take none). */
  get elapsedSeconds(): number {
    return this.walkSeconds;
  }

  /** Marks stops whose radius the avatar has entered (see the module comment). */
  private updateStops(): void {
    const t = this.task.truth;
    const v = this.visits;
    if (!v || (t.scoring !== 'schedule' && t.scoring !== 'multi_stop')) return;
    const p = this.session.position;
    const now = t.stops.map((s) => Math.hypot(p[0] - s.goal[0], p[1] - s.goal[1]) <= t.radius);
    if (t.scoring === 'multi_stop') {
      now.forEach((inside, k) => {
        if (inside && v.reachedAt[k] === null) v.reachedAt[k] = this.walkSeconds;
      });
    } else {
      let next = v.reachedAt.indexOf(null);
      while (next >= 0 && now[next]) {
        v.reachedAt[next] = this.walkSeconds;
        next = v.reachedAt.indexOf(null);
      }
      // Entering a later appointment's radius before the next one is an order violation.
      if (next >= 0) for (let k = next + 1; k < now.length; k++) if (now[k] && !this.inside[k]) v.orderViolations++;
    }
    this.inside = now;
  }

  /** The schedule or route progress line of the observation (see {@link LadderObservation.progress}). */
  private progressText(): string | null {
    const t = this.task.truth;
    const v = this.visits;
    if (!v) return null;
    if (t.scoring === 'multi_stop') {
      const left = t.stops.filter((_, k) => v.reachedAt[k] === null).map((s) => s.label);
      return `Route progress: ${t.stops.length - left.length}/${t.stops.length} destinations visited. Remaining: ${left.join(', ') || 'none'}.`;
    }
    if (t.scoring !== 'schedule') return null;
    const next = v.reachedAt.indexOf(null);
    const lines = t.stops.map((s, k) => {
      const at = v.reachedAt[k];
      const state = at !== null ? `reached at ${clockText(t.startTime, at)}${at < dueSecondsAfter(t.startTime, s.due) + 60 ? '' : ' (late)'}` : k === next ? 'next' : 'to come';
      return `${k + 1}. ${s.label}, due ${s.due}: ${state}`;
    });
    return [`It is ${clockText(t.startTime, this.walkSeconds)}. Appointments:`, ...lines].join('\n');
  }

  get outcome(): LadderOutcome | null {
    return this.ended;
  }

  /** The goal remaining distance is measured to: the goal, or the nearest place of the kind; null for questions and stops. */
  private goal(from: Vec2): Vec2 | null {
    const t = this.task.truth;
    if (t.scoring === 'arrival') return t.goal;
    if (t.scoring !== 'arrival_any') return null;
    let best: Vec2 = t.goals[0].goal;
    for (const g of t.goals) if (Math.hypot(g.goal[0] - from[0], g.goal[1] - from[1]) < Math.hypot(best[0] - from[0], best[1] - from[1])) best = g.goal;
    return best;
  }

  observation(): LadderObservation {
    const t = this.task.truth;
    let goal: LadderObservation['goal'] = null;
    if (t.scoring === 'arrival') {
      const g = worldToGeodetic(this.georef, [t.goal[0], t.goal[1], groundHeight(this.world, t.goal[0], t.goal[1])]);
      goal = { label: t.label, lat: Math.round(g.lat * 1e7) / 1e7, lon: Math.round(g.lon * 1e7) / 1e7 };
    }
    return {
      taskId: this.task.id, instruction: this.task.instruction, step: this.stepCount, stepsLeft: this.task.stepLimit - this.stepCount,
      notices: [...this.notices], state: this.session.state(), goal, options: t.scoring === 'choice' ? [...t.options] : null, answerTurn: this.answering,
      progress: this.progressText(),
    };
  }

  private end(status: EpisodeStatus, answer: string | null, error: string | null): LadderOutcome {
    const finalPosition = this.session.position;
    const dist = (p: Vec2) => {
      const goal = this.goal(p);
      return goal ? Math.hypot(p[0] - goal[0], p[1] - goal[1]) : null;
    };
    const state = this.session.state();
    const original = dist(this.start);
    const remaining = dist(finalPosition);
    const t = this.task.truth;
    const v = this.visits;
    const due = t.scoring === 'schedule' ? t.stops.map((s) => dueSecondsAfter(t.startTime, s.due)) : null;
    this.ended = {
      status, answer, score: scoreTask(this.task, status, answer, finalPosition, [], v), steps: this.stepCount, finalPosition,
      distanceToGoal: remaining, walked: this.walked, walkSeconds: this.walkSeconds, error,
      metrics: {
        originalDistance: original, remainingDistance: remaining, remainingDistanceRatio: original !== null && remaining !== null && original > 0 ? remaining / original : null,
        networkAdherence: this.session.networkAdherence(), buildingCollisions: state.building_collisions, pedestrianCollisions: state.pedestrian_collisions, mapSteps: this.mapSteps,
        closureCrossings: this.task.closures?.length ? this.closureCrossings : null,
        stopsTotal: v ? v.reachedAt.length : null,
        stopsReached: v ? v.reachedAt.filter((x) => x !== null).length : null,
        onTimeArrivals: v && due ? onTimeArrivals(v, due) : null,
        orderViolations: v && due ? v.orderViolations : null,
        routeEfficiency: t.scoring === 'multi_stop' && v?.reachedAt.every((x) => x !== null) ? routeEfficiency(t.oracleTour, this.walked) : null,
      },
    };
    return this.ended;
  }

  /** Ends the episode as agent_error or env_error. */
  fail(status: 'agent_error' | 'env_error', error: string): LadderOutcome {
    return this.ended ?? this.end(status, null, error);
  }

  /**
   * Applies one action.
   *
   * @returns the outcome when the episode ended with it, else null.
   * @throws Error when the episode has already ended.
   */
  act(a: LadderAction, thought = ''): LadderOutcome | null {
    if (this.ended) throw new Error(`episode ${this.task.id} has ended (${this.ended.status})`);
    const question = this.task.truth.scoring === 'choice';
    const record = (action: string, valid: boolean, moved = 0) => this.steps.push({ action, thought, position: this.session.position, moved, valid });
    if (this.answering || a.action === 'answer') {
      if (a.action !== 'answer' || !question) {
        const why = question ? 'the exploration has ended: answer with {"action":"answer","answer":"A|B|C|D"}' : 'this task is scored where you stop: terminate when you are there';
        this.notices = [`${a.action}: refused (${why})`];
        record(a.action, false);
        return null;
      }
      record(`answer: ${a.answer}`, true);
      return this.end('answered', a.answer, null);
    }
    if (a.action === 'terminate') {
      record('terminate', true);
      if (!question) return this.end('terminated', null, null);
      this.answering = true;
      this.notices = ['Exploration ended: answer the question with one letter, A–D.'];
      return null;
    }
    if (!LADDER_AGENT_ACTIONS.includes(a.action)) {
      this.notices = [`${a.action}: not an agent's action here (allowed: ${LADDER_AGENT_ACTIONS.join(', ')})`];
      record(a.action, false);
      return null;
    }
    const before = this.session.position;
    const r = this.session.act(a);
    if (!r.ok) {
      this.notices = [r.error];
      record(a.action, false);
      return null;
    }
    const after = this.session.position;
    const moved = Math.hypot(after[0] - before[0], after[1] - before[1]);
    this.notices = [r.action];
    this.stepCount++;
    this.walked += moved;
    if (a.action === 'move' || a.action === 'sprint') this.walkSeconds += a.seconds;
    if (this.session.mapView.view.open) this.mapSteps++;
    record(r.action, true, moved);
    const crossed = moved > 0 && this.closuresActive ? crossedClosure(this.task.closures ?? [], before, after) : null;
    if (crossed) {
      this.closureCrossings++;
      this.notices = [`You crossed a closure (${crossed}): the task has failed.`];
      return this.end('closure_crossed', null, null);
    }
    if (!this.closuresActive && this.task.closureNotice && this.stepCount >= this.task.closureNotice.afterSteps) {
      this.closuresActive = true;
      const closures = this.task.closures ?? [];
      this.control.closures.push(...closures.map((c) => ({ label: c.label, line: c.line.map((p) => [p[0], p[1]] as Vec2) })));
      this.control.restrictedZones = closures.length;
      this.notices.push(closureNoticeText(closures));
    }
    const t = this.task.truth;
    const goal = this.goal(after);
    if (goal && (t.scoring === 'arrival' || t.scoring === 'arrival_any') && Math.hypot(after[0] - goal[0], after[1] - goal[1]) <= t.radius) return this.end('arrived', null, null);
    if (this.visits) {
      this.updateStops();
      if (this.visits.reachedAt.every((x) => x !== null)) return this.end('arrived', null, null);
    }
    if (this.stepCount >= this.task.stepLimit) {
      if (!question) return this.end('step_limit', null, null);
      this.answering = true;
      this.notices = ['The step limit is reached: answer the question with one letter, A–D.'];
    }
    return null;
  }
}
