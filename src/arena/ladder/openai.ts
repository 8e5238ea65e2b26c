/**
 * A model agent for the ladder families (`--agent openai:MODEL` on a ladder suite), working the way
 * UrbanGround's visual ReAct agent does (`AgentEvaluation/api/react_agent.py` of `UrbanGround/UrbanGround`):
 * each step is one chat-completions request with a system prompt (the task, the action space, the
 * reply format: our wording) and a user message holding the step's text and the first-person view
 * (or the map, while it is open); the model replies with one JSON object `{"observation", "reason",
 * "action": {"action": "move", "dir": "forward", "seconds": 1.5}}`, and in a question's answer turn
 * `{"answer": "B", "reason"}`. The last few turns are repeated as text. A reply that does not parse or
 * names an action the agent may not take gets up to two corrective follow-ups, then the turn fails.
 * The transport (retries of 429 and 5xx, errors naming the endpoint) is the arena's OpenAI agent's.
 */
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ObservationImages } from '../agent';
import { OpenAiAgent, pngDataUrl, type OpenAiAgentOptions, CORRECTIVE_RETRIES } from '../agents/openai';
import { parseUrbanGroundAction } from '../control/actions';
import { firstJsonObject } from '../scoring';
import type { LadderAgent, LadderTurn } from './agent';
import { LADDER_AGENT_ACTIONS, type LadderAction, type LadderObservation } from './episode';

/** Recent turns repeated in each step's text. */
export const LADDER_HISTORY_TURNS = 8;

/** The system prompt of a ladder task (our wording of UrbanGround's protocol). */
export function ladderSystemPrompt(instruction: string, question: boolean): string {
  return [
    'You are an agent walking in a city, seen through a first-person camera at eye height. Act step by step to complete the task.',
    '',
    `Task:\n${instruction}`,
    '',
    'Actions (one per reply):',
    '- {"action": "move", "dir": "forward|backward|left|right", "seconds": 0.05-2}: walk (1.4 m/s); "sprint" with the same fields runs (3 m/s).',
    '- {"action": "look", "yaw": degrees, "pitch": degrees}: turn the camera; positive yaw turns right, positive pitch looks up.',
    '- {"action": "jump"}.',
    '- {"action": "open_map"} shows a top-down map (north up) around you; then {"action": "map_pan", "east": m, "north": m}, {"action": "map_zoom", "factor": f} (below 1 closer), {"action": "map_select", "x": 0-1, "y": 0-1} (y = 0 at the top), {"action": "close_map"} to walk again.',
    question ? '- {"action": "terminate"} when you have seen enough to answer; you will then be asked for the answer.' : '- {"action": "terminate"} when you have arrived: you are scored where you stop.',
    '',
    'Reply with one JSON object and nothing else: {"observation": "what you see", "reason": "why this action", "action": {…}}.',
  ].join('\n');
}

/** The text of one step: progress, the avatar's situation, notices and recent turns. */
export function ladderStepText(obs: LadderObservation, recent: readonly { step: number; action: string; reason: string }[]): string {
  const s = obs.state;
  const lines = [`Step ${obs.step + 1} of at most ${obs.step + obs.stepsLeft}.`, `View: ${s.mode === 'map' ? 'the map (close_map to walk)' : 'first person'}; heading ${Math.round(s.yaw)}° (compass); ${s.surface}.`];
  // Navigation tasks grant the position (UrbanGround's "Current location"); a single goal also its WGS84 point.
  if (!obs.options) lines.push(`Your position: ${s.lat.toFixed(6)}, ${s.lon.toFixed(6)}.${obs.goal ? ` Goal "${obs.goal.label}": ${obs.goal.lat.toFixed(6)}, ${obs.goal.lon.toFixed(6)}.` : ''}`);
  if (obs.notices.length) lines.push(`Last result: ${obs.notices.join(' ')}`);
  if (obs.progress) lines.push(obs.progress);
  if (recent.length) lines.push('Recent steps:', ...recent.map((r) => `  ${r.step + 1}. ${r.action} (${r.reason})`));
  if (obs.answerTurn && obs.options) {
    lines.push('', 'Exploration is over. Answer the question with one letter:', ...obs.options.map((o, k) => `${'ABCD'[k]}. ${o}`), 'Reply with one JSON object: {"answer": "A|B|C|D", "reason": "…"}.');
  } else if (obs.options) {
    lines.push('', 'The question\'s options:', ...obs.options.map((o, k) => `${'ABCD'[k]}. ${o}`));
  }
  return lines.join('\n');
}

/**
 * Reads a reply: the answer of an answer turn, else an action the agent may take, in UrbanGround's
 * shapes (`{"action": {"action": "move", …}}`, `{"action": {"type": "move", …}}`, `{"action": {"move": {…}}}`).
 *
 * @returns the action and the model's reason, or what is wrong with the reply.
 */
export function parseLadderReply(text: string, answerTurn: boolean): { ok: true; action: LadderAction; reason: string } | { ok: false; error: string } {
  const json = firstJsonObject(text);
  if (!json) return { ok: false, error: 'no JSON object in the reply' };
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch (e) {
    return { ok: false, error: `the JSON does not parse (${(e as Error).message})` };
  }
  const reason = typeof o.reason === 'string' ? o.reason : '';
  if (answerTurn) {
    if (typeof o.answer !== 'string' || o.answer.trim() === '') return { ok: false, error: 'expected {"answer": "A|B|C|D", "reason": "…"}' };
    return { ok: true, action: { action: 'answer', answer: o.answer }, reason };
  }
  let a = o.action;
  if (typeof a === 'string') a = { action: a };
  if (a && typeof a === 'object' && !('action' in a)) {
    const r = a as Record<string, unknown>;
    if (typeof r.type === 'string') a = { ...r, action: r.type };
    else {
      const keys = Object.keys(r);
      if (keys.length === 1) a = { action: keys[0], ...((r[keys[0]] ?? {}) as object) };
    }
  }
  const name = (a as { action?: unknown } | null)?.action;
  if (typeof name !== 'string' || !LADDER_AGENT_ACTIONS.includes(name) || name === 'answer') {
    return { ok: false, error: `"action" must be one of ${LADDER_AGENT_ACTIONS.filter((x) => x !== 'answer').join(', ')}` };
  }
  const parsed = parseUrbanGroundAction(a);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  return { ok: true, action: parsed.action, reason };
}

/** The ladder's model agent (see the module comment). */
export class LadderOpenAiAgent implements LadderAgent {
  readonly name: string;
  readonly needsImages = true;
  private readonly transport: OpenAiAgent;
  private instruction = '';
  private recent: { step: number; action: string; reason: string }[] = [];

  constructor(options: OpenAiAgentOptions) {
    this.transport = new OpenAiAgent(options);
    this.name = this.transport.name;
  }

  begin(brief: { taskId: string; family: string; instruction: string }): void {
    this.instruction = brief.instruction;
    this.recent = [];
  }

  /**
   * @throws Error without images, when the reply still does not parse after the corrective
   *   follow-ups, or when a request fails (the episode ends as agent_error).
   */
  async act(obs: LadderObservation, images: ObservationImages | null): Promise<LadderTurn> {
    if (!images) throw new Error(`${this.name}: no images for step ${obs.step + 1} (the agent needs a renderer)`);
    const start = performance.now();
    const content: ChatCompletionContentPart[] = [
      { type: 'text', text: ladderStepText(obs, this.recent.slice(-LADDER_HISTORY_TURNS)) },
      { type: 'image_url', image_url: { url: pngDataUrl(images.view) } },
    ];
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: ladderSystemPrompt(obs.instruction || this.instruction, obs.options !== null) },
      { role: 'user', content },
    ];
    let tokens = 0;
    let parseErrors = 0;
    for (;;) {
      const reply = await this.transport.complete(messages);
      tokens += reply.tokens;
      const parsed = parseLadderReply(reply.text, obs.answerTurn);
      if (parsed.ok) {
        this.recent.push({ step: obs.step, action: JSON.stringify(parsed.action), reason: parsed.reason.slice(0, 200) });
        return { action: parsed.action, thought: parsed.reason, tokens, latencyMs: performance.now() - start, parseErrors };
      }
      parseErrors++;
      if (parseErrors > CORRECTIVE_RETRIES) throw new Error(`${this.name}: reply did not parse after ${CORRECTIVE_RETRIES} corrective retries: ${parsed.error}`);
      messages.push({ role: 'assistant', content: reply.text }, { role: 'user', content: `Your reply could not be used: ${parsed.error}. Reply again with one JSON object only.` });
    }
  }
}
