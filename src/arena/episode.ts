/**
 * One arena episode: a task, the walker, the rules that end it and its score (360CityArena's runner,
 * `python/src/cityarena/runner/agent_server.py`, and evaluation protocol):
 *
 * - a step is one valid action; an invalid one (a branch token where there is no such branch) is
 *   refused with a notice and not counted;
 * - `step_limit` when the task's step limit is used up without an answer (an `ANSWER` on the last
 *   step still counts);
 * - `stagnation` after {@link STAGNATION_LIMIT} consecutive steps that repeat the previous action's
 *   token without moving more than {@link STAGNATION_EPSILON};
 * - `agent_error` when the agent fails (its reply cannot be parsed after its retries, its endpoint
 *   is down); `env_error` when the environment fails (a render);
 * - only `answered` episodes score: an episode that ends otherwise scores 0 even at the goal.
 *
 * Deterministic: the same task and the same actions give the same record.
 */
import type { Vec2 } from '../world/geometry';
import type { World } from '../world/world';
import { actionKey, actionText, applyAction, type ArenaAction } from './actions';
import { NetworkWalker, type BranchOption } from './walker';
import type { ArenaTask } from './task';
import { coordinateMatch, dueSecondsAfter, exactMatchGrid, fuzzyMatch, meanRelativeAccuracy, parseChoiceAnswer, parseCountAnswer, scheduleSuccess, type StopVisits } from './scoring';

/** Consecutive non-moving repeats of one action token that end an episode (360CityArena: 20). */
export const STAGNATION_LIMIT = 20;
/** Least movement that breaks stagnation, metres (360CityArena: 0.05). */
export const STAGNATION_EPSILON = 0.05;
/** Eye height of the walking agent, metres. */
export const EYE_HEIGHT = 1.6;

/** How an episode ended. */
export type EpisodeStatus = 'answered' | 'arrived' | 'terminated' | 'step_limit' | 'stagnation' | 'closure_crossed' | 'agent_error' | 'env_error';

/** What the agent is told at a step (never coordinates). */
export interface ArenaObservation {
  taskId: string;
  instruction: string;
  /** Valid actions taken so far. */
  step: number;
  stepsLeft: number;
  /** Notices from the last action (a junction reached, a refused action). */
  notices: string[];
  /** Branches at the junction the agent stands on (empty elsewhere): token, kind and angle left of the travel direction, degrees. */
  branches: { token: 'LEFT' | 'UP' | 'RIGHT' | null; kind: 'sidewalk' | 'crosswalk'; angleDeg: number }[];
  /** The camera's pitch, degrees up, and its yaw left of the travel direction, degrees (what the agent did to its own view). */
  viewYawDeg: number;
  pitchDeg: number;
}

/** One step of the record. */
export interface StepRecord {
  action: string;
  /** The agent's reasoning text for it ('' when it gives none). */
  thought: string;
  /** Position after the step, metres (evaluator's record; never shown to the agent). */
  position: Vec2;
  moved: number;
  valid: boolean;
}

/** The end of an episode. */
export interface EpisodeOutcome {
  status: EpisodeStatus;
  answer: string | null;
  /** Score in [0, 1]. */
  score: number;
  /** Steps taken (valid actions). */
  steps: number;
  finalPosition: Vec2;
  /** Distance from the final position to the goal, metres (coordinate tasks), else null. */
  distanceToGoal: number | null;
  /** Metres walked and seconds spent walking. */
  walked: number;
  walkSeconds: number;
  /** Why an agent_error or env_error happened, else null. */
  error: string | null;
}

/** Names an answer may be confused with (every landmark and named object of the world), for fuzzy_match. */
export type NameList = readonly string[];

/**
 * The score of an answer to `task` (0 unless `status` is answered): exact grid match, coordinate
 * match of the final position, mean relative accuracy of a count, or fuzzy match of a name against
 * the truth and its aliases with a margin over `others` (scoring.ts); UrbanGround's multiple choice
 * (the letter of the right option), arrival (within the radius where the episode ends, whatever
 * ended it but a failure) at the goal or at any of several (place search), and the stops of a
 * schedule or a multi-stop route from their `visits` (scoring.ts `scheduleSuccess`; every stop).
 */
export function scoreTask(task: ArenaTask, status: EpisodeStatus, answer: string | null, finalPosition: Vec2, others: NameList, visits: StopVisits | null = null): number {
  const t = task.truth;
  const failed = status === 'agent_error' || status === 'env_error' || status === 'closure_crossed';
  // UrbanGround's navigation scores where the avatar is when the episode ends, however it ended (but a failure).
  if (t.scoring === 'arrival') return failed ? 0 : coordinateMatch(finalPosition, t.goal, t.radius);
  if (t.scoring === 'arrival_any') return failed ? 0 : Math.max(...t.goals.map((g) => coordinateMatch(finalPosition, g.goal, t.radius)));
  if (t.scoring === 'schedule' || t.scoring === 'multi_stop') {
    if (failed || !visits) return 0;
    if (t.scoring === 'multi_stop') return visits.reachedAt.every((v) => v !== null) ? 1 : 0;
    return scheduleSuccess(visits, t.stops.map((s) => dueSecondsAfter(t.startTime, s.due)));
  }
  if (status !== 'answered' || answer === null) return 0;
  switch (t.scoring) {
    case 'choice': return parseChoiceAnswer(answer) === t.answer ? 1 : 0;
    case 'exact_match': return exactMatchGrid(answer, t.cell);
    case 'coordinate_match': return coordinateMatch(finalPosition, t.goal, t.epsilon);
    case 'mra': {
      const n = parseCountAnswer(answer);
      return n === null ? 0 : meanRelativeAccuracy(n, t.count);
    }
    case 'fuzzy_match': return fuzzyMatch(answer, { name: t.name, aliases: t.aliases }, others).score;
  }
}

/** A running episode (see the module comment). */
export class ArenaEpisode {
  readonly walker: NetworkWalker;
  readonly steps: StepRecord[] = [];
  private stepCount = 0;
  private stagnant = 0;
  private lastKey: string | null = null;
  private notices: string[] = [];
  private walked = 0;
  private walkSeconds = 0;
  private ended: EpisodeOutcome | null = null;

  /**
   * @param others names the answer may be confused with ({@link NameList}).
   * @throws RangeError when the task's start is not an edge of the world's network.
   */
  constructor(readonly world: World, readonly task: ArenaTask, private readonly others: NameList) {
    this.walker = NetworkWalker.atNode(world.nav, task.start.node, task.start.towards);
  }

  /** The outcome once ended, else null. */
  get outcome(): EpisodeOutcome | null {
    return this.ended;
  }

  /** What the agent sees as text this step. */
  observation(): ArenaObservation {
    const s = this.walker.state;
    const branches = this.walker.branchOptions().map((b: BranchOption) => ({ token: b.token, kind: b.kind, angleDeg: Math.round((b.angle * 180) / Math.PI) }));
    return {
      taskId: this.task.id,
      instruction: this.task.instruction,
      step: this.stepCount,
      stepsLeft: this.task.stepLimit - this.stepCount,
      notices: [...this.notices],
      branches,
      viewYawDeg: Math.round((s.viewYaw * 180) / Math.PI),
      pitchDeg: Math.round((s.pitch * 180) / Math.PI),
    };
  }

  /** The camera pose for rendering the first-person view: eye at {@link EYE_HEIGHT} and yaw/pitch, world frame. */
  cameraPose(): { eye: [number, number, number]; yaw: number; pitch: number } {
    const [x, y] = this.walker.position;
    return { eye: [x, y, EYE_HEIGHT], yaw: this.walker.cameraYaw, pitch: this.walker.state.pitch };
  }

  private end(status: EpisodeStatus, answer: string | null, error: string | null): EpisodeOutcome {
    const finalPosition = this.walker.position;
    const t = this.task.truth;
    const distanceToGoal = t.scoring === 'coordinate_match' ? Math.hypot(finalPosition[0] - t.goal[0], finalPosition[1] - t.goal[1]) : null;
    this.ended = {
      status, answer, score: scoreTask(this.task, status, answer, finalPosition, this.others), steps: this.stepCount, finalPosition,
      distanceToGoal, walked: this.walked, walkSeconds: this.walkSeconds, error,
    };
    return this.ended;
  }

  /** Ends the episode as agent_error or env_error (the agent or the renderer failed). */
  fail(status: 'agent_error' | 'env_error', error: string): EpisodeOutcome {
    if (this.ended) return this.ended;
    return this.end(status, null, error);
  }

  /**
   * Applies one action.
   *
   * @returns the outcome when the episode ended with it, else null.
   * @throws Error when the episode has already ended.
   */
  act(action: ArenaAction, thought = ''): EpisodeOutcome | null {
    if (this.ended) throw new Error(`episode ${this.task.id} has ended (${this.ended.status})`);
    if (action.kind === 'answer') {
      this.stepCount++;
      this.steps.push({ action: actionText(action), thought, position: this.walker.position, moved: 0, valid: true });
      return this.end('answered', action.text, null);
    }
    const fx = applyAction(this.walker, action);
    this.notices = fx.notice ? [fx.notice] : [];
    this.steps.push({ action: actionText(action), thought, position: this.walker.position, moved: fx.moved, valid: fx.valid });
    if (!fx.valid) return null;
    this.stepCount++;
    this.walked += fx.moved;
    this.walkSeconds += fx.seconds;
    const key = actionKey(action);
    this.stagnant = fx.moved < STAGNATION_EPSILON && key === this.lastKey ? this.stagnant + 1 : 0;
    this.lastKey = key;
    if (this.stagnant >= STAGNATION_LIMIT) return this.end('stagnation', null, null);
    if (this.stepCount >= this.task.stepLimit) return this.end('step_limit', null, null);
    return null;
  }
}
