/**
 * The `ocr` agent with a fake reader (no tesseract): the target each family's instruction names,
 * text matching and sign lines, answering `here` when it reads its target close by (approaching it
 * while far), the relational guess beside the anchor, seeded branch choices, never reading the
 * privileged view, and whole episodes on the checked-in suite that answer before the step limit.
 * Then the real tesseract.js reader (offline) on rendered text.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import * as PImage from 'pureimage';
import { beforeAll, describe, expect, it } from 'vitest';
import type { World } from '../../world/world';
import type { ObservationImages, PrivilegedView } from '../agent';
import type { ArenaObservation } from '../episode';
import { taskWorld } from '../generate/context';
import { runArenaEpisode } from '../run-episode';
import { parseTaskFile, type ArenaTask, taskFileWorld } from '../task';
import {
  COUNT_PRIOR, COUNT_STEPS, countedKind, LOCALIZATION_PRIOR, LOCALIZATION_STEPS, OcrAgent, type OcrResult, type OcrWord, pngSize, relationalGuess, relationOf,
  signLines, targetOf, textMatches, type TextReader,
} from './ocr';
import { greyPng, SignReader } from './sign-reader';

const SUITE = resolve(import.meta.dirname, '../../../scenes/arena/cityarena.json');

/** The 24 bytes of a PNG signature and IHDR: enough for the agent to learn the image size. */
function pngHeader(width: number, height: number): Uint8Array {
  const b = new Uint8Array(24);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const v = new DataView(b.buffer);
  v.setUint32(16, width);
  v.setUint32(20, height);
  return b;
}
const VIEW = pngHeader(640, 480);
const IMAGES: ObservationImages = { view: VIEW, map: null, reference: null };

/** A word of `height` pixels at x, y (top left), confident. */
function word(text: string, x: number, y: number, height: number, confidence = 90): OcrWord {
  return { text, confidence, bbox: { x0: x, y0: y, x1: x + text.length * height * 0.7, y1: y + height } };
}
/** Words of a sign line starting at x. */
function sign(text: string, x: number, y: number, height: number): OcrWord[] {
  const out: OcrWord[] = [];
  for (const t of text.split(' ')) {
    const w = word(t, x, y, height);
    out.push(w);
    x = w.bbox.x1 + height * 0.5;
  }
  return out;
}

/** A reader that returns `reads` in turn (then nothing), counting its calls. */
class FakeReader implements TextReader {
  calls = 0;
  constructor(private readonly reads: OcrResult[] = []) {}
  async read(): Promise<OcrResult> {
    return this.reads[this.calls++] ?? { text: '', words: [] };
  }
}
const words = (ws: OcrWord[]): OcrResult => ({ text: ws.map((w) => w.text).join(' '), words: ws });

/** A privileged view that throws on any access: the agent must not read it. */
const FORBIDDEN = new Proxy({}, { get: (_t, p) => { throw new Error(`ocr agent read privileged.${String(p)}`); } }) as PrivilegedView;

function obs(instruction: string, o: Partial<ArenaObservation> = {}): ArenaObservation {
  return { taskId: 't', instruction, step: 0, stepsLeft: 50, notices: [], branches: [], viewYawDeg: 0, pitchDeg: 0, ...o };
}

const SEARCH = 'Your task is to go to Rossi Bakery, the bakery at 12 Oak Street. When you get in front of Rossi Bakery, use the ANSWER action to confirm completion.\n\nThe goal is not far from the starting point.';
const VLN = 'Your task is to follow the directions to reach your destination. Please follow the instructions below:\n\n1. Go straight.\n2. Turn right.\n3. Stop in front of Urban Bakery Laurel on your right.\n\nOnce you have reached your destination, output the ANSWER action.';
const RELATIONAL = 'Find a nearby Dubois Barber and tell me the name of the store two doors to the left of it. Dubois Barber is right nearby.';

describe('reading the instruction', () => {
  it('finds the target name of each family that names one', () => {
    expect(targetOf('landmark-language', SEARCH)).toBe('Rossi Bakery');
    expect(targetOf('vln', VLN)).toBe('Urban Bakery Laurel');
    expect(targetOf('relational', RELATIONAL)).toBe('Dubois Barber');
    for (const f of ['localization', 'count', 'map-navigation', 'landmark-image']) expect(targetOf(f, SEARCH)).toBeNull();
    expect(countedKind('Your task is to count the number of shops along Aspen Lane between A and B.')).toBe('shops');
    expect(relationOf(RELATIONAL)).toEqual({ side: 1, doors: 2 });
    expect(relationOf('Find a nearby X and tell me the name of the store to the right of it. X is right nearby.')).toEqual({ side: -1, doors: 1 });
    expect(relationOf('Find a nearby X and tell me the name of the store across the street from it. X is right nearby.')).toEqual({ side: 0, doors: 1 });
  });

  it('finds a target in every checked-in task of the families that name one', () => {
    const file = parseTaskFile(SUITE, readFileSync(SUITE, 'utf8'));
    for (const t of file.tasks) {
      const target = targetOf(t.family, t.instruction);
      if (['landmark-language', 'vln', 'relational'].includes(t.family)) {
        expect(target, t.id).not.toBeNull();
        expect(t.instruction, t.id).toContain(target!);
      } else expect(target, t.id).toBeNull();
    }
  });

  it('matches read text against the target, tolerating a typo', () => {
    expect(textMatches('ROSSI BAKERY', 'Rossi Bakery')).toBe(true);
    expect(textMatches('OPEN ROSSI BAKERY 12', 'Rossi Bakery')).toBe(true);
    expect(textMatches('Urban Bakery Laurei', 'Urban Bakery Laurel')).toBe(true);
    expect(textMatches('HU HES OPTICIAN', 'Hughes Optician')).toBe(true);
    expect(textMatches('ROSSI', 'Rossi Bakery')).toBe(false);
    expect(textMatches('ROSSI BOOKS', 'Rossi Bakery')).toBe(false);
    expect(textMatches('LOPEZ LAUNDRY', 'Urban Laundry')).toBe(false);
    expect(textMatches('GARCIA BARBER', 'Garcia Bakery')).toBe(false);
    expect(textMatches('HU 4ES OPTICIAN', 'Xu Optician')).toBe(false);
    expect(textMatches('GARCIA BAKERY', 'Garcia Bakery Railway')).toBe(false);
    expect(textMatches('GARCIA BAKERY RAILWAY', 'Garcia Bakery Railway')).toBe(true);
    expect(textMatches('HUGHESOPTICIAN', 'Hughes Optician')).toBe(true);
    expect(textMatches('Patel Cafe', 'Rossi Bakery')).toBe(false);
    expect(textMatches('', 'Rossi Bakery')).toBe(false);
  });

  it('joins confident words on one line into sign lines and drops noise', () => {
    const lines = signLines(words([...sign('ROSSI BAKERY', 100, 50, 20), ...sign('PATEL CAFE', 400, 52, 20), word('|i', 300, 50, 20), word('OAK', 100, 300, 20, 30)]));
    expect(lines.map((l) => l.text)).toEqual(['ROSSI BAKERY', 'PATEL CAFE']);
    expect(signLines({ text: 'Rossi Bakery\n\n|\nPatel Cafe\n', words: [] }).map((l) => l.text)).toEqual(['Rossi Bakery', 'Patel Cafe']);
    expect(pngSize(VIEW)).toEqual({ width: 640, height: 480 });
    expect(pngSize(new Uint8Array(10))).toBeNull();
  });

  it('guesses the relational answer from the sign beside the anchor', () => {
    const lines = signLines(words([...sign('ALPHA BOOKS', 10, 50, 16), ...sign('BETA CAFE', 200, 50, 16), ...sign('DUBOIS BARBER', 380, 50, 16), ...sign('GAMMA FLORIST', 560, 50, 16)]));
    expect(lines).toHaveLength(4);
    const anchor = lines.find((l) => textMatches(l.text, 'Dubois Barber'))!;
    expect(relationalGuess(lines, anchor, { side: 1, doors: 1 })).toBe('BETA CAFE');
    expect(relationalGuess(lines, anchor, { side: 1, doors: 2 })).toBe('ALPHA BOOKS');
    expect(relationalGuess(lines, anchor, { side: -1, doors: 1 })).toBe('GAMMA FLORIST');
    expect(relationalGuess([anchor], anchor, { side: 1, doors: 1 })).toBeNull();
  });
});

describe('OcrAgent with a fake reader', () => {
  it('answers here when it reads the target close by, and never reads the privileged view', async () => {
    const reader = new FakeReader([words(sign('ROSSI BAKERY', 200, 100, 40))]);
    const agent = new OcrAgent(1, reader);
    agent.begin({ taskId: 't', family: 'landmark-language', instruction: SEARCH }, FORBIDDEN);
    const turn = await agent.act(obs(SEARCH), IMAGES);
    expect(turn.action).toEqual({ kind: 'answer', text: 'here' });
    expect(turn.thought).toContain('signs: ROSSI BAKERY');
    expect(reader.calls).toBe(1);
  });

  it('finds its target among unsure words too', async () => {
    const unsure = words(sign('HUGHE i OFTICIAN', 200, 100, 30).map((w) => ({ ...w, confidence: 40 })));
    expect(signLines(unsure)).toEqual([]);
    expect(signLines(unsure, 0).map((l) => l.text)).toEqual(['HUGHE i OFTICIAN']);
    const agent = new OcrAgent(1, new FakeReader([unsure]));
    const instruction = SEARCH.replaceAll('Rossi Bakery', 'Hughes Optician');
    agent.begin({ taskId: 't', family: 'landmark-language', instruction }, FORBIDDEN);
    const turn = await agent.act(obs(instruction), IMAGES);
    expect(turn.action).toEqual({ kind: 'answer', text: 'here' });
    expect(turn.thought).toContain('raw: HUGHE i OFTICIAN');
  });

  it('walks towards the target while its sign is small, then answers', async () => {
    const far = words(sign('URBAN BAKERY LAUREL', 300, 100, 10));
    const reader = new FakeReader([far, far, words(sign('URBAN BAKERY LAUREL', 250, 90, 30))]);
    const agent = new OcrAgent(1, reader);
    agent.begin({ taskId: 't', family: 'vln', instruction: VLN }, FORBIDDEN);
    expect((await agent.act(obs(VLN), IMAGES)).action).toEqual({ kind: 'forward', seconds: 3 });
    expect((await agent.act(obs(VLN, { step: 1 }), IMAGES)).action).toEqual({ kind: 'forward', seconds: 3 });
    expect((await agent.act(obs(VLN, { step: 2 }), IMAGES)).action).toEqual({ kind: 'answer', text: 'here' });
  });

  it('answers when the sign it walks towards leaves the view', async () => {
    const agent = new OcrAgent(1, new FakeReader([words(sign('ROSSI BAKERY', 500, 100, 12)), words(sign('SSI BAKERY', 0, 100, 16))]));
    agent.begin({ taskId: 't', family: 'landmark-language', instruction: SEARCH }, FORBIDDEN);
    expect((await agent.act(obs(SEARCH), IMAGES)).action).toEqual({ kind: 'forward', seconds: 3 });
    // Cut at the image's edge: a word of it is still read, so on towards it.
    const part = await agent.act(obs(SEARCH, { step: 1 }), IMAGES);
    expect(part.action).toEqual({ kind: 'forward', seconds: 3 });
    expect(part.thought).toContain('read part of the target');
    const turn = await agent.act(obs(SEARCH, { step: 2 }), IMAGES);
    expect(turn.action).toEqual({ kind: 'answer', text: 'here' });
    expect(turn.thought).toContain('left the view');
  });

  it('answers the sign beside the anchor in relational tasks', async () => {
    const reader = new FakeReader([words([...sign('ALPHA BOOKS', 10, 50, 20), ...sign('BETA CAFE', 200, 50, 20), ...sign('DUBOIS BARBER', 380, 50, 20)])]);
    const agent = new OcrAgent(1, reader);
    agent.begin({ taskId: 't', family: 'relational', instruction: RELATIONAL }, FORBIDDEN);
    expect((await agent.act(obs(RELATIONAL), IMAGES)).action).toEqual({ kind: 'answer', text: 'ALPHA BOOKS' });
  });

  it('explores: forward, a look to the side and back every fourth step, turns at dead ends', async () => {
    const agent = new OcrAgent(1, new FakeReader());
    agent.begin({ taskId: 't', family: 'landmark-language', instruction: SEARCH }, FORBIDDEN);
    const kinds: string[] = [];
    for (let s = 0; s < 6; s++) kinds.push(JSON.stringify((await agent.act(obs(SEARCH, { step: s, stepsLeft: 50 - s }), IMAGES)).action));
    expect(kinds).toEqual([
      '{"kind":"forward","seconds":5}', '{"kind":"forward","seconds":5}', '{"kind":"forward","seconds":5}',
      '{"kind":"rotate","deg":90}', '{"kind":"reset-view"}', '{"kind":"forward","seconds":5}',
    ]);
    const deadEnd = obs(SEARCH, { step: 6, stepsLeft: 44, notices: ['The path ends here; turn round to go back.'] });
    expect((await agent.act(deadEnd, IMAGES)).action).toEqual({ kind: 'rotate', deg: 90 });
    expect((await agent.act(obs(SEARCH, { step: 7, stepsLeft: 43 }), IMAGES)).action).toEqual({ kind: 'rotate', deg: 90 });
    // Turned round (camera backwards): it walks, and does not look to the side first.
    for (let s = 8; s < 12; s++) expect((await agent.act(obs(SEARCH, { step: s, stepsLeft: 50 - s, viewYawDeg: 180 }), IMAGES)).action).toEqual({ kind: 'forward', seconds: 5 });
    expect((await agent.act(obs(SEARCH, { step: 12, stepsLeft: 38, notices: ['There is no path in the direction you are facing.'] }), IMAGES)).action.kind).toBe('rotate');
  });

  it('takes a crosswalk at the next junction after reading its target far off to the side', async () => {
    const reader = new FakeReader([words(sign('ROSSI BAKERY', 200, 100, 12))]);
    const agent = new OcrAgent(3, reader);
    agent.begin({ taskId: 't', family: 'landmark-language', instruction: SEARCH }, FORBIDDEN);
    const side = await agent.act(obs(SEARCH, { viewYawDeg: 90 }), IMAGES);
    expect(side.action.kind).not.toBe('answer');
    expect(side.thought).toContain('cross at the next crosswalk');
    const junction = obs(SEARCH, { step: 2, notices: ['You reached a junction.'], branches: [{ token: 'LEFT', kind: 'sidewalk', angleDeg: 90 }, { token: 'UP', kind: 'sidewalk', angleDeg: 0 }, { token: 'RIGHT', kind: 'crosswalk', angleDeg: -90 }] });
    expect((await agent.act(junction, IMAGES)).action).toEqual({ kind: 'branch', token: 'RIGHT' });
  });

  it('picks branches with its seed, the same for the same seed, preferring ones not taken at a junction like this', async () => {
    const junction = obs(SEARCH, { notices: ['You reached a junction.'], branches: [{ token: 'LEFT', kind: 'crosswalk', angleDeg: 90 }, { token: 'UP', kind: 'sidewalk', angleDeg: 2 }, { token: 'RIGHT', kind: 'sidewalk', angleDeg: -88 }] });
    const picks = async (seed: number) => {
      const agent = new OcrAgent(seed, new FakeReader());
      agent.begin({ taskId: 't', family: 'landmark-language', instruction: SEARCH }, FORBIDDEN);
      const out: string[] = [];
      for (let k = 0; k < 12; k++) {
        const a = (await agent.act(junction, IMAGES)).action;
        expect(a.kind).toBe('branch');
        if (a.kind === 'branch') out.push(a.token);
        // Leaving the junction: right after a branch it walks on.
        expect((await agent.act(junction, IMAGES)).action).toEqual({ kind: 'forward', seconds: 5 });
      }
      return out;
    };
    const a = await picks(7);
    expect(await picks(7)).toEqual(a);
    const others = await Promise.all([1, 2, 3, 4, 5].map(picks));
    expect(others.some((o) => o.join() !== a.join())).toBe(true);
    // With the last two choices remembered, the same junction never gets the same token twice in a row.
    for (const p of [a, ...others]) for (let k = 1; k < p.length; k++) expect(p[k]).not.toBe(p[k - 1]);
  });

  it('answers on its last step whatever it read', async () => {
    for (const [family, instruction, answer] of [
      ['landmark-language', SEARCH, 'here'], ['relational', RELATIONAL, 'unknown'], ['map-navigation', 'Navigate.', 'here'], ['landmark-image', 'Go.', 'here'],
      ['localization', 'Where?', LOCALIZATION_PRIOR], ['count', 'Your task is to count the number of trees along A between B and C.', String(COUNT_PRIOR)],
    ] as const) {
      const agent = new OcrAgent(1, new FakeReader());
      agent.begin({ taskId: 't', family, instruction }, FORBIDDEN);
      expect((await agent.act(obs(instruction, { step: 49, stepsLeft: 1 }), IMAGES)).action, family).toEqual({ kind: 'answer', text: answer });
    }
  });

  it('counts distinct shop signs read, and gives its priors elsewhere', async () => {
    const shops = 'Your task is to count the number of shops along Aspen Lane between Forge Boulevard and Walnut Boulevard, on both sides of the street.';
    const reads = [words(sign('ROSSI BAKERY', 10, 10, 20)), words([...sign('ROSSI BAKERY', 10, 10, 20), ...sign('PATEL CAFE', 300, 10, 20)]), words(sign('ROSSA BAKERY', 10, 10, 20)), words(sign('HUGHES OPTICIAN', 10, 10, 20))];
    const agent = new OcrAgent(1, new FakeReader(reads));
    agent.begin({ taskId: 't', family: 'count', instruction: shops }, FORBIDDEN);
    let turn = await agent.act(obs(shops), IMAGES);
    for (let s = 1; turn.action.kind !== 'answer'; s++) turn = await agent.act(obs(shops, { step: s, stepsLeft: 50 - s }), IMAGES);
    expect(turn.action).toEqual({ kind: 'answer', text: '3' });
    const loc = new OcrAgent(1, new FakeReader());
    loc.begin({ taskId: 't', family: 'localization', instruction: 'Where?' }, FORBIDDEN);
    let steps = 0;
    for (let t = await loc.act(obs('Where?'), IMAGES); t.action.kind !== 'answer'; t = await loc.act(obs('Where?', { step: steps, stepsLeft: 50 - steps }), IMAGES)) steps++;
    expect(steps).toBe(LOCALIZATION_STEPS);
    expect(COUNT_STEPS).toBeLessThan(50);
  });
});

describe('OcrAgent in episodes', () => {
  let world: World;
  let tasks: ArenaTask[];
  let names: string[];
  beforeAll(() => {
    const file = parseTaskFile(SUITE, readFileSync(SUITE, 'utf8'));
    world = taskFileWorld(file.world);
    tasks = [...new Set(file.tasks.map((t) => t.family))].map((f) => file.tasks.find((t) => t.family === f)!);
    names = taskWorld(world).names;
  }, 120_000);

  it('answers before the step limit in every family, the same walk for the same seed', async () => {
    const render = async (): Promise<ObservationImages> => IMAGES;
    for (const task of tasks) {
      const rec = await runArenaEpisode(world, task, new OcrAgent(11, new FakeReader()), names, 11, render);
      expect(rec.status, task.id).toBe('answered');
      expect(rec.steps, task.id).toBeLessThanOrEqual(task.stepLimit);
      expect(rec.agent).toBe('ocr');
      expect(rec.actions.every((a) => a.valid), task.id).toBe(true);
      const again = await runArenaEpisode(world, task, new OcrAgent(11, new FakeReader()), names, 11, render);
      expect(again.actions.map((a) => [a.action, a.position]), task.id).toEqual(rec.actions.map((a) => [a.action, a.position]));
    }
  }, 60_000);
});

/** Black `text` on white, 40 px DejaVu Sans, as PNG bytes (pureimage, in Node). */
function textPng(text: string): Uint8Array {
  const dir = join(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json'), '..', 'ttf');
  PImage.registerFont(join(dir, 'DejaVuSans.ttf'), 'OcrTestSans').loadSync();
  const img = PImage.make(480, 120);
  const ctx = img.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 480, 120);
  ctx.fillStyle = '#000000';
  ctx.font = "40px 'OcrTestSans'";
  ctx.fillText(text, 30, 75);
  const png = new PNG({ width: img.width, height: img.height });
  png.data.set(img.data);
  return new Uint8Array(PNG.sync.write(png));
}

describe('SignReader (tesseract.js, offline)', () => {
  it('reads rendered text with the bundled English model', async () => {
    const reader = await SignReader.create();
    try {
      const read = await reader.read(textPng('Rossi Bakery'));
      expect(read.text).toContain('Rossi');
      expect(read.text).toContain('Bakery');
      expect(read.words.map((w) => w.text)).toEqual(['Rossi', 'Bakery']);
      for (const w of read.words) {
        expect(w.confidence).toBeGreaterThan(60);
        // Boxes in the given image's pixels (the reader enlarges it 2×): 40 px glyphs, inside 480 × 120.
        expect(w.bbox.y1 - w.bbox.y0).toBeGreaterThan(20);
        expect(w.bbox.y1 - w.bbox.y0).toBeLessThan(60);
        expect(w.bbox.x1).toBeLessThanOrEqual(480);
        expect(w.bbox.y1).toBeLessThanOrEqual(120);
      }
    } finally {
      await reader.terminate();
    }
  }, 60_000);
});

describe('greyPng', () => {
  const rgba = (w: number, h: number, px: number[][]) => {
    const png = new PNG({ width: w, height: h });
    px.forEach((p, i) => png.data.set([...p, 255], 4 * i));
    return new Uint8Array(PNG.sync.write(png));
  };
  it('is Rec. 601 luma at 1×', () => {
    const out = PNG.sync.read(greyPng(rgba(2, 1, [[255, 0, 0], [0, 0, 255]])));
    expect([out.width, out.height]).toEqual([2, 1]);
    expect([...out.data]).toEqual([76, 76, 76, 255, 29, 29, 29, 255]);
  });
  it('enlarges bilinearly with pixel centres aligned, edges clamped', () => {
    // Luma 0 and 200 side by side → at 2×: 0, 50, 150, 200 along a row (centres at -0.25, 0.25, 0.75, 1.25).
    const out = PNG.sync.read(greyPng(rgba(2, 2, [[0, 0, 0], [200, 200, 200], [0, 0, 0], [200, 200, 200]]), 2));
    expect([out.width, out.height]).toEqual([4, 4]);
    for (let y = 0; y < 4; y++) expect([0, 1, 2, 3].map((x) => out.data[4 * (4 * y + x)])).toEqual([0, 50, 150, 200]);
  });
  it('refuses a scale outside 1..4', () => {
    expect(() => greyPng(rgba(1, 1, [[0, 0, 0]]), 5)).toThrow(/scale must be an integer in 1\.\.4, got 5/);
  });
});
