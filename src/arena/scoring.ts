/**
 * Scoring of agent answers for 360CityArena-style question tasks: small pure functions, one per
 * evaluation protocol of the 360CityArena paper (/work/shared/seeds/000_79fc21bcdd0d4a6e.txt,
 * Section 3.4 "Evaluation Protocol"):
 *
 * - exact_match (Localization: a grid cell) → {@link parseGridAnswer}, {@link exactMatchGrid};
 * - coordinate_match (final position within ε metres) → {@link coordinateMatch};
 * - mean_relative_accuracy (Object Count) → {@link meanRelativeAccuracy}, {@link parseCountAnswer};
 * - fuzzy_match (Relational Spatial Reasoning; an LLM judge in the paper, appendix 0.B.4) →
 *   {@link parseJudgeReply} for the judge's reply, and a deterministic stand-in for names,
 *   {@link fuzzyMatch} (with {@link normaliseName}, {@link tokenSetSimilarity}).
 *
 * Pure: no DOM, no I/O, no randomness; the same inputs always give the same score.
 */

/** A cell of a localization grid map (integer column `x`, row `y`). */
export interface GridCell {
  x: number;
  y: number;
}

// ---------------------------------------------------------------------------------------------
// exact_match: grid answers

/** `x` or `y` label (optionally quoted, as in JSON) followed by `:` or `=` and an optionally parenthesised number. */
const GRID_LABELLED = /(?<![a-z0-9_])["']?([xy])["']?\s*[:=]\s*\(?\s*(-?\d+(?:\.\d+)?)(?![\d.]*\d)/gi;
/** A bare pair, the whole answer: `(3, 4)`, `3,4`, `[3 ; 4]`. */
const GRID_BARE = /^[([]?\s*(-?\d+)\s*[,;]\s*(-?\d+)\s*[)\]]?\.?$/;

/**
 * The grid cell an answer names, or null when it names none or names it ambiguously.
 *
 * Accepts the labelled form the Localization prompt asks for, `x:3 y:4`, tolerant of case,
 * spaces, `=` for `:`, commas and parentheses (`X = 3, Y = 4`, `(x: 3, y: 4)`, `{"x": 3, "y": 4}`),
 * anywhere in the text; else a bare pair that is the whole answer (`(3, 4)`), read as x then y.
 * Cells are integers: a non-integer value (`x: 3.5`) gives null, and so does a label given two
 * different values (`x:2 ... x:5`), since the answer then names no single cell.
 *
 * Source: 360CityArena paper, Section 3.4 item 1 (exact_match: "numerical values (grid
 * coordinates)", correct "only when it exactly matches the answer text"); appendix 0.B.3
 * (Localization: "the expected answer format is also specified within the prompt").
 */
export function parseGridAnswer(text: string): GridCell | null {
  const values: { x: number[]; y: number[] } = { x: [], y: [] };
  for (const m of text.matchAll(GRID_LABELLED)) {
    values[m[1].toLowerCase() as 'x' | 'y'].push(Number(m[2]));
  }
  if (values.x.length > 0 || values.y.length > 0) {
    const x = single(values.x);
    const y = single(values.y);
    return x === null || y === null ? null : { x, y };
  }
  const bare = GRID_BARE.exec(text.trim());
  return bare ? { x: Number(bare[1]), y: Number(bare[2]) } : null;
}

/** The one integer value a label was given (repeats of the same value allowed), else null. */
function single(vs: number[]): number | null {
  if (vs.length === 0 || !Number.isInteger(vs[0])) return null;
  return vs.every((v) => v === vs[0]) ? vs[0] : null;
}

/**
 * exact_match for a grid answer: 1 when the answer parses ({@link parseGridAnswer}) to exactly the
 * true cell, else 0 (unparseable or ambiguous answers included).
 *
 * Source: 360CityArena paper, Section 3.4 item 1 (exact_match; used by the Localization task). The
 * match is on the parsed cell rather than the raw text, so `x=3, y=4` and `x:3 y:4` both count.
 */
export function exactMatchGrid(answer: string, truth: GridCell): 0 | 1 {
  const cell = parseGridAnswer(answer);
  return cell !== null && cell.x === truth.x && cell.y === truth.y ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// coordinate_match

/** coordinate_match threshold, metres, for every position task except Map Navigation (paper Section 3.4 item 3). */
export const COORDINATE_EPSILON = 10;
/** coordinate_match threshold, metres, for Map Navigation ("noise caused by the marker's size on the map", Section 3.4 item 3). */
export const MAP_NAV_EPSILON = 20;

/**
 * coordinate_match: 1 when the Euclidean distance from the predicted to the true position is at
 * most `epsilon` (metres; {@link COORDINATE_EPSILON} or {@link MAP_NAV_EPSILON}), else 0; a
 * non-finite prediction scores 0.
 *
 * Source: 360CityArena paper, Section 3.4 item 3 ("correct if it falls within a threshold of ε";
 * ε = 10 m, 20 m for Map Navigation). A distance of exactly ε counts as within.
 */
export function coordinateMatch(pred: readonly [number, number], truth: readonly [number, number], epsilon: number): 0 | 1 {
  const d = Math.hypot(pred[0] - truth[0], pred[1] - truth[1]);
  return Number.isFinite(d) && d <= epsilon ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// mean_relative_accuracy

/**
 * The option an UrbanGround multiple-choice answer names (0 = A … 3 = D), read as their harness
 * does (`AgentEvaluation/tasks/qa.py`): trimmed and upper-cased, the whole answer must be a letter
 * A–D, optionally after "OPTION" ("b", "Option C" are read; "B." and "B) bakery" are not).
 */
export function parseChoiceAnswer(text: string): number | null {
  const m = /^(?:OPTION\s*)?([A-D])$/.exec(text.trim().toUpperCase());
  return m ? m[1].charCodeAt(0) - 65 : null;
}

/**
 * Mean relative accuracy of a numerical estimate:
 * MRA = (1/10) Σ_{θ ∈ C} 1[ |ŷ − y| / y < 1 − θ ],  C = {0.50, 0.55, …, 0.95}.
 * So a relative error of 0.1 scores 0.8 (it passes θ = 0.50 … 0.85), and a relative error of
 * 0.5 or more scores 0. The comparison is strict, as in the paper: a relative error of exactly
 * 1 − θ fails that θ. It is evaluated in exact arithmetic form, 20·|ŷ − y| < k·y for
 * k = 20(1 − θ) ∈ {1, …, 10}, so the thresholds carry no floating-point rounding.
 *
 * Truth 0 (nothing to count): the relative error is undefined, so the score is exact match of 0:
 * 1 when the prediction is 0, else 0. A negative prediction is scored like any other (its error
 * is at least the truth, so it scores 0); a non-finite prediction scores 0. A negative or
 * non-finite truth is a caller error and throws a RangeError.
 *
 * Source: 360CityArena paper, Section 3.4 item 4, Eq. (1) (Object Count task), after VSI-Bench
 * (the paper's reference [50]).
 */
export function meanRelativeAccuracy(pred: number, truth: number): number {
  if (!Number.isFinite(truth) || truth < 0) throw new RangeError(`meanRelativeAccuracy: truth ${truth} is not a finite count >= 0`);
  if (!Number.isFinite(pred)) return 0;
  if (truth === 0) return pred === 0 ? 1 : 0;
  const err = Math.abs(pred - truth);
  let passed = 0;
  for (let k = 1; k <= 10; k++) if (20 * err < k * truth) passed++;
  return passed / 10;
}

const UNIT_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'] as const;
const TENS_WORDS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'] as const;
/** English number word → value: zero … nineteen and the tens twenty … ninety. */
const NUMBER_WORDS: ReadonlyMap<string, number> = new Map<string, number>([
  ...UNIT_WORDS.map((w, i): [string, number] => [w, i]),
  ...TENS_WORDS.map((w, i): [string, number] => [w, 20 + 10 * i]),
]);

/** The value of a compound `tens[ -]unit` (e.g. "twenty one"), or null when `tens`/`unit` do not form one. */
function compoundNumber(tens: string, unit: string | undefined): number | null {
  const t = NUMBER_WORDS.get(tens);
  const u = unit === undefined ? undefined : NUMBER_WORDS.get(unit);
  return t !== undefined && t >= 20 && u !== undefined && u >= 1 && u <= 9 ? t + u : null;
}

/** A number in digits (optional sign, thousands commas, decimals) or a run of letters. */
const COUNT_TOKEN = /(?<![a-z0-9_.])(-?\d{1,3}(?:,\d{3})+(?!\d)|-?\d+)(\.\d+)?|[a-z]+/gi;

/**
 * The first number in an answer, or null when there is none: digits (`7`, `1,200`, `3.5`, `-2`)
 * or an English number word, zero to twenty (`five`, `twelve`), and likewise the tens and their
 * compounds up to ninety-nine (`twenty-one`, `thirty two`). "First" is by position in the text, so
 * "one of them, 5 in all" reads 1; digits glued to letters (`B2`) are not numbers.
 *
 * Source: the answer parsing that mean_relative_accuracy needs (360CityArena paper, Section 3.4
 * item 4: "tasks that involve numerical estimation", the Object Count task).
 */
export function parseCountAnswer(text: string): number | null {
  const tokens = [...text.matchAll(COUNT_TOKEN)];
  for (let i = 0; i < tokens.length; i++) {
    const m = tokens[i];
    if (m[1] !== undefined) return Number(m[1].replaceAll(',', '') + (m[2] ?? ''));
    const word = m[0].toLowerCase();
    const value = NUMBER_WORDS.get(word);
    if (value === undefined) continue;
    const next = tokens[i + 1];
    const between = next ? text.slice(m.index + m[0].length, next.index) : '';
    const compound = next && /^[\s-]+$/.test(between) ? compoundNumber(word, next[0].toLowerCase()) : null;
    return compound ?? value;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// fuzzy_match: deterministic name matching

/** Tokens dropped from names: articles, and the filler words a storefront name may or may not carry. */
const DROPPED_WORDS: ReadonlySet<string> = new Set(['a', 'an', 'the', 'shop', 'store']);
/** Street-type abbreviations expanded (the types of src/world/names.ts STREET_TYPES). */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['st', 'street'], ['ave', 'avenue'], ['av', 'avenue'], ['rd', 'road'], ['ln', 'lane'], ['blvd', 'boulevard'], ['pl', 'place'], ['dr', 'drive'],
]);

/**
 * A name reduced to the tokens that matter for comparing it, space-separated: lowercased, accents
 * folded (`Café` → `cafe`), possessive `'s` removed and other apostrophes deleted (`Rossi's` →
 * `rossi`, `O'Brien` → `obrien`), `&` read as `and`, other punctuation as spaces; the articles
 * a/an/the and the filler words shop/store dropped; street-type abbreviations expanded (`St` →
 * `street`, `Ave` → `avenue`, …); English number words written as digits (`twelve` → `12`,
 * `twenty-one` → `21`); spaces collapsed.
 *
 * Source: a deterministic stand-in for fuzzy_match (360CityArena paper, Section 3.4 item 2, whose
 * judge decides "semantically equivalent"); this normalisation is this module's own choice.
 */
export function normaliseName(text: string): string {
  const cleaned = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’‘`]s\b/g, '')
    .replace(/['’‘`]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ');
  const words = cleaned.split(' ').filter((w) => w !== '' && !DROPPED_WORDS.has(w));
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const compound = compoundNumber(words[i], words[i + 1]);
    if (compound !== null) {
      out.push(String(compound));
      i++;
      continue;
    }
    const value = NUMBER_WORDS.get(words[i]);
    out.push(value !== undefined ? String(value) : ABBREVIATIONS.get(words[i]) ?? words[i]);
  }
  return out.join(' ');
}

/** The distinct tokens of a name after {@link normaliseName}. */
function tokensOf(text: string): string[] {
  const n = normaliseName(text);
  return n === '' ? [] : [...new Set(n.split(' '))];
}

/** Edit distance with adjacent transpositions (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[i].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}

/**
 * Similarity of two normalised tokens in [0, 1]: 1 when equal; for two alphabetic tokens of at
 * least 4 letters within a small typo distance (1 edit, 2 from 8 letters on; a transposition is one
 * edit), 1 − edits / longer length (`rossi`/`rossa` → 0.8); otherwise 0. Tokens with digits
 * (house numbers) match only exactly, and short words never fuzzily.
 */
function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (/\d/.test(a) || /\d/.test(b) || Math.min(a.length, b.length) < 4) return 0;
  const longer = Math.max(a.length, b.length);
  if (longer - Math.min(a.length, b.length) > 2) return 0;
  const d = editDistance(a, b);
  return d <= (longer >= 8 ? 2 : 1) ? 1 - d / longer : 0;
}

/** The best {@link tokenSimilarity} of `t` to any token of `others` (0 for none). */
function bestTokenMatch(t: string, others: readonly string[]): number {
  let best = 0;
  for (const o of others) best = Math.max(best, tokenSimilarity(t, o));
  return best;
}

/**
 * Similarity of two names in [0, 1], symmetric: a soft Dice coefficient over their token sets
 * (after {@link normaliseName}), (Σ_{a∈A} max_b s(a,b) + Σ_{b∈B} max_a s(a,b)) / (|A| + |B|), where
 * the token similarity s is 1 for equal tokens and gives partial credit for a small typo (a
 * normalised edit distance, 1 − edits / length, allowed for alphabetic tokens of 4+ letters within
 * 1 edit, 2 from 8 letters; numbers match only exactly). With exact tokens only it is the Dice
 * coefficient 2|A∩B| / (|A|+|B|); "Rossi Bakery" vs "Rossa Bakery" gives (0.8+1+0.8+1)/4 = 0.9.
 * A name with no tokens left is similar to nothing (0).
 *
 * Source: a deterministic stand-in for fuzzy_match (360CityArena paper, Section 3.4 item 2); the
 * Dice-over-tokens measure with per-token edit-distance tolerance is this module's own choice.
 */
export function tokenSetSimilarity(a: string, b: string): number {
  return softDice(tokensOf(a), tokensOf(b));
}

function softDice(ta: readonly string[], tb: readonly string[]): number {
  if (ta.length === 0 || tb.length === 0) return 0;
  let sum = 0;
  for (const t of ta) sum += bestTokenMatch(t, tb);
  for (const t of tb) sum += bestTokenMatch(t, ta);
  return sum / (ta.length + tb.length);
}

/** How much of `candidate` appears in `answer`: Σ_{c∈cand} max_{t∈ans} s(c,t) / |cand| (0 for an empty candidate). */
function containment(candidate: readonly string[], answer: readonly string[]): number {
  if (candidate.length === 0) return 0;
  let sum = 0;
  for (const t of candidate) sum += bestTokenMatch(t, answer);
  return sum / candidate.length;
}

/** The true answer of a name question: its name and the other ways of naming it (e.g. its address). */
export interface FuzzyTruth {
  name: string;
  aliases: readonly string[];
}

/** Acceptance settings of {@link fuzzyMatch}. */
export interface FuzzyMatchOptions {
  /** Least similarity to the truth (or an alias) that can score; default {@link FUZZY_THRESHOLD}. */
  threshold?: number;
  /** Least lead of that similarity over the best similarity to any other name; default {@link FUZZY_MARGIN}. */
  margin?: number;
}

/** The outcome of {@link fuzzyMatch}, with the numbers that decided it. */
export interface FuzzyMatchResult {
  score: 0 | 1;
  /** Best similarity of the answer to the truth's name or an alias. */
  similarity: number;
  /** The other name the answer is most similar to, or null when there are no others. */
  bestOther: string | null;
  /** The answer's similarity to `bestOther` (0 when there is none). */
  bestOtherSimilarity: number;
}

/** Default least similarity of {@link fuzzyMatch}. */
export const FUZZY_THRESHOLD = 0.8;
/** Default least lead over the nearest other name of {@link fuzzyMatch}. */
export const FUZZY_MARGIN = 0.15;
/** Slack on the margin comparison so that 0.95 − 0.8 (0.1499…9 in floating point) still counts as 0.15. */
const MARGIN_SLACK = 1e-9;

/** Similarity of an answer to one candidate name: the larger of the token-set similarity and how fully the candidate is contained in the answer. */
function answerSimilarity(answer: readonly string[], candidate: readonly string[]): number {
  return Math.max(softDice(answer, candidate), containment(candidate, answer));
}

/**
 * Deterministic fuzzy_match of a named answer (e.g. which storefront is left of X): score 1 only
 * when the answer's similarity to the truth's name or any alias is at least `threshold` (default
 * 0.8) AND leads its similarity to every one of `others` (the other names the world offers) by at
 * least `margin` (default 0.15); else 0.
 *
 * The similarity of the answer to a candidate is the larger of {@link tokenSetSimilarity} and the
 * candidate's containment in the answer, Σ_{c∈cand} max_{t∈ans} s(c,t) / |cand|, so that a full
 * sentence ("I think it is Rossi's Bakery on Oak Street") matches the name it contains. The margin
 * is what stops confusable names scoring: "Rossi Books" does not match "Rossi Bakery" when
 * "Rossi Books" is one of `others`, and a typo "Rossa Bakery" matches "Rossi Bakery" only when no
 * other name is "Rossa Bakery". An answer containing two candidate names in full ("Rossi Bakery or
 * Patel Cafe", or a negation "not Rossi Bakery but Patel Cafe") is ambiguous to this matcher and
 * scores 0. Entries of `others` that normalise to the truth's name or an alias are ignored (a
 * caller may pass every name in the world).
 *
 * Source: 360CityArena paper, Section 3.4 item 2 (fuzzy_match, Relational Spatial Reasoning),
 * whose judge is an LLM (appendix 0.B.4; parse its reply with {@link parseJudgeReply}); this is a
 * deterministic, offline substitute for names, not the paper's method.
 */
export function fuzzyMatch(answer: string, truth: FuzzyTruth, others: readonly string[], opts: FuzzyMatchOptions = {}): FuzzyMatchResult {
  const threshold = opts.threshold ?? FUZZY_THRESHOLD;
  const margin = opts.margin ?? FUZZY_MARGIN;
  const ans = tokensOf(answer);
  const truths = [truth.name, ...truth.aliases];
  const truthKeys = new Set(truths.map(normaliseName));
  let similarity = 0;
  for (const t of truths) similarity = Math.max(similarity, answerSimilarity(ans, tokensOf(t)));
  let bestOther: string | null = null;
  let bestOtherSimilarity = 0;
  for (const o of others) {
    if (truthKeys.has(normaliseName(o))) continue;
    const s = answerSimilarity(ans, tokensOf(o));
    if (bestOther === null || s > bestOtherSimilarity) {
      bestOther = o;
      bestOtherSimilarity = s;
    }
  }
  const score = similarity >= threshold && similarity - bestOtherSimilarity >= margin - MARGIN_SLACK ? 1 : 0;
  return { score, similarity, bestOther, bestOtherSimilarity };
}

// ---------------------------------------------------------------------------------------------
// fuzzy_match: LLM judge replies

/** A judge reply read: its verdict, or why it gives none. */
export type JudgeVerdict = { ok: true; isCorrect: boolean } | { ok: false; error: string };

/**
 * The verdict in an LLM judge's reply, which must contain the JSON object `{"is_correct": bool}`:
 * the first balanced `{...}` in the text is parsed (so ```json fences and surrounding prose are
 * tolerated; braces inside JSON strings are skipped), and its boolean field `is_correct` is the
 * verdict. Anything else is an error, never a guess: no object, malformed JSON, no `is_correct`
 * field, or a non-boolean value (`"yes"`, `"true"`, `1`). Prose is never searched for words, so
 * "The answer is not incorrect" is an error, not a verdict.
 *
 * Source: 360CityArena paper, Section 3.4 item 2 (fuzzy_match with an LLM judge, GPT-5) and
 * appendix 0.B.4 (the evaluation prompt); the JSON reply format is this project's.
 */
export function parseJudgeReply(text: string): JudgeVerdict {
  const json = firstJsonObject(text);
  if (json === null) return { ok: false, error: 'no JSON object in the judge reply' };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    return { ok: false, error: `malformed JSON in the judge reply: ${(e as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, 'is_correct')) {
    return { ok: false, error: 'the judge reply has no "is_correct" field' };
  }
  const verdict = (value as { is_correct: unknown }).is_correct;
  if (typeof verdict !== 'boolean') return { ok: false, error: `"is_correct" is ${JSON.stringify(verdict)}, not a boolean` };
  return { ok: true, isCorrect: verdict };
}

/**
 * The first balanced `{...}` in `text` (braces inside JSON string literals skipped), or null when
 * there is none or it never closes: how a JSON reply is found inside a model's prose or code fence
 * (the judge's verdict here, an agent's action in actions.ts).
 */
export function firstJsonObject(text: string): string | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

/** When each stop of a multi-stop or schedule task was first reached, and how many times a stop was reached out of turn. */
export interface StopVisits {
  /** Per stop (task order): simulation seconds since the task began when the avatar first came within the radius, or null. */
  reachedAt: (number | null)[];
  /** Arrivals at a later appointment before an earlier one was reached (schedule only; UrbanGround's order violations). */
  orderViolations: number;
}

/**
 * Time-window schedule success (UrbanGround's `schedule_window_nav` evaluator: order, arrival and
 * punctuality): every stop reached, none out of order, each by its due time. `dueSeconds[k]` is
 * stop k's deadline in seconds after the task began; arriving within the deadline's minute counts
 * (their `ON_TIME_GRACE_SECONDS` = 60: a due time of 10:00 accepts 10:00:59).
 */
export function scheduleSuccess(visits: StopVisits, dueSeconds: readonly number[]): 0 | 1 {
  if (visits.orderViolations > 0) return 0;
  return visits.reachedAt.every((t, k) => t !== null && t < dueSeconds[k] + 60) ? 1 : 0;
}

/** Stops of a schedule reached by their due time (see {@link scheduleSuccess} for the grace minute). */
export function onTimeArrivals(visits: StopVisits, dueSeconds: readonly number[]): number {
  return visits.reachedAt.filter((t, k) => t !== null && t < dueSeconds[k] + 60).length;
}

/**
 * A multi-stop route's efficiency against the oracle's: the shortest network walk through every
 * stop (`oracleTour`, metres) over the distance the agent walked (UrbanGround divides a spanning-
 * tree lower bound by the walked length; the oracle's tour is the tighter reference here). Null
 * when nothing was walked. Above 1 only when the agent cut corners off the network.
 */
export function routeEfficiency(oracleTour: number, walked: number): number | null {
  return walked > 0 ? oracleTour / walked : null;
}

/** Seconds from clock time `start` to the next `due` (both `HH:MM`; a due time before the start is the next day's). */
export function dueSecondsAfter(start: string, due: string): number {
  const sec = (t: string) => {
    const [h, m] = t.split(':').map(Number);
    return h * 3600 + m * 60;
  };
  return (sec(due) - sec(start) + 86_400) % 86_400;
}
