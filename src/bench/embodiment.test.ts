/**
 * The embodiments in the benchmark's episode loop: each drives a whole episode under its own limits
 * and footprint, its records name it (the wheeled robot's records keep their old form, without a
 * `robot` field), and the wheeled robot's camera mount is the default policy mount.
 */
import { describe, expect, it } from 'vitest';
import type { Vec2 } from '../core/geometry2d';
import { runEpisode } from './episode';
import { recordRobot } from './episode-record';
import { ScenarioSchema, type Scenario } from '../sim/scenario';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { DELIVERY_ROBOT, type RobotSpec } from '../robot/robot-spec';
import { HUMANOID, ROBOT_DOG, embodiedMount } from '../robot/embodiments';
import { DEFAULT_CAMERA_MOUNT } from '../policy/manifest';
import { ExpertPolicy } from '../policy/expert-policy';
import type { EpisodePolicy, Observation } from '../sim/episode-contracts';

/** A straight sidewalk along +x from −2 to 40 m, 3 m wide, centred on y = 0. */
function sidewalk(obstacles: Vec2[][] = []) {
  const corners: Vec2[] = [[-2, -1.5], [40, -1.5], [40, 1.5], [-2, 1.5]];
  const walkableEdges = corners.map((a, i) => [a, corners[(i + 1) % 4]] as [Vec2, Vec2]);
  return { isWalkable: (x: number, y: number) => x >= -2 && x <= 40 && Math.abs(y) <= 1.5, obstacles, walkableEdges };
}

const scenario: Scenario = ScenarioSchema.parse({
  id: 'test/straight', suite: 'unit', category: 'straight', world: { kind: 'procedural', seed: 0 },
  robot: { start: [0, 0, 0], goal: [15, 0], route: [[0, 0], [15, 0]] }, timeLimit: 40, pedestrians: [], success: { kind: 'reach-goal' }, seed: 3,
});

/** Records the speeds it sees while asking for far more than any robot can do. */
class Flooring implements EpisodePolicy {
  readonly name = 'floor-it';
  readonly rateHz = 10;
  readonly seen: { v: number; w: number }[] = [];
  async reset(): Promise<void> {}
  async act(obs: Observation) {
    this.seen.push({ v: obs.state.v, w: obs.state.w });
    return { v: 10, w: obs.time < 2 ? 0 : 5 };
  }
}

const run = (robot: RobotSpec, policy: EpisodePolicy = new ExpertPolicy(robot), obstacles: Vec2[][] = []) =>
  runEpisode(scenario, 0, 11, { world: sidewalk(obstacles), pedestrians: new ScenarioPedestrians([], [], 11), policy, robot, crowdDt: 0.1 });

describe('embodiments in the episode loop', () => {
  it("the wheeled robot's camera mount is the default policy mount (byte-for-byte)", () => {
    expect(DELIVERY_ROBOT.cameraHeight).toBe(DEFAULT_CAMERA_MOUNT.height);
    expect(DELIVERY_ROBOT.cameraPitchDeg).toBe(DEFAULT_CAMERA_MOUNT.pitchDeg);
    expect(embodiedMount(DELIVERY_ROBOT, DEFAULT_CAMERA_MOUNT)).toBe(DEFAULT_CAMERA_MOUNT);
  });

  it('the expert reaches the goal with every embodiment; records name the legged ones and not the wheeled one', async () => {
    const wheeled = await run(DELIVERY_ROBOT);
    const dog = await run(ROBOT_DOG);
    const humanoid = await run(HUMANOID);
    for (const r of [wheeled, dog, humanoid]) expect([r.success, r.end, r.failures]).toEqual([true, 'goal', []]);
    expect('robot' in wheeled).toBe(false);
    expect(Object.keys(wheeled).slice(0, 5)).toEqual(['scenarioId', 'suite', 'category', 'policy', 'run']);
    expect([recordRobot(wheeled), dog.robot, humanoid.robot]).toEqual(['wheeled', 'dog', 'humanoid']);
    // The humanoid is slower: it needs longer for the same 15 m.
    expect(humanoid.duration).toBeGreaterThan(wheeled.duration);
    expect(humanoid.averageVelocity).toBeLessThanOrEqual(HUMANOID.maxLinearSpeed + 1e-9);
    // Records are deterministic per embodiment.
    expect(JSON.stringify(await run(ROBOT_DOG))).toBe(JSON.stringify(dog));
  });

  it('the speed and turn-rate limits of each embodiment hold through an episode', async () => {
    for (const robot of [DELIVERY_ROBOT, ROBOT_DOG, HUMANOID]) {
      const p = new Flooring();
      await run(robot, p);
      const top = Math.max(...p.seen.map((s) => s.v));
      const turn = Math.max(...p.seen.map((s) => Math.abs(s.w)));
      expect(top, robot.name).toBeCloseTo(robot.maxLinearSpeed, 9);
      expect(turn, robot.name).toBeLessThanOrEqual(robot.maxAngularSpeed + 1e-12);
    }
  });

  it('collisions use the embodiment footprint: a post 0.2 m off the centre line stops the wheeled robot, not the narrow dog', async () => {
    const post: Vec2[] = [[7.9, 0.2], [8.1, 0.2], [8.1, 0.4], [7.9, 0.4]];
    const straight: EpisodePolicy = { name: 'straight', rateHz: 10, reset: async () => {}, act: async () => ({ v: 1, w: 0 }) };
    const wheeled = await run(DELIVERY_ROBOT, straight, [post]);
    const dog = await run(ROBOT_DOG, straight, [post]);
    expect(wheeled.failures.map((f) => f.kind)).toEqual(['collision-obstacle']);
    expect(dog.failures).toEqual([]);
    expect(dog.end).toBe('goal');
  });
});
