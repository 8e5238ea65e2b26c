/**
 * Per-state crowd measurements, defined once for both backends (`measureState` in
 * `shaders/crowd/orca.wgsl` mirrors {@link measureAgent}). A state k is the crowd after k steps.
 */

/**
 * Two agents overlap when their centres are closer than the sum of their radii minus this
 * tolerance, m. ORCA keeps agents apart only up to one step's discretisation and float error
 * (RVO2's collision case projects on a cut-off circle of one time step), so penetrations of a few
 * millimetres are not counted.
 */
export const OVERLAP_TOLERANCE = 0.01;

/** Aggregates of one state over all agents. */
export interface StateMetrics {
  /** Smallest centre-to-centre distance between two agents of one env within neighbour range, m (Infinity if none). */
  minPairDistance: number;
  /** Agents overlapping at least one other agent (beyond {@link OVERLAP_TOLERANCE}). */
  overlapAgents: number;
  /** Agents within their goalRadius of their goal. */
  reachedAgents: number;
  /** Sum of agent speeds, m/s. */
  speedSum: number;
}

/** An empty aggregate (minPairDistance = Infinity). */
export const emptyMetrics = (): StateMetrics => ({ minPairDistance: Infinity, overlapAgents: 0, reachedAgents: 0, speedSum: 0 });

/** Run summary as the CLI reports it. */
export interface RunSummary {
  /** First step count k after which every agent was at its goal (state k), or null. */
  allReachedGoalAtStep: number | null;
  /** Minimum of minPairDistance over states 0..steps, m (null when no two agents were ever in range). */
  minPairDistance: number | null;
  /** States 1..steps with at least one overlapping agent. */
  overlapSteps: number;
  /** Mean agent speed over states 1..steps, m/s. */
  meanSpeed: number;
}

/**
 * Summarises per-state metrics `states[0..steps]` of a crowd of `agents` agents.
 *
 * @throws Error when `states` is empty.
 */
export function summarize(states: readonly StateMetrics[], agents: number): RunSummary {
  if (states.length === 0) throw new Error('summarize: no states');
  let minPair = Infinity;
  let overlapSteps = 0;
  let speed = 0;
  let reachedAt: number | null = null;
  states.forEach((s, k) => {
    minPair = Math.min(minPair, s.minPairDistance);
    if (k > 0 && s.overlapAgents > 0) overlapSteps++;
    if (k > 0) speed += s.speedSum;
    if (reachedAt === null && s.reachedAgents === agents) reachedAt = k;
  });
  const steps = states.length - 1;
  return {
    allReachedGoalAtStep: reachedAt,
    minPairDistance: Number.isFinite(minPair) ? minPair : null,
    overlapSteps,
    meanSpeed: steps > 0 && agents > 0 ? speed / (steps * agents) : 0,
  };
}
