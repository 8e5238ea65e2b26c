/**
 * The `ocr` agent, a pixel-only baseline: it never reads the privileged view (no world, no truth, no
 * position); it explores the pedestrian network from the text observation (junction notices and
 * branch tokens) and reads signs in its first-person view with an OCR reader (the CLI passes a
 * tesseract.js `SignReader`, sign-reader.ts; tests pass a fake). It shows how much of each family
 * is solvable from the pixels alone.
 *
 * Each step it reads the view (except right after `S`, whose view it has just read), then:
 *
 * - with one step left, it answers whatever it has (below);
 * - families with a readable target ({@link targetOf}: landmark-language's "go to NAME,", vln's
 *   "Stop in front of NAME on your", relational's anchor "Find a nearby NAME and tell"): when a sign
 *   line matches the target ({@link textMatches}), search and vln answer `here` once the sign is
 *   near (its text at least {@link NEAR_TEXT_FRACTION} of the image height: about 11 m for the
 *   world's 0.6 m letters in the default 60° view), walking towards it first while it is ahead and
 *   small (up to {@link MAX_APPROACH} steps, also while only a word of it is read: a sign cut at
 *   the image's edge; when none of it is read any more after such a step it has passed out of the
 *   view beside the walker, and it answers then); a match read far off while looking to the side
 *   (a sign across the street) makes it take a crosswalk at the next junction that has one;
 *   relational answers the sign read beside the anchor in the same view ({@link relationalGuess}:
 *   the nearest on the asked side in image x, the k-th for "two/three doors", any nearest for
 *   "across"), else keeps the guess and explores on;
 * - count answers after {@link COUNT_STEPS} steps: for shops, the number of distinct sign lines
 *   read so far (the {@link COUNT_PRIOR} when it read none); for other objects, which OCR cannot
 *   count, the {@link COUNT_PRIOR};
 * - localization answers the centre cell `x:2 y:2` (its prior) after {@link LOCALIZATION_STEPS}
 *   steps (it reads street names on the way, but does not match them against the grid map);
 * - map-navigation and landmark-image (whose targets are pictures) explore and answer `here` with
 *   one step left.
 *
 * Exploring: walk forward 5 s; at a junction take a branch token drawn with the seeded generator,
 * preferring tokens not taken at a junction that looked the same (its branch tokens, kinds and
 * angles to 15°: the agent has no position) among its last {@link JUNCTION_MEMORY} choices there;
 * count prefers `UP` (along its street); at a dead end turn round (two 90° turns), where there is no
 * path ahead turn 90°; every fourth step, away from junctions and with the camera ahead, look 90° to
 * one side (alternating left and right) and back (`S`) to read the signs beside the path (storefront
 * signs face the street, so they are read far more often from the side than ahead, where the
 * near-side ones are seen edge-on). The text it read each step goes in the turn's thought.
 * Deterministic given the seed and what the reader returns.
 */
import { createRng, type Rng } from '../../core/random';
import { FORWARD_SECONDS, TURN_DEGREES, type ArenaAction } from '../actions';
import type { AgentTurn, ArenaAgent, ObservationImages, PrivilegedView } from '../agent';
import type { ArenaObservation } from '../episode';
import { normaliseName, tokenSetSimilarity } from '../scoring';

/** A word an OCR reader found: its text, confidence 0–100 and box, pixels. */
export interface OcrWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}

/** What an OCR reader found in an image: all its text and its words. */
export interface OcrResult {
  text: string;
  words: OcrWord[];
}

/** Reads the text in a PNG image (sign-reader.ts's SignReader, or a fake in tests). */
export interface TextReader {
  read(png: Uint8Array): Promise<OcrResult>;
}

/** Least word confidence that counts as read. */
export const MIN_WORD_CONFIDENCE = 60;
/**
 * Least target similarity of a window of read tokens ({@link textMatches}): above fuzzy_match's 0.8,
 * which two of three tokens reach, so that "GARCIA BAKERY" is not taken for Garcia Bakery Railway
 * (the world tells same-named shops apart by a street suffix, and signs show the whole name).
 */
export const MATCH_THRESHOLD = 0.85;
/** Least text height of a matched sign, as a share of the image height, for "I am in front of it". */
export const NEAR_TEXT_FRACTION = 0.045;
/** Steps spent walking towards a matched sign that is ahead but far before answering anyway. */
export const MAX_APPROACH = 4;
/** Steps before a count answer. */
export const COUNT_STEPS = 6;
/** The count answered when OCR cannot count (not shops, or no sign read). */
export const COUNT_PRIOR = 4;
/** Steps before the localization answer. */
export const LOCALIZATION_STEPS = 10;
/** The localization answer: the centre of the 5 × 5 grid. */
export const LOCALIZATION_PRIOR = 'x:2 y:2';
/** Branch choices remembered per junction signature. */
export const JUNCTION_MEMORY = 2;
/** Length of the read text kept in a turn's thought. */
const THOUGHT_CHARS = 200;

/**
 * The name an instruction asks to find, or null where it names none that can be read
 * (localization, count, map-navigation, landmark-image): landmark-language "go to NAME,", vln
 * "Stop in front of NAME on your", relational "Find a nearby NAME and tell".
 */
export function targetOf(family: string, instruction: string): string | null {
  const pattern = family === 'landmark-language' ? /go to (.+?),/ : family === 'vln' ? /Stop in front of (.+?) on your/ : family === 'relational' ? /Find a nearby (.+?) and tell/ : null;
  const name = pattern?.exec(instruction)?.[1].trim() ?? '';
  return name !== '' && normaliseName(name) !== '' ? name : null;
}

/** What a count instruction counts ("shops", "trees", …), or null. */
export function countedKind(instruction: string): string | null {
  return /count the number of (.+?) along/.exec(instruction)?.[1] ?? null;
}

/** A relational question's side (+1 left, −1 right, 0 across or unknown) and how many doors along (1–3). */
export function relationOf(instruction: string): { side: 1 | -1 | 0; doors: number } {
  const m = /tell me the name of the store (.*?)(?: of it)?\./.exec(instruction)?.[1] ?? '';
  const side = / left/.test(m) ? 1 : / right/.test(m) ? -1 : 0;
  const doors = /three doors/.test(m) ? 3 : /two doors/.test(m) ? 2 : 1;
  return { side, doors };
}

/** Levenshtein distance of two strings. */
function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length];
}

/**
 * Whether read text names `target`: every token of the target (normaliseName) among the text's
 * tokens; or a window of the text's tokens (the target's length ±1) with tokenSetSimilarity ≥
 * {@link MATCH_THRESHOLD} (which tolerates a typo in a long word); or such a window whose letters,
 * run together, are within edits of a fifth of the target's letters run together and at most one
 * letter shorter (OCR splits words and loses letters: "HU HES OPTICIAN" is Hughes Optician; a
 * window that drops a whole word, "OPTICIAN" for Xu Optician, is not).
 */
export function textMatches(text: string, target: string): boolean {
  const want = normaliseName(target).split(' ').filter((t) => t !== '');
  const got = normaliseName(text).split(' ').filter((t) => t !== '');
  if (want.length === 0 || got.length === 0) return false;
  if (want.every((t) => got.includes(t))) return true;
  const joined = want.join('');
  for (let n = Math.max(1, want.length - 1); n <= want.length + 1; n++) {
    for (let i = 0; i + n <= got.length; i++) {
      const window = got.slice(i, i + n);
      if (tokenSetSimilarity(window.join(' '), target) >= MATCH_THRESHOLD) return true;
      const run = window.join('');
      if (run.length >= joined.length - 1 && levenshtein(run, joined) <= Math.floor(joined.length / 5)) return true;
    }
  }
  return false;
}

/** A line of sign text: confident words side by side, their joined text and box (null when read from plain text). */
export interface SignLine {
  text: string;
  bbox: { x0: number; y0: number; x1: number; y1: number } | null;
}

const letters = (s: string) => (s.match(/\p{L}/gu) ?? []).length;

/**
 * The sign lines of a read: words of at least `minConfidence` (default {@link MIN_WORD_CONFIDENCE})
 * with two letters or more (one with `minConfidence` 0, which keeps every word with a letter: the
 * lines a known name is looked for in, since OCR is unsure of exactly the letters it gets wrong),
 * joined left to right where they sit on one line (centres within half a word height, a gap under
 * 1.2 heights, heights within a factor 1.6); lines with three letters or more. Without words, the
 * text's non-empty lines.
 */
export function signLines(read: OcrResult, minConfidence = MIN_WORD_CONFIDENCE): SignLine[] {
  if (read.words.length === 0) {
    return read.text.split('\n').map((t) => t.trim()).filter((t) => letters(t) >= 3).map((text) => ({ text, bbox: null }));
  }
  const minLetters = minConfidence > 0 ? 2 : 1;
  const words = read.words.filter((w) => w.confidence >= minConfidence && letters(w.text) >= minLetters).sort((a, b) => a.bbox.x0 - b.bbox.x0 || a.bbox.y0 - b.bbox.y0);
  const lines: { words: OcrWord[]; bbox: { x0: number; y0: number; x1: number; y1: number } }[] = [];
  for (const w of words) {
    const h = w.bbox.y1 - w.bbox.y0;
    const yc = (w.bbox.y0 + w.bbox.y1) / 2;
    const line = lines.find((l) => {
      const last = l.words[l.words.length - 1].bbox;
      const lh = last.y1 - last.y0;
      const gap = w.bbox.x0 - last.x1;
      return Math.abs(yc - (last.y0 + last.y1) / 2) <= 0.5 * Math.max(h, lh) && gap >= -0.5 * h && gap <= 1.2 * Math.max(h, lh) && Math.max(h, lh) <= 1.6 * Math.max(1, Math.min(h, lh));
    });
    if (line) {
      line.words.push(w);
      line.bbox = { x0: Math.min(line.bbox.x0, w.bbox.x0), y0: Math.min(line.bbox.y0, w.bbox.y0), x1: Math.max(line.bbox.x1, w.bbox.x1), y1: Math.max(line.bbox.y1, w.bbox.y1) };
    } else lines.push({ words: [w], bbox: { ...w.bbox } });
  }
  return lines.map((l) => ({ text: l.words.map((w) => w.text).join(' '), bbox: l.bbox })).filter((l) => letters(l.text) >= 3);
}

/**
 * The relational answer from one view: among the sign lines other than the anchor's (not like its
 * text, not overlapping its box), the
 * `doors`-th nearest on `side` of the anchor in image x (+1 left, −1 right: as seen facing the
 * facade, which is how readable text is seen), else (across, or none on that side) the one nearest
 * the anchor; null when no other line was read.
 */
export function relationalGuess(lines: readonly SignLine[], anchor: SignLine, relation: { side: 1 | -1 | 0; doors: number }): string | null {
  const cx = (l: SignLine) => (l.bbox ? (l.bbox.x0 + l.bbox.x1) / 2 : 0);
  const cy = (l: SignLine) => (l.bbox ? (l.bbox.y0 + l.bbox.y1) / 2 : 0);
  const overlaps = (l: SignLine) => !!l.bbox && !!anchor.bbox && l.bbox.x0 < anchor.bbox.x1 && anchor.bbox.x0 < l.bbox.x1 && l.bbox.y0 < anchor.bbox.y1 && anchor.bbox.y0 < l.bbox.y1;
  const others = lines.filter((l) => l !== anchor && !overlaps(l) && tokenSetSimilarity(l.text, anchor.text) < 0.5);
  if (others.length === 0) return null;
  if (relation.side !== 0 && anchor.bbox) {
    const onSide = others.filter((l) => l.bbox && (cx(l) - cx(anchor)) * -relation.side > 0).sort((a, b) => Math.abs(cx(a) - cx(anchor)) - Math.abs(cx(b) - cx(anchor)));
    if (onSide.length > 0) return onSide[Math.min(relation.doors, onSide.length) - 1].text;
  }
  const near = [...others].sort((a, b) => Math.hypot(cx(a) - cx(anchor), cy(a) - cy(anchor)) - Math.hypot(cx(b) - cx(anchor), cy(b) - cy(anchor)));
  return near[0].text;
}

/** Width and height of a PNG from its IHDR chunk, or null when the bytes are not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } | null {
  if (png.length < 24 || png[0] !== 0x89 || png[1] !== 0x50 || png[2] !== 0x4e || png[3] !== 0x47) return null;
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

const FORWARD: ArenaAction = { kind: 'forward', seconds: FORWARD_SECONDS.LARGE };
const APPROACH: ArenaAction = { kind: 'forward', seconds: FORWARD_SECONDS.MEDIUM };
const QUARTER = TURN_DEGREES.LARGE;

/** The `ocr` agent (see the module comment). */
export class OcrAgent implements ArenaAgent {
  readonly name = 'ocr';
  readonly needsImages = true;
  private rng: Rng;
  private family = '';
  private instruction = '';
  private target: string | null = null;
  /** Actions decided earlier (the second turn at a dead end, the `S` after a look). */
  private plan: ArenaAction[] = [];
  private last: ArenaAction | null = null;
  private lookSide: 1 | -1 = 1;
  private sinceLook = 0;
  private approaches = 0;
  /** The last action walked towards the target's sign. */
  private approaching = false;
  /** The target was read across the street: take a crosswalk at the next junction with one. */
  private cross = false;
  private junctions = new Map<string, string[]>();
  /** Distinct sign lines read (normalised), for count. */
  private seen: string[] = [];
  private guess: string | null = null;

  /**
   * @param seed the episode's seed.
   * @param reader reads the first-person view (shared across episodes; one read at a time).
   */
  constructor(seed: number, private readonly reader: TextReader) {
    this.rng = createRng(seed);
  }

  /** Starts an episode from the brief alone: `privileged` is never read (a pixel-only baseline). */
  begin(brief: { taskId: string; family: string; instruction: string }, _privileged: PrivilegedView): void {
    this.family = brief.family;
    this.instruction = brief.instruction;
    this.target = targetOf(brief.family, brief.instruction);
    this.plan = [];
    this.last = null;
    this.lookSide = 1;
    this.sinceLook = 0;
    this.approaches = 0;
    this.approaching = false;
    this.cross = false;
    this.junctions.clear();
    this.seen = [];
    this.guess = null;
  }

  /** The answer it gives when it must answer now. */
  private fallback(): string {
    switch (this.family) {
      case 'localization': return LOCALIZATION_PRIOR;
      case 'count': return String(this.countAnswer());
      case 'relational': return this.guess ?? 'unknown';
      default: return 'here';
    }
  }

  private countAnswer(): number {
    if (countedKind(this.instruction) !== 'shops') return COUNT_PRIOR;
    return this.seen.length > 0 ? this.seen.length : COUNT_PRIOR;
  }

  private remember(lines: readonly SignLine[]): void {
    for (const l of lines) {
      const key = normaliseName(l.text);
      if (key !== '' && !this.seen.some((s) => tokenSetSimilarity(s, key) >= MATCH_THRESHOLD)) this.seen.push(key);
    }
  }

  /** A branch token at this junction (see the module comment). */
  private pickBranch(obs: ArenaObservation): ArenaAction | null {
    const tokens = obs.branches.flatMap((b) => (b.token ? [b.token] : []));
    if (tokens.length === 0) return null;
    if (this.family === 'count' && tokens.includes('UP')) return { kind: 'branch', token: 'UP' };
    const crosswalk = obs.branches.find((b) => b.token && b.kind === 'crosswalk')?.token;
    if (this.cross && crosswalk) {
      this.cross = false;
      return { kind: 'branch', token: crosswalk };
    }
    const key = obs.branches.map((b) => `${b.token ?? '-'}:${b.kind}:${Math.round(b.angleDeg / 15) * 15}`).join(',');
    const recent = this.junctions.get(key) ?? [];
    let options = tokens.filter((t) => !recent.includes(t));
    if (options.length === 0) options = tokens.length > 1 ? tokens.filter((t) => t !== recent[recent.length - 1]) : tokens;
    const token = this.rng.pick(options);
    this.junctions.set(key, [...recent, token].slice(-JUNCTION_MEMORY));
    return { kind: 'branch', token };
  }

  /** The exploring action (see the module comment) and why. */
  private explore(obs: ArenaObservation): [ArenaAction, string] {
    const next = this.plan.shift();
    if (next) return [next, 'as planned'];
    const notices = obs.notices.join(' ');
    if (/path ends here/.test(notices)) {
      this.plan.push({ kind: 'rotate', deg: QUARTER });
      return [{ kind: 'rotate', deg: QUARTER }, 'dead end: turn round'];
    }
    if (/no path in the direction/.test(notices)) return [{ kind: 'rotate', deg: QUARTER * this.lookSide }, 'no path ahead: turn'];
    if (obs.branches.length > 0 && this.last?.kind !== 'branch') {
      const b = this.pickBranch(obs);
      if (b) return [b, 'junction: pick a branch'];
    }
    this.sinceLook++;
    if (this.sinceLook >= 4 && obs.branches.length === 0 && obs.viewYawDeg === 0) {
      this.sinceLook = 0;
      const deg = QUARTER * this.lookSide;
      this.lookSide = this.lookSide === 1 ? -1 : 1;
      this.plan.push({ kind: 'reset-view' });
      return [{ kind: 'rotate', deg }, `look ${deg > 0 ? 'left' : 'right'} for signs`];
    }
    return [FORWARD, 'explore'];
  }

  /** The action for `obs`: `lines` are the confident sign lines read, `all` every line (where the target is looked for). */
  private decide(obs: ArenaObservation, lines: readonly SignLine[], all: readonly SignLine[], imageHeight: number): [ArenaAction, string] {
    const answer = (text: string, why: string): [ArenaAction, string] => [{ kind: 'answer', text }, why];
    if (obs.stepsLeft <= 1) return answer(this.fallback(), 'last step: answer');
    const target = this.target;
    const hit = target ? all.find((l) => textMatches(l.text, target)) : undefined;
    const wasApproaching = this.approaching;
    this.approaching = false;
    if (!hit && wasApproaching && target) {
      const words = new Set(normaliseName(target).split(' ').filter((t) => t.length >= 4));
      const part = all.find((l) => normaliseName(l.text).split(' ').some((t) => words.has(t)));
      if (part && this.approaches < MAX_APPROACH) {
        this.approaches++;
        this.approaching = true;
        return [APPROACH, `read part of the target, "${part.text}": approach`];
      }
      return answer('here', 'the target\'s sign left the view as I walked up to it: beside it');
    }
    if (hit && (this.family === 'landmark-language' || this.family === 'vln')) {
      const near = !hit.bbox || (hit.bbox.y1 - hit.bbox.y0) / imageHeight >= NEAR_TEXT_FRACTION;
      if (near) return answer('here', `read the target "${hit.text}" close by`);
      if (obs.viewYawDeg === 0 && this.approaches < MAX_APPROACH) {
        this.approaches++;
        this.approaching = true;
        this.plan = [];
        return [APPROACH, `read the target "${hit.text}" ahead, far: approach`];
      }
      if (obs.viewYawDeg === 0) return answer('here', `read the target "${hit.text}" ahead after ${MAX_APPROACH} approaches`);
      this.cross = true;
      const [a, why] = this.explore(obs);
      return [a, `read the target "${hit.text}" to the side, far: cross at the next crosswalk; ${why}`];
    }
    if (hit && this.family === 'relational') {
      const g = relationalGuess(lines, hit, relationOf(this.instruction));
      if (g) return answer(g, `read the anchor "${hit.text}" beside "${g}"`);
    }
    if (this.family === 'count' && obs.step >= COUNT_STEPS) return answer(String(this.countAnswer()), `count after ${COUNT_STEPS} steps`);
    if (this.family === 'localization' && obs.step >= LOCALIZATION_STEPS) return answer(LOCALIZATION_PRIOR, `after ${LOCALIZATION_STEPS} steps: the centre cell (prior)`);
    return this.explore(obs);
  }

  async act(obs: ArenaObservation, images: ObservationImages | null): Promise<AgentTurn> {
    const t0 = performance.now();
    // After `S` the view is the one read before the look: no need to read it again.
    const reread = images !== null && this.last?.kind !== 'reset-view';
    const read: OcrResult = reread ? await this.reader.read(images.view) : { text: '', words: [] };
    const lines = signLines(read);
    const all = signLines(read, 0);
    this.remember(lines);
    if (this.family === 'relational' && this.guess === null && this.target) {
      const anchor = all.find((l) => textMatches(l.text, this.target!));
      if (anchor) this.guess = relationalGuess(lines, anchor, relationOf(this.instruction));
    }
    const height = (images && pngSize(images.view)?.height) || 480;
    const [action, why] = this.decide(obs, lines, all, height);
    this.last = action;
    const raw = read.text.replace(/\s+/g, ' ').trim();
    const readText = !reread ? 'same view as before the look' : lines.length > 0 ? `signs: ${lines.map((l) => l.text).join(' | ')}` : raw !== '' ? `raw: ${raw}` : 'read nothing';
    return { action, thought: `${readText.slice(0, THOUGHT_CHARS)}; ${why}`, latencyMs: Math.round(performance.now() - t0) };
  }
}
