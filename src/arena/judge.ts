/**
 * The optional LLM judge of fuzzy_match answers (`npm run arena -- --judge openai:MODEL`), as
 * 360CityArena scores relational answers with GPT-5 (paper §3.4; their judge prompt asks whether the
 * user answer names the same place as the expected one). The judge must reply with JSON
 * `{"is_correct": bool}`; the verdict is read from that field only (`parseJudgeReply`), never by
 * searching the text for "correct". A reply that does not parse is asked again once; if it still
 * does not, or the endpoint fails, the deterministic fuzzy match stands and the error is recorded.
 */
import type { OpenAiAgent } from './agents/openai';
import { parseJudgeReply } from './scoring';

/** The judge's verdict on one answer, as the record keeps it. */
export interface JudgeVerdictRecord {
  model: string;
  /** The verdict, or null when the judge gave none (then `error` says why). */
  isCorrect: boolean | null;
  error: string | null;
  tokens: number;
}

const SYSTEM = 'You check answers about places in a city. You are given a user answer and the expected answer (a name, and other names of the same place). The answer is correct when it names the same place, even if not word for word. Reply with exactly one JSON object {"is_correct": true} or {"is_correct": false} and nothing else.';

/**
 * Asks the judge whether `answer` names the expected place.
 *
 * @param client the model endpoint (an {@link OpenAiAgent}'s request function is reused).
 */
export async function judgeAnswer(client: Pick<OpenAiAgent, 'complete' | 'name'>, answer: string, expected: { name: string; aliases: readonly string[] }): Promise<JudgeVerdictRecord> {
  const model = client.name.replace(/^openai:/, '');
  const user = `User answer: ${answer}\nExpected answer: ${expected.name}${expected.aliases.length ? ` (also: ${expected.aliases.join('; ')})` : ''}`;
  const messages: { role: 'system' | 'user' | 'assistant'; content: string }[] = [{ role: 'system', content: SYSTEM }, { role: 'user', content: user }];
  let tokens = 0;
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const r = await client.complete(messages);
      tokens += r.tokens;
      const v = parseJudgeReply(r.text);
      if (v.ok) return { model, isCorrect: v.isCorrect, error: null, tokens };
      if (attempt === 1) return { model, isCorrect: null, error: `judge reply did not parse: ${v.error}`, tokens };
      messages.push({ role: 'assistant', content: r.text }, { role: 'user', content: `Your reply could not be read (${v.error}). Reply with exactly {"is_correct": true} or {"is_correct": false}.` });
    }
  } catch (e) {
    return { model, isCorrect: null, error: (e as Error).message, tokens };
  }
  return { model, isCorrect: null, error: 'judge gave no verdict', tokens };
}
