/**
 * Record and replay: an expert episode's action log, saved through the episode file and the URL
 * hash, replays to the same final state (robot pose, pedestrians, time, outcome), bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { loadSuite, freeRoamScenario, withAmbientWalkers } from './scenarios';
import { LiveEpisode } from './live-episode';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { episodeActions, episodeFromHash, episodeToHash, makeEpisodeFile, parseEpisodeFile } from './episode-file';
import { ReplayPolicy } from './policies';

async function runToEnd(ep: LiveEpisode, maxSteps: number): Promise<void> {
  await ep.start();
  for (let i = 0; i < maxSteps && (await ep.advance()); i++);
}

describe('live episode record and replay', () => {
  it('replays a reactive expert episode with ambient walkers to the same final state', async () => {
    const scenario = withAmbientWalkers((await loadSuite('smoke')).find((s) => s.category === 'frontal' || s.pedestrians.length > 0)!, 5);
    const rec = new LiveEpisode(scenario, scenario.seed, new ExpertPolicy(DELIVERY_ROBOT));
    await runToEnd(rec, 120);
    expect(rec.actions.length).toBeGreaterThan(10);
    expect(rec.metrics.minPedestrianDistance).not.toBeNull();
    const file = makeEpisodeFile(scenario, scenario.seed, 'expert', rec.policy.rateHz, rec.actions);
    for (const decoded of [parseEpisodeFile('rec.json', JSON.stringify(file)), episodeFromHash(`#${episodeToHash(file)}`)!]) {
      const replay = new LiveEpisode(decoded.scenario, decoded.seed, new ReplayPolicy(episodeActions(decoded), decoded.rateHz));
      await runToEnd(replay, decoded.actions.length);
      expect(replay.finalState()).toEqual(rec.finalState());
    }
  }, 60_000);

  it('free roam has walkers on the default city and rejects a malformed episode file', () => {
    const s = freeRoamScenario(12);
    expect(s.pedestrians.length).toBe(12);
    expect(s.robot.route.length).toBeGreaterThan(2);
    expect(() => parseEpisodeFile('bad.json', '{"format":"curbside-episode","version":1}')).toThrow(/bad\.json: scenario/);
    expect(() => parseEpisodeFile('bad.json', '{oops')).toThrow(/not valid JSON/);
  });
});
