/**
 * The record of one finished episode, as written to the results file (one JSON line each), and the
 * keys that identify it. Browser-safe (no Node imports): the page builds records, Node writes them.
 */
import type { FailureEvent } from '../robot/failure-monitor';
import type { RobotName } from '../robot/robot-spec';
import type { Conditions } from '../world/conditions';

/** One finished episode (one scenario × one run seed × one policy). */
export interface EpisodeRecord {
  scenarioId: string;
  suite: string;
  category: string;
  policy: string;
  /** Pedestrian simulation backend: `gpu` (WGSL, float32) or `cpu` (TypeScript reference, float64); absent in older files (cpu). */
  crowd?: 'gpu' | 'cpu';
  /**
   * The embodiment that drove (`--robot`, src/robot/embodiments.ts): `dog` or `humanoid`; absent for the
   * wheeled delivery robot (the default, and every file written before embodiments existed), so that
   * its records stay as they were. Read it with {@link recordRobot}.
   */
  robot?: RobotName;
  /** Run index 0..seeds−1 and the derived episode seed. */
  run: number;
  seed: number;
  success: boolean;
  /** Why the episode ended. */
  end: 'goal' | 'stopped' | 'failure' | 'timeout';
  routeLength: number;
  routeCompletion: number;
  /** Seconds simulated, metres travelled. */
  duration: number;
  distance: number;
  averageVelocity: number;
  timeToGoal: number | null;
  failures: FailureEvent[];
  minPedestrianDistance: number | null;
  timeWithinIntimate: number;
  timeWithinPersonal: number;
  pathIrregularity: number;
  /**
   * Share of the episode's duration with the robot's base centre on the pedestrian network (sidewalk or
   * crosswalk), [0, 1] (metrics.ts: networkAdherence). Absent in older files.
   */
  networkAdherence?: number;
  /**
   * Closure compliance: true when the robot's base centre never entered a closed area in force
   * (src/bench/closures.ts). Present only when the scenario has closures.
   */
  closureCompliance?: boolean;
  /**
   * The scenario's closures in this episode: when each triggered (episode time, s; null: never),
   * the robot's entries into closed areas, and the re-plans of the reference route. Present only
   * when the scenario has closures.
   */
  closures?: { triggeredAt: (number | null)[]; entries: number; replans: number };
  /**
   * The time of day and weather the robot camera saw (the scenario's `conditions`); absent when the
   * scenario sets none (the default look: a clear afternoon) and in older files.
   */
  conditions?: Conditions;
  /** Robot trajectory subsampled for the report, [t, x, y] rows. */
  trajectory: [number, number, number][];
  /**
   * Each pedestrian's path at the trajectory's times: pedestrianPaths[p][k] = [x, y] (world frame,
   * metres) of pedestrian p at trajectory[k]'s time. Absent in older files and without pedestrians.
   */
  pedestrianPaths?: [number, number][][];
}

/** The file name (no folder) of a failed episode's camera strip in a results directory's `frames/`: `<policy>__<scenario>__<run>.jpg`, unsafe characters as `_`. */
export function stripFileName(r: Pick<EpisodeRecord, 'scenarioId' | 'policy' | 'run'>): string {
  return `${r.policy}__${r.scenarioId}__${r.run}`.replace(/[^A-Za-z0-9._-]/g, '_') + '.jpg';
}

/**
 * The name a `--policy` option records under: `expert`, `onnx:<model name>` (the file's base name,
 * or its folder's name for `…/NAME/model.onnx`), or the ws:// URL.
 */
export function policyName(policy: string): string {
  if (!policy.startsWith('onnx:')) return policy;
  const parts = policy.slice(5).split(/[\\/]/);
  const file = parts.pop()!.replace(/\.onnx$/, '');
  return `onnx:${file === 'model' && parts.length > 0 ? parts.pop() : file}`;
}

/** The embodiment of a record: its `robot`, or `wheeled` when absent. */
export const recordRobot = (r: Pick<EpisodeRecord, 'robot'>): RobotName => r.robot ?? 'wheeled';

/** The resume key of an episode. */
export const episodeKey = (r: Pick<EpisodeRecord, 'scenarioId' | 'policy' | 'run'>) => `${r.scenarioId}\u0000${r.policy}\u0000${r.run}`;

