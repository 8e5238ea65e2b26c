/**
 * Reading a JSON file against a zod schema with the project's one-line errors:
 * `SOURCE: not valid JSON (why)` or `SOURCE: [WHAT: ]FIELD.PATH: problem` (the first issue; `(root)`
 * for the top level).
 */
import type { z } from 'zod';

/**
 * Parses `text` as JSON and validates it with `schema`.
 *
 * @param source names the file (or request body) in the message.
 * @param fail makes the error thrown from the message (the caller's UserError subclass).
 * @param what optional words before the field path (`not an arena:export manifest`).
 * @throws whatever `fail` returns, for invalid JSON or the first schema issue.
 */
export function parseJsonFile<S extends z.ZodType>(schema: S, source: string, text: string, fail: (message: string) => Error, what?: string): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw fail(`${source}: not valid JSON (${(e as Error).message})`);
  }
  const r = schema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw fail(`${source}: ${what ? `${what}: ` : ''}${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  }
  return r.data;
}
