/**
 * A model agent on any OpenAI-compatible chat-completions endpoint (`--agent openai:MODEL`): the
 * OpenAI API, or a local server such as vLLM, llama.cpp or Ollama through `apiBase`. It works as
 * 360CityArena's runner does (`runner/key_action_generator.py`): every step is one request with the
 * system prompt and the task (prompts.ts), and a user message holding the step's text (memory, the
 * last few actions, steps left, notices, branches, camera angles), the camera view and, where the
 * task has them, the map and the reference image. The model replies with one JSON object
 * (`parseAgentReply`); its non-empty "memory" replaces the agent's memory. No earlier messages are
 * sent: the memory and the window of recent turns are the agent's whole history.
 *
 * Failures: a reply that does not parse gets up to {@link CORRECTIVE_RETRIES} corrective follow-ups
 * (the bad reply and a message naming the error), then `act` throws. HTTP 429 and 5xx are retried up
 * to `maxRetries` times, waiting what `Retry-After` (or `retry-after-ms`) asks, at most
 * {@link RETRY_AFTER_CAP_MS}, else 1, 2, 4, 8… s; other 4xx, a refused connection and a timeout throw
 * at once with the endpoint and the status. Retrying is this module's, not the SDK's (the SDK client
 * runs with `maxRetries: 0`): the SDK ignores a Retry-After over 60 s, adds jitter and cannot be given
 * a clock, and this way the waits are testable.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { actionText, parseAgentReply } from '../actions';
import type { AgentTurn, ArenaAgent, ObservationImages, PrivilegedView } from '../agent';
import type { ArenaObservation } from '../episode';
import { correctionText, systemMessageText, userTurnText, type RecentTurn } from './prompts';

/** The OpenAI API. */
export const DEFAULT_API_BASE = 'https://api.openai.com/v1';
/** Retries of a request answered 429 or 5xx. */
export const DEFAULT_MAX_RETRIES = 4;
/** Longest wait before a retry, milliseconds (a longer Retry-After is cut to it). */
export const RETRY_AFTER_CAP_MS = 60_000;
/** First wait of the exponential backoff when the server names none, milliseconds (doubling: 1, 2, 4, 8 s). */
export const BACKOFF_BASE_MS = 1000;
/** Time limit of one request, milliseconds (360CityArena's `LLM_TIMEOUT`, 150 s). */
export const DEFAULT_TIMEOUT_MS = 150_000;
/** Recent turns shown in each step's text (360CityArena: 5). */
export const DEFAULT_HISTORY_TURNS = 5;
/** Follow-up requests after a reply that does not parse, before `act` throws. */
export const CORRECTIVE_RETRIES = 2;

/** Options of an {@link OpenAiAgent}. */
export interface OpenAiAgentOptions {
  /** Model name as the endpoint knows it (`gpt-5`, `Qwen/Qwen2.5-VL-32B-Instruct`, …). */
  model: string;
  /** Base URL of the API up to `/v1`; default {@link DEFAULT_API_BASE}. */
  apiBase?: string;
  /** Bearer key (the CLI passes `OPENAI_API_KEY`); local servers usually need none. */
  apiKey?: string;
  /** Retries of a request answered 429 or 5xx; default {@link DEFAULT_MAX_RETRIES}. */
  maxRetries?: number;
  /** Time limit of one request, milliseconds; default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Recent turns shown in each step's text; default {@link DEFAULT_HISTORY_TURNS}. */
  historyTurns?: number;
  /** Sampling temperature; omitted from the request when not given (some models accept none). */
  temperature?: number;
  /** Waits `ms` milliseconds before a retry (tests inject one that records and returns at once). */
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The wait before retry number `attempt` (0-based), milliseconds: what `retryAfterMs` (the
 * `retry-after-ms` header) or `retryAfter` (the `Retry-After` header: seconds or an HTTP date, read
 * against `nowMs`) asks, capped at {@link RETRY_AFTER_CAP_MS}; else `BACKOFF_BASE_MS · 2^attempt`,
 * capped the same.
 */
export function retryDelayMs(attempt: number, retryAfter: string | null, retryAfterMs: string | null = null, nowMs = Date.now()): number {
  let ms: number | null = null;
  if (retryAfterMs !== null && retryAfterMs.trim() !== '') {
    const v = Number(retryAfterMs);
    if (Number.isFinite(v) && v >= 0) ms = v;
  }
  if (ms === null && retryAfter !== null && retryAfter.trim() !== '') {
    const s = retryAfter.trim();
    if (/^\d+(\.\d+)?$/.test(s)) ms = Number(s) * 1000;
    else {
      const at = Date.parse(s);
      if (Number.isFinite(at)) ms = Math.max(0, at - nowMs);
    }
  }
  if (ms === null) ms = BACKOFF_BASE_MS * 2 ** attempt;
  return Math.min(ms, RETRY_AFTER_CAP_MS);
}

/** PNG bytes as a `data:` URL (no Node Buffer: the arena page may use this agent). */
export function pngDataUrl(png: Uint8Array): string {
  let bin = '';
  const chunk = 0x8000;
  for (let i = 0; i < png.length; i += chunk) bin += String.fromCharCode(...png.subarray(i, i + chunk));
  return `data:image/png;base64,${btoa(bin)}`;
}

/** The innermost cause's code or message of a connection error (`ECONNREFUSED`, …). */
function causeText(e: unknown): string {
  let c: unknown = e;
  let text = '';
  for (let depth = 0; c instanceof Error && depth < 6; depth++) {
    const code = (c as Error & { code?: unknown }).code;
    text = typeof code === 'string' ? code : c.message;
    c = (c as Error & { cause?: unknown }).cause;
  }
  return text;
}

/** An agent on an OpenAI-compatible chat-completions endpoint (see the module comment). */
export class OpenAiAgent implements ArenaAgent {
  readonly name: string;
  readonly needsImages = true;
  /** `{apiBase}/chat/completions`, as error messages name it. */
  readonly endpoint: string;
  private readonly client: OpenAI;
  private readonly maxRetries: number;
  private readonly historyTurns: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private instruction = '';
  private memory = '';
  private recent: RecentTurn[] = [];

  /** @throws RangeError for a negative `maxRetries` or `historyTurns`, or a non-positive `timeoutMs`. */
  constructor(private readonly options: OpenAiAgentOptions) {
    const base = (options.apiBase ?? DEFAULT_API_BASE).replace(/\/+$/, '');
    this.name = `openai:${options.model}`;
    this.endpoint = `${base}/chat/completions`;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.historyTurns = options.historyTurns ?? DEFAULT_HISTORY_TURNS;
    const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(Number.isInteger(this.maxRetries) && this.maxRetries >= 0)) throw new RangeError(`${this.name}: maxRetries ${this.maxRetries} is not a count`);
    if (!(Number.isInteger(this.historyTurns) && this.historyTurns >= 0)) throw new RangeError(`${this.name}: historyTurns ${this.historyTurns} is not a count`);
    if (!(timeout > 0)) throw new RangeError(`${this.name}: timeoutMs ${timeout} is not a positive duration`);
    this.sleep = options.sleep ?? realSleep;
    // The SDK reads OPENAI_API_KEY itself and refuses to start without a key: pass one always
    // (a local server ignores it; the OpenAI API answers 401, reported with a hint). The arena page
    // may run this agent in a browser against a local endpoint: the key is the user's own there.
    this.client = new OpenAI({ baseURL: base, apiKey: options.apiKey || 'no-key', maxRetries: 0, timeout, dangerouslyAllowBrowser: true });
  }

  /** Starts an episode: keeps the instruction, clears memory and recent turns. Never reads `_privileged`. */
  begin(brief: { taskId: string; family: string; instruction: string }, _privileged: PrivilegedView): void {
    this.instruction = brief.instruction;
    this.memory = '';
    this.recent = [];
  }

  /**
   * One request (and its retries), returning the reply's text and the tokens it used.
   *
   * @throws Error naming the endpoint: a refused connection, a timeout, a non-retryable status, or a
   *   429/5xx still failing after `maxRetries` retries.
   */
  async complete(messages: ChatCompletionMessageParam[]): Promise<{ text: string; tokens: number }> {
    const t = this.options.temperature;
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await this.client.chat.completions.create({ model: this.options.model, messages, ...(t === undefined ? {} : { temperature: t }) });
        return { text: r.choices?.[0]?.message?.content ?? '', tokens: r.usage?.total_tokens ?? 0 };
      } catch (e) {
        if (e instanceof APIConnectionTimeoutError) throw new Error(`${this.name}: POST ${this.endpoint} timed out after ${this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`);
        if (e instanceof APIConnectionError) throw new Error(`${this.name}: POST ${this.endpoint} failed: no connection (${causeText(e) || e.message})`);
        if (e instanceof APIError && typeof e.status === 'number') {
          const status = e.status;
          const detail = e.message.replace(/\s+/g, ' ').slice(0, 300);
          const retryable = status === 429 || status >= 500;
          if (retryable && attempt < this.maxRetries) {
            await this.sleep(retryDelayMs(attempt, e.headers?.get('retry-after') ?? null, e.headers?.get('retry-after-ms') ?? null));
            continue;
          }
          const hint = status === 401 && !this.options.apiKey ? ' (no API key given: set OPENAI_API_KEY)' : '';
          const tries = retryable ? ` after ${attempt + 1} attempts` : '';
          throw new Error(`${this.name}: POST ${this.endpoint} → HTTP ${status}${tries}: ${detail}${hint}`);
        }
        throw new Error(`${this.name}: POST ${this.endpoint} failed: ${(e as Error).message}`);
      }
    }
  }

  /**
   * The model's action for `obs` (see the module comment); `latencyMs` is the wall time of the whole
   * turn including retries and waits, `tokens` the sum of `usage.total_tokens` over its requests.
   *
   * @throws Error when `images` is null, when the reply still does not parse after
   *   {@link CORRECTIVE_RETRIES} follow-ups (naming the last parse error), or when a request fails
   *   ({@link complete}); the episode then ends as agent_error.
   */
  async act(obs: ArenaObservation, images: ObservationImages | null): Promise<AgentTurn> {
    if (!images) throw new Error(`${this.name}: no images for step ${obs.step + 1} (the agent needs a renderer)`);
    const start = performance.now();
    const content: ChatCompletionContentPart[] = [
      { type: 'text', text: userTurnText(obs, this.memory, this.recent.slice(Math.max(0, this.recent.length - this.historyTurns))) },
      { type: 'image_url', image_url: { url: pngDataUrl(images.view) } },
    ];
    if (images.map) content.push({ type: 'text', text: 'Current map:' }, { type: 'image_url', image_url: { url: pngDataUrl(images.map) } });
    if (images.reference) content.push({ type: 'text', text: 'Task reference image:' }, { type: 'image_url', image_url: { url: pngDataUrl(images.reference) } });
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: systemMessageText(obs.instruction || this.instruction) },
      { role: 'user', content },
    ];
    let tokens = 0;
    let parseErrors = 0;
    for (;;) {
      const reply = await this.complete(messages);
      tokens += reply.tokens;
      const parsed = parseAgentReply(reply.text);
      if (parsed.ok) {
        if (parsed.memory.trim() !== '') this.memory = parsed.memory;
        this.recent.push({ step: obs.step, action: actionText(parsed.action), thought: parsed.thought });
        if (this.recent.length > this.historyTurns) this.recent.splice(0, this.recent.length - this.historyTurns);
        return { action: parsed.action, thought: parsed.thought, tokens, latencyMs: performance.now() - start, parseErrors };
      }
      parseErrors++;
      if (parseErrors > CORRECTIVE_RETRIES) {
        throw new Error(`${this.name}: reply did not parse after ${CORRECTIVE_RETRIES} corrective retries: ${parsed.error}`);
      }
      messages.push({ role: 'assistant', content: reply.text }, { role: 'user', content: correctionText(parsed.error) });
    }
  }
}
