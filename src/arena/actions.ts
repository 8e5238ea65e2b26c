/**
 * The arena's actions: 360CityArena's discrete vocabulary (its runner's key tokens `W`, `A`/`D`,
 * `Q`/`E`, `S`, `LEFT`/`UP`/`RIGHT`, `ANSWER` with SMALL/MEDIUM/LARGE magnitudes: forward 1/3/5 s,
 * rotations 30/60/90°; `python/src/cityarena/runner/key_action_generator.py` and its system prompt)
 * as typed actions, and the parser of an agent's JSON reply `{"thought", "action", "memory",
 * "answer"}`.
 */
import type { NetworkWalker } from './walker';
import { firstJsonObject } from './scoring';

/** An action of the walking agent (see the module comment). */
export type ArenaAction =
  | { kind: 'forward'; seconds: number }
  | { kind: 'rotate'; deg: number }
  | { kind: 'tilt'; deg: number }
  | { kind: 'reset-view' }
  | { kind: 'branch'; token: 'LEFT' | 'UP' | 'RIGHT' }
  | { kind: 'answer'; text: string };

/** Forward durations of SMALL / MEDIUM / LARGE, seconds. */
export const FORWARD_SECONDS = { SMALL: 1, MEDIUM: 3, LARGE: 5 } as const;
/** Rotation and tilt angles of SMALL / MEDIUM / LARGE, degrees. */
export const TURN_DEGREES = { SMALL: 30, MEDIUM: 60, LARGE: 90 } as const;
export type Magnitude = keyof typeof FORWARD_SECONDS;

/** The action tokens an agent may reply with. */
export const ACTION_TOKENS = ['W', 'A', 'D', 'Q', 'E', 'S', 'LEFT', 'UP', 'RIGHT', 'ANSWER'] as const;
export type ActionToken = (typeof ACTION_TOKENS)[number];

/** The comparison key of an action for the stagnation rule (360CityArena: the same token again). */
export function actionKey(a: ArenaAction): string {
  switch (a.kind) {
    case 'forward': return 'W';
    case 'rotate': return a.deg > 0 ? 'A' : 'D';
    case 'tilt': return a.deg > 0 ? 'Q' : 'E';
    case 'reset-view': return 'S';
    case 'branch': return a.token;
    case 'answer': return 'ANSWER';
  }
}

/** The action as a token and magnitude (`W LARGE`, `A SMALL`, `ANSWER x:1 y:2`), for records and prompts. */
export function actionText(a: ArenaAction): string {
  const mag = (table: Record<Magnitude, number>, v: number) => (Object.entries(table).find(([, x]) => x === v)?.[0] ?? String(v));
  switch (a.kind) {
    case 'forward': return `W ${mag(FORWARD_SECONDS, a.seconds)}`;
    case 'rotate': return `${actionKey(a)} ${mag(TURN_DEGREES, Math.abs(a.deg))}`;
    case 'tilt': return `${actionKey(a)} ${mag(TURN_DEGREES, Math.abs(a.deg))}`;
    case 'answer': return `ANSWER ${a.text}`;
    default: return actionKey(a);
  }
}

/** The result of parsing a reply: an action, or what is wrong with it (one line, for a corrective retry). */
export type ParsedReply = { ok: true; action: ArenaAction; thought: string; memory: string } | { ok: false; error: string };

/**
 * Parses an agent's reply: a JSON object `{"thought": str, "action": TOKEN, "memory": str, "answer":
 * str}` (a ```json fence or text around it is tolerated). `answer` carries the magnitude of `W`,
 * `A`/`D`, `Q`/`E` (SMALL, MEDIUM or LARGE; default MEDIUM) and the task's answer for `ANSWER`.
 */
export function parseAgentReply(text: string): ParsedReply {
  const body = firstJsonObject(text);
  if (!body) return { ok: false, error: 'no JSON object in the reply' };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    return { ok: false, error: `reply is not valid JSON (${(e as Error).message})` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, error: 'reply is not a JSON object' };
  const o = json as Record<string, unknown>;
  const token = typeof o.action === 'string' ? o.action.trim().toUpperCase() : null;
  if (!token) return { ok: false, error: 'field "action" is missing or not a string' };
  if (!(ACTION_TOKENS as readonly string[]).includes(token)) return { ok: false, error: `field "action": '${String(o.action)}' is not one of ${ACTION_TOKENS.join(', ')}` };
  const answer = typeof o.answer === 'string' ? o.answer.trim() : o.answer === undefined || o.answer === null ? '' : String(o.answer);
  const thought = typeof o.thought === 'string' ? o.thought : '';
  const memory = typeof o.memory === 'string' ? o.memory : '';
  const magnitude = (): Magnitude | null => {
    const m = answer.toUpperCase();
    if (m === '' ) return 'MEDIUM';
    if (m === 'SMALL' || m === 'S') return 'SMALL';
    if (m === 'MEDIUM' || m === 'M') return 'MEDIUM';
    if (m === 'LARGE' || m === 'L' || m === 'BIG') return 'LARGE';
    return null;
  };
  const needMag = (make: (m: Magnitude) => ArenaAction): ParsedReply => {
    const m = magnitude();
    return m ? { ok: true, action: make(m), thought, memory } : { ok: false, error: `field "answer": '${answer}' is not SMALL, MEDIUM or LARGE (the size of ${token})` };
  };
  switch (token as ActionToken) {
    case 'W': return needMag((m) => ({ kind: 'forward', seconds: FORWARD_SECONDS[m] }));
    case 'A': return needMag((m) => ({ kind: 'rotate', deg: TURN_DEGREES[m] }));
    case 'D': return needMag((m) => ({ kind: 'rotate', deg: -TURN_DEGREES[m] }));
    case 'Q': return needMag((m) => ({ kind: 'tilt', deg: TURN_DEGREES[m] }));
    case 'E': return needMag((m) => ({ kind: 'tilt', deg: -TURN_DEGREES[m] }));
    case 'S': return { ok: true, action: { kind: 'reset-view' }, thought, memory };
    case 'LEFT': case 'UP': case 'RIGHT': return { ok: true, action: { kind: 'branch', token: token as 'LEFT' | 'UP' | 'RIGHT' }, thought, memory };
    case 'ANSWER': return { ok: true, action: { kind: 'answer', text: answer }, thought, memory };
  }
}

/** What applying an action did: metres walked, why a walk stopped, and whether the action was valid here. */
export interface ActionEffect {
  moved: number;
  seconds: number;
  /** A notice for the agent's next observation, or null. */
  notice: string | null;
  /** False for a branch token where no such branch is (the step is not counted; 360CityArena rejects it). */
  valid: boolean;
}

/**
 * Applies a non-answer action to the walker.
 *
 * @throws RangeError for an `answer` action (the episode handles it) or a non-finite magnitude.
 */
export function applyAction(walker: NetworkWalker, a: ArenaAction): ActionEffect {
  const deg = Math.PI / 180;
  switch (a.kind) {
    case 'forward': {
      const r = walker.forward(a.seconds);
      const notice = r.stop === 'branch' ? 'You reached a junction.' : r.stop === 'dead-end' ? 'The path ends here; turn round to go back.' : r.stop === 'no-path-ahead' ? 'There is no path in the direction you are facing.' : null;
      return { moved: r.distance, seconds: r.seconds, notice, valid: true };
    }
    case 'rotate':
      if (!Number.isFinite(a.deg)) throw new RangeError(`rotate ${a.deg}° is not an angle`);
      walker.rotate(a.deg * deg);
      return { moved: 0, seconds: 0, notice: null, valid: true };
    case 'tilt':
      if (!Number.isFinite(a.deg)) throw new RangeError(`tilt ${a.deg}° is not an angle`);
      walker.tilt(a.deg * deg);
      return { moved: 0, seconds: 0, notice: null, valid: true };
    case 'reset-view':
      walker.resetView();
      return { moved: 0, seconds: 0, notice: null, valid: true };
    case 'branch': {
      const ok = walker.takeBranch(a.token);
      return { moved: 0, seconds: 0, notice: ok ? null : `There is no ${a.token} branch here.`, valid: ok };
    }
    case 'answer':
      throw new RangeError('applyAction: an answer ends the episode and is not applied to the walker');
  }
}
