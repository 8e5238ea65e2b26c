/**
 * The arena page's pure parts: its keys give the agents' actions, its map shows what the Node
 * renderer's map shows (bounds, markers, grid; the agent's own marker only where the task grants
 * location), and a human's record is the record `npm run arena` writes for the same actions.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ArenaAction } from '../../arena/actions';
import type { ArenaAgent } from '../../arena/agent';
import { ArenaEpisode } from '../../arena/episode';
import { taskWorld, type TaskWorld } from '../../arena/generate/context';
import { runArenaEpisode } from '../../arena/run-episode';
import { parseTaskFile, type ArenaTaskFile, taskFileWorld } from '../../arena/task';
import { keyAction } from './arena-keys';
import { LOCATION_MAP_METRES } from '../../arena/map-images';
import { locationMapSpec, taskMapSpec } from './arena-map';
import { HUMAN_AGENT, humanRecord, recordLine } from './arena-record';
import { poseOf } from './arena-view';

const SUITE = resolve(import.meta.dirname, '../../../scenes/arena/cityarena.json');
const key = (code: string, shiftKey = false, ctrlKey = false) => keyAction({ code, shiftKey, ctrlKey, altKey: false, metaKey: false });

describe('arena keys', () => {
  it('map to the agents actions and sizes', () => {
    expect(key('KeyW')).toEqual({ kind: 'forward', seconds: 1 });
    expect(key('KeyW', true)).toEqual({ kind: 'forward', seconds: 5 });
    expect(key('KeyA')).toEqual({ kind: 'rotate', deg: 30 });
    expect(key('KeyD', true)).toEqual({ kind: 'rotate', deg: -90 });
    expect(key('KeyQ')).toEqual({ kind: 'tilt', deg: 30 });
    expect(key('KeyE')).toEqual({ kind: 'tilt', deg: -30 });
    expect(key('KeyS')).toEqual({ kind: 'reset-view' });
    expect(key('ArrowLeft')).toEqual({ kind: 'branch', token: 'LEFT' });
    expect(key('ArrowUp')).toEqual({ kind: 'branch', token: 'UP' });
    expect(key('ArrowRight')).toEqual({ kind: 'branch', token: 'RIGHT' });
    expect(key('KeyW', false, true), 'Ctrl+W is the browser’s').toBeNull();
    expect(key('KeyX')).toBeNull();
  });
});

describe('arena page', () => {
  let file: ArenaTaskFile;
  let tw: TaskWorld;
  beforeAll(() => {
    file = parseTaskFile('cityarena.json', readFileSync(SUITE, 'utf8'));
    tw = taskWorld(taskFileWorld(file.world));
  }, 60_000);
  const task = (family: string) => file.tasks.find((t) => t.family === family)!;

  it('shows the maps the Node renderer shows', () => {
    const self = { position: [10, 20] as [number, number], yaw: 1 };
    const grid = taskMapSpec(task('localization'))!;
    expect(grid.bounds).toEqual(task('localization').map!.bounds);
    expect(grid.grid).toBe(5);
    expect(grid.agents).toEqual([]);
    expect(locationMapSpec(task('localization'), self), 'no location map without location').toBeNull();
    const nav = taskMapSpec(task('map-navigation'))!;
    expect(nav.agents.map((a) => a.color)).toEqual([[30, 90, 230, 255], [220, 30, 30, 255]]);
    const here = locationMapSpec(task('map-navigation'), self)!;
    expect(here.agents).toEqual([{ position: [10, 20], yaw: 1, radius: 6, color: [255, 140, 0, 255] }]);
    const h = LOCATION_MAP_METRES / 2;
    expect(here.bounds).toEqual([10 - h, 20 - h, 10 + h, 20 + h]);
    expect(here.sizePx).toBe(640);
    expect(here.grid).toBe(0);
    expect(taskMapSpec(task('landmark-language'))).toBeNull();
  });

  it('aims the camera along yaw and pitch', () => {
    const p = poseOf({ eye: [1, 2, 1.6], yaw: Math.PI / 2, pitch: 0 });
    expect(p.target[0]).toBeCloseTo(1);
    expect(p.target[1]).toBeCloseTo(3);
    expect(p.target[2]).toBeCloseTo(1.6);
  });

  it('records a human run as npm run arena records the same actions', async () => {
    const t = task('localization');
    if (t.truth.scoring !== 'exact_match') throw new Error('localization is exact_match');
    const actions: ArenaAction[] = [{ kind: 'rotate', deg: -30 }, { kind: 'forward', seconds: 1 }, { kind: 'answer', text: `x:${t.truth.cell.x} y:${t.truth.cell.y}` }];
    const ep = new ArenaEpisode(tw.world, t, tw.names);
    for (const a of actions) ep.act(a, '');
    const mine = humanRecord(ep, 1234.4);
    expect(mine).toMatchObject({ task: t.id, agent: HUMAN_AGENT, status: 'answered', score: 1, steps: 3, latencyMs: 1234, tokens: 0, parseErrors: 0, run: 0, seed: 0 });
    let k = 0;
    const scripted: ArenaAgent = { name: HUMAN_AGENT, needsImages: false, begin: () => undefined, act: async () => ({ action: actions[k++], thought: '' }) };
    const cli = { ...(await runArenaEpisode(tw.world, t, scripted, tw.names, 0)), run: 0 };
    expect(JSON.parse(recordLine(mine))).toEqual({ ...JSON.parse(JSON.stringify(cli)), latencyMs: 1234 });
    expect(Object.keys(mine)).toEqual(Object.keys(cli));
    expect(() => humanRecord(new ArenaEpisode(tw.world, t, tw.names), 0)).toThrow(/has not ended/);
  });
});
