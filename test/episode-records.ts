/** A finished episode record for tests of the results log and summaries: a clean 15 m goal run, overridable field by field. */
import type { EpisodeRecord } from '../src/bench/results-log';

export function episodeRecord(over: Partial<EpisodeRecord>): EpisodeRecord {
  return {
    scenarioId: 's', suite: 'unit', category: 'straight', policy: 'expert', run: 0, seed: 1, success: true, end: 'goal',
    routeLength: 15, routeCompletion: 1, duration: 12, distance: 15, averageVelocity: 1.25, timeToGoal: 12, failures: [],
    minPedestrianDistance: null, timeWithinIntimate: 0, timeWithinPersonal: 0, pathIrregularity: 0, trajectory: [],
    ...over,
  };
}
