/**
 * B environments in lockstep on one GPU (issues #6/#7): a queue of episode jobs run over B slots,
 * one episode per slot. Every control step, all active slots are observed, the policy acts once
 * for all of them (a camera-fed policy: one batched `Policy.act` over B frames rendered in one
 * submission), and every slot advances; the crowd step of all slots is one
 * `PedestrianBatch.step` call. A finished slot reports its record at once and is refilled from the
 * queue; slots left without a job when the queue is empty stop.
 *
 * Determinism: an episode's record depends only on its job, never on its slot or on B (each slot's
 * pedestrians, robot and policy state are its own, and a slot is reset when it is refilled).
 */
import type { Ring } from '../core/geometry2d';
import type { PedestrianBatch, PedestrianSlotView } from '../crowd/pedestrian-batch';
import type { RobotSpec } from '../robot/robot-spec';
import type { RobotState, VelocityCommand } from '../robot/unicycle';
import { EpisodeRun, type EpisodeEnvironment } from './episode';
import type { EpisodePolicy, Observation } from '../sim/episode-contracts';
import type { EpisodeRecord } from './episode-record';
import type { Scenario } from '../sim/scenario';

/** One episode to run: a scenario, its run index and its episode seed. */
export interface EpisodeJob {
  scenario: Scenario;
  run: number;
  seed: number;
}

/** The world of a job as the episode loop needs it, plus the static obstacles its pedestrians avoid. */
export type SlotWorld = EpisodeEnvironment['world'];

/** What a policy is told when an episode starts in a slot. */
export interface SlotStart<J extends EpisodeJob, W extends SlotWorld> {
  job: J;
  world: W;
  /** The slot's pedestrians (a live view). */
  pedestrians: PedestrianSlotView;
  /** The episode (its state is the robot's start pose). */
  episode: EpisodeRun;
}

/** A policy as the lockstep runner drives it: B slots per control step. */
export interface BatchEpisodePolicy<J extends EpisodeJob = EpisodeJob, W extends SlotWorld = SlotWorld> {
  /** Recorded as the records' `policy`. */
  readonly name: string;
  /** Control rate, Hz. */
  readonly rateHz: number;
  /** Starts the episode `start` in `slot` (forgets the slot's history, reseeds it from the episode seed). */
  reset(slot: number, start: SlotStart<J, W>): Promise<void>;
  /**
   * One control step: a command per slot, for the slots whose observation is given (null: the slot
   * is idle, its command is ignored). Never called twice at once.
   */
  act(observations: readonly (Observation | null)[]): Promise<(VelocityCommand | null)[]>;
}

/** How to run a batch of jobs. */
export interface EpisodeBatchOptions<J extends EpisodeJob, W extends SlotWorld> {
  /** The pedestrians of the B slots (B = `pedestrians.slots`). */
  pedestrians: PedestrianBatch;
  policy: BatchEpisodePolicy<J, W>;
  /** The world of a job. */
  world(job: J): W;
  /** The static obstacles the job's pedestrians avoid (default: all of the world's). */
  pedestrianObstacles?(job: J, world: W): readonly Ring[];
  robot: RobotSpec;
  /** Crowd step, s. */
  crowdDt: number;
  /** Receives each record as soon as its episode ends (awaited before the slot is refilled). */
  onRecord(record: EpisodeRecord, job: J, slot: number): void | Promise<void>;
}

interface Slot<J extends EpisodeJob> {
  job: J;
  episode: EpisodeRun;
}

/**
 * Runs `jobs` over `pedestrians.slots` slots in lockstep (see the module comment). Slots are filled
 * in slot order from the front of the queue, initially and whenever an episode ends (slots ending
 * at the same step are reported and refilled in slot order).
 */
export async function runEpisodeBatch<J extends EpisodeJob, W extends SlotWorld>(jobs: readonly J[], o: EpisodeBatchOptions<J, W>): Promise<void> {
  const { pedestrians: batch, policy } = o;
  const queue = [...jobs];
  const slots: (Slot<J> | null)[] = new Array(batch.slots).fill(null);

  /** Starts the next job in `slot`, reporting those that are over before their first step. */
  const fill = async (slot: number): Promise<void> => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const world = o.world(job);
      await batch.load(slot, job.scenario.pedestrians, o.pedestrianObstacles?.(job, world) ?? world.obstacles, job.seed);
      const pedestrians = batch.view(slot);
      const episode = new EpisodeRun(job.scenario, job.run, job.seed, { world, pedestrians, robot: o.robot, crowdDt: o.crowdDt, rateHz: policy.rateHz, policyName: policy.name });
      await policy.reset(slot, { job, world, pedestrians, episode });
      if (!episode.done) {
        slots[slot] = { job, episode };
        return;
      }
      await o.onRecord(episode.record(), job, slot);
    }
    slots[slot] = null;
    batch.unload(slot);
  };

  for (let s = 0; s < slots.length; s++) await fill(s);
  while (slots.some((s) => s !== null)) {
    const commands = await policy.act(slots.map((s) => s?.episode.observation() ?? null));
    const subSteps = slots.find((s) => s !== null)!.episode.subSteps;
    for (let k = 0; k < subSteps; k++) {
      const robots: (RobotState | null)[] = slots.map((s) => (s?.episode.crowdDue() ? s.episode.state : null));
      const due = robots.findIndex((r) => r !== null);
      if (due >= 0) await batch.step(slots[due]!.episode.crowdStepDt, robots);
      slots.forEach((s, i) => s?.episode.subStep(commands[i]!));
    }
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      if (!s?.episode.done) continue;
      await o.onRecord(s.episode.record(), s.job, i);
      await fill(i);
    }
  }
}

/**
 * The batch form of single-environment policies that run on the CPU (the expert): one instance per
 * slot, made by `make`, reset with the episode seed whenever its slot starts an episode, each acting
 * on its slot's observation.
 */
export function perSlotPolicy<J extends EpisodeJob, W extends SlotWorld>(make: () => EpisodePolicy, slots: number): BatchEpisodePolicy<J, W> {
  const policies: EpisodePolicy[] = Array.from({ length: slots }, make);
  return {
    name: policies[0].name,
    rateHz: policies[0].rateHz,
    reset: (slot, start) => policies[slot].reset(start.job.seed),
    act: (observations) => Promise.all(observations.map((obs, i) => (obs ? policies[i].act(obs) : null))),
  };
}
