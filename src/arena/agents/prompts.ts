/**
 * The prompts of the model agents (openai.ts): a system prompt in 360CityArena's structure (a ReAct
 * loop with a reflection memory, the action vocabulary with its magnitudes, one JSON object per
 * reply with examples; `python/src/cityarena/prompts/system.py`, paper App. 0.B) in our own words,
 * the task section appended to it, and the text of each step's user message (memory, recent actions,
 * steps left, notices, branches, camera angles). Curbside tells the agent in text what 360CityArena
 * shows only as red arrows in the image: the branches at a junction and the steps left.
 *
 * Pure string building with no Node imports (the arena page may import it): {@link promptHash} is
 * FNV-1a 64 rather than a cryptographic hash.
 */
import { FORWARD_SECONDS, TURN_DEGREES } from '../actions';
import type { ArenaObservation } from '../episode';
import { WALK_SPEED } from '../walker';

/** Version of the prompt wording; bump it with any change to the texts below (records carry it with {@link promptHash}). */
export const PROMPT_VERSION = 1;

const metres = (s: number) => Math.round(s * WALK_SPEED * 10) / 10;

/** The system prompt, without the task (see {@link systemMessageText}). */
export const SYSTEM_PROMPT = `You are an agent exploring a city on foot. You work in a loop of reasoning, acting and observing, and you keep a written memory of what matters.

At every step:
1. Reason: look at the images and the text you are given, recall your memory and your recent actions, and decide what to do next to complete the task.
2. Act: choose exactly one action from the list below.
3. Observe: the next step shows you the result of that action.

What you are given at each step:
- Your first-person camera view (an image).
- When the task provides them: a map image and task reference images.
- Text: your memory, your most recent actions with the reasoning you gave for them, the steps you have left, notices about your last action (for example that you reached a junction or that an action was refused), the branches at the junction you stand on, and where your camera points.

Actions (the "action" field) and their sizes (the "answer" field):
- W: walk forward along the sidewalk or crosswalk in the direction your camera faces. SMALL = ${FORWARD_SECONDS.SMALL} s (about ${metres(FORWARD_SECONDS.SMALL)} m), MEDIUM = ${FORWARD_SECONDS.MEDIUM} s (about ${metres(FORWARD_SECONDS.MEDIUM)} m), LARGE = ${FORWARD_SECONDS.LARGE} s (about ${metres(FORWARD_SECONDS.LARGE)} m), at ${WALK_SPEED} m/s. A walk stops early at a junction or at the end of the path. If your camera faces backwards, you turn round and walk back.
- A: turn the camera left. SMALL = ${TURN_DEGREES.SMALL}°, MEDIUM = ${TURN_DEGREES.MEDIUM}°, LARGE = ${TURN_DEGREES.LARGE}°.
- D: turn the camera right, with the same sizes as A.
- Q: tilt the camera up, with the same sizes as A.
- E: tilt the camera down, with the same sizes as A.
- S: point the camera back along your direction of travel, level.
- LEFT, UP, RIGHT: at a junction, take the branch with that name (UP is straight on). Use these only when the step's text lists that branch; otherwise the action is refused. A branch listed without a name can be taken by turning the camera towards it and walking with W.
- ANSWER: end the task. Put your answer to the task in "answer" (for a task that only asks you to reach a place, any short text). You cannot act after answering, so answer only once you are confident.

Memory: you only see your last few actions, so write in "memory" everything you will need later: the goal, your plan, where you have been, what you have found and what is left to do. Copy your previous memory and extend it. A non-empty "memory" replaces the previous one; an empty string keeps it unchanged.

Reply with one JSON object and nothing else (no text before or after it, no code fence), with exactly these keys:
{"thought": "your reasoning for this step", "action": "one of W, A, D, Q, E, S, LEFT, UP, RIGHT, ANSWER", "memory": "your updated memory", "answer": "the size of W, A, D, Q or E (SMALL, MEDIUM or LARGE), the task's answer for ANSWER, otherwise an empty string"}

Examples:
{"thought": "The street continues straight ahead and the shop I am looking for is not in sight yet.", "action": "W", "memory": "Goal: find the bakery. Walked straight from the start along the first block.", "answer": "LARGE"}
{"thought": "I reached a junction; the crosswalk on the left leads towards the tall building I noted.", "action": "LEFT", "memory": "Goal: find the bakery. Crossed at the first junction towards the tall building.", "answer": ""}
{"thought": "The grid cell matches what I have seen around me.", "action": "ANSWER", "memory": "", "answer": "x:1 y:3"}`;

/** The system message of a task: {@link SYSTEM_PROMPT} and the task's instruction. */
export function systemMessageText(instruction: string): string {
  return `${SYSTEM_PROMPT}\n\n[task]\n${instruction}`;
}

/** One earlier turn as the agent is reminded of it. */
export interface RecentTurn {
  /** Valid actions taken before it (the observation's `step`). */
  step: number;
  /** The action as `actionText` writes it (`W LARGE`, `LEFT`, …). */
  action: string;
  thought: string;
}

/** The reflection instruction that opens every step's text. */
export const REFLECTION_TEXT = 'Before you act, reflect: what is your objective, what have you learned so far, where have you already been, and what should you do next? Keep your memory up to date with all of it, since older steps drop out of view.';

const signedDeg = (d: number) => `${d}°`;

/**
 * The text part of a step's user message: the reflection instruction, the memory, the recent turns
 * (all of `recent`, oldest first; the agent passes its window), the step count and steps left,
 * notices, the branches where the agent stands (token, kind, angle left of the travel direction,
 * degrees) and the camera's yaw and pitch (degrees). The images follow it in the message.
 */
export function userTurnText(obs: ArenaObservation, memory: string, recent: readonly RecentTurn[]): string {
  const lines: string[] = [REFLECTION_TEXT, '', '[memory]', memory.trim() === '' ? '(empty)' : memory, '', '[recent actions] (oldest first)'];
  if (recent.length === 0) lines.push('(none yet)');
  for (const r of recent) lines.push(`- step ${r.step + 1}: ${r.action}${r.thought.trim() ? ` (thought: ${r.thought.trim().replace(/\s+/g, ' ')})` : ''}`);
  lines.push('', '[situation]');
  const limit = obs.step + obs.stepsLeft;
  lines.push(`This is step ${obs.step + 1} of ${limit}; ${obs.stepsLeft} step${obs.stepsLeft === 1 ? '' : 's'} left including this one.`);
  if (obs.notices.length) for (const n of obs.notices) lines.push(`Notice: ${n}`);
  if (obs.branches.length) {
    lines.push('You stand at a junction. Branches (angle left of your direction of travel; negative is to the right):');
    for (const b of obs.branches) lines.push(`- ${b.token ?? '(no name: turn the camera towards it and walk with W)'}: ${b.kind} at ${signedDeg(b.angleDeg)}`);
  } else {
    lines.push('No branches here: LEFT, UP and RIGHT are not available.');
  }
  lines.push(`Camera: turned ${signedDeg(obs.viewYawDeg)} left of your direction of travel (negative is to the right), tilted ${signedDeg(obs.pitchDeg)} up (negative is down).`);
  lines.push('', 'Current camera view:');
  return lines.join('\n');
}

/** The user message after a reply that did not parse: what is wrong (`error`, one line) and the required format. */
export function correctionText(error: string): string {
  return `Your reply could not be used: ${error}. Reply again with exactly one JSON object and nothing else: {"thought": "...", "action": "W|A|D|Q|E|S|LEFT|UP|RIGHT|ANSWER", "memory": "...", "answer": "SMALL|MEDIUM|LARGE for W/A/D/Q/E, your answer for ANSWER, else empty"}.`;
}

/** FNV-1a 64 over the UTF-16 code units of `text`, 16 hex digits. */
export function fnv1a64(text: string): string {
  const mask = (1n << 64n) - 1n;
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    h ^= BigInt(text.charCodeAt(i));
    h = (h * 0x100000001b3n) & mask;
  }
  return h.toString(16).padStart(16, '0');
}

/** A fixed observation to render the per-step template with, so that the hash covers its wording. */
const SAMPLE: ArenaObservation = {
  taskId: 'sample', instruction: 'sample', step: 3, stepsLeft: 47, notices: ['You reached a junction.'],
  branches: [{ token: 'LEFT', kind: 'crosswalk', angleDeg: 88 }, { token: null, kind: 'sidewalk', angleDeg: -140 }], viewYawDeg: 30, pitchDeg: -30,
};

/**
 * The prompt's fingerprint for records: FNV-1a 64 (16 hex digits) of the system prompt, the
 * per-step text of a fixed sample observation and the correction text, so that any change of wording
 * changes it. Not cryptographic.
 */
export function promptHash(): string {
  return fnv1a64([SYSTEM_PROMPT, userTurnText(SAMPLE, 'memory', [{ step: 2, action: 'W LARGE', thought: 'thought' }]), correctionText('error')].join('\n\u0000\n'));
}
