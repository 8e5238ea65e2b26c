/**
 * Record and replay: an expert episode's action log, saved through the episode file and the URL
 * hash, replays to the same final state (robot pose, pedestrians, time, outcome), bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { loadSuite, freeRoamScenario, WALKER_START_CLEARANCE, withAmbientWalkers } from './scenarios';
import { LiveEpisode } from './live-episode';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { episodeActions, episodeFromHash, episodeToHash, makeEpisodeFile, parseEpisodeFile } from './episode-file';
import { ReplayPolicy } from './policies';
import { CROWD_DT, runEpisode } from '../bench/episode';
import { pedestrianObstacles, scenarioWorld } from '../bench/scenario-world';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';

async function runToEnd(ep: LiveEpisode, maxSteps: number): Promise<void> {
  await ep.start();
  for (let i = 0; i < maxSteps && (await ep.advance()); i++);
}

describe('ambient walkers', () => {
  it('never spawn on the robot: every walker starts at least 2 m from the robot start (a collision at t = 0 before)', async () => {
    for (const s of [...(await loadSuite('closure')), ...(await loadSuite('smoke')).filter((x) => x.world.kind === 'procedural')]) {
      const w = withAmbientWalkers(s, 10);
      const added = w.pedestrians.slice(s.pedestrians.length);
      expect(added).toHaveLength(10);
      for (const p of added) expect(Math.hypot(p.spawn[0] - s.robot.start[0], p.spawn[1] - s.robot.start[1]), `${s.id}`).toBeGreaterThanOrEqual(WALKER_START_CLEARANCE);
    }
    const start = freeRoamScenario(0).robot.start;
    for (const p of freeRoamScenario(20).pedestrians) expect(Math.hypot(p.spawn[0] - start[0], p.spawn[1] - start[1])).toBeGreaterThanOrEqual(WALKER_START_CLEARANCE);
  }, 60_000);
});

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

  it('gives the benchmark runner\'s episode record for the same scenario, seed and actions', async () => {
    // The demo's stepper is the runner's EpisodeRun: same sub-steps, crowd steps, checks and record.
    const suite = await loadSuite('smoke');
    for (const scenario of [suite.find((s) => s.pedestrians.length > 0)!, suite.find((s) => s.success.kind === 'stop-before') ?? suite[0]]) {
      const world = scenarioWorld(scenario);
      const pedestrians = new ScenarioPedestrians(scenario.pedestrians, pedestrianObstacles(scenario, world), scenario.seed);
      const runner = await runEpisode(scenario, 0, scenario.seed, { world, pedestrians, policy: new ExpertPolicy(DELIVERY_ROBOT), robot: DELIVERY_ROBOT, crowdDt: CROWD_DT });
      const live = new LiveEpisode(scenario, scenario.seed, new ExpertPolicy(DELIVERY_ROBOT));
      await runToEnd(live, 100_000);
      expect(live.record(), scenario.id).toEqual(runner);
      expect(live.metrics.end).toBe(runner.end);
      // Replaying the live action log through the demo path gives the same record again.
      const replay = new LiveEpisode(scenario, scenario.seed, new ReplayPolicy(live.actions, live.policy.rateHz));
      await runToEnd(replay, live.actions.length);
      expect({ ...replay.record(), policy: runner.policy }).toEqual(runner);
    }
  }, 120_000);

  it('free roam has walkers on the default city and rejects a malformed episode file', () => {
    const s = freeRoamScenario(12);
    expect(s.pedestrians.length).toBe(12);
    expect(s.robot.route.length).toBeGreaterThan(2);
    expect(() => parseEpisodeFile('bad.json', '{"format":"curbside-episode","version":1}')).toThrow(/bad\.json: scenario/);
    expect(() => parseEpisodeFile('bad.json', '{oops')).toThrow(/not valid JSON/);
  });

  it('names a legged embodiment in the episode file and keeps wheeled files as they were', () => {
    const s = freeRoamScenario(2);
    const actions = [{ v: 0.5, w: 0.1 }];
    const wheeled = makeEpisodeFile(s, 3, 'teleop', 10, actions);
    expect('robot' in wheeled).toBe(false);
    const dog = makeEpisodeFile(s, 3, 'teleop', 10, actions, 'dog');
    expect(dog.robot).toBe('dog');
    expect(parseEpisodeFile('dog.json', JSON.stringify(dog)).robot).toBe('dog');
    expect(episodeFromHash(episodeToHash(dog))?.robot).toBe('dog');
    expect(() => parseEpisodeFile('tank.json', JSON.stringify({ ...dog, robot: 'tank' }))).toThrow(/^tank\.json: robot: /);
  });
});
