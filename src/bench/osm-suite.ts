/**
 * The suites of a real place (`npm run suites -- --osm FILE --centre LAT,LON --size M --out FILE.json`):
 * SidewalkBench's unit, reactive and long-horizon scenarios (seeds/002 §3.3) drawn by the procedural
 * suites' rules (src/bench/suites.ts) on one world built from OpenStreetMap, deterministic in the
 * file, selection and seed:
 *
 * - unit: `perCategory` straight, curve and crosswalk routes of 10–20 m on its sidewalk blocks;
 * - reactive: `perBehaviour` of each behaviour (15–22 m straight routes, Ped-Crossing on crosswalks;
 *   Lateral pedestrians kept inside narrow sidewalks: suites.ts placeBehaviour's `narrow`);
 * - long: `longCount` routes of 100–400 m with every alternative fenced off.
 *
 * Every route starts where the robot's footprint is on walkable ground (suites.ts SuiteDraw.clearStart).
 *
 * A category the place cannot hold (a town without curves of 10–20 m, a square with no crosswalk) is
 * reported in `notes` and in the per-category counts, never silently skipped. Scenario ids are
 * `osm/NAME/seedK/<suite>/<category>/NNN`, distinct from the checked-in suites' (the bench resumes by id).
 */
import { BEHAVIOURS, type Scenario } from '../sim/scenario';
import type { World } from '../world/world';
import type { OsmWorldRef } from '../world/osm/world-ref';
import { longSuite, reactiveSuite, unitSuite, type SuiteDraw } from './suites';

/** Options of {@link osmSuite}. */
export interface OsmSuiteOptions {
  seed?: number;
  /** Unit scenarios per category (default 30). */
  perCategory?: number;
  /** Reactive scenarios per behaviour (default 10). */
  perBehaviour?: number;
  /** Long-horizon routes (default 10). */
  longCount?: number;
}

/** What an OSM suite holds: scenarios per suite and category, and what could not be made. */
export interface OsmSuite {
  scenarios: Scenario[];
  /** `unit/straight` → count, in the order made. */
  counts: Record<string, number>;
  notes: string[];
}

/**
 * Draws the suites of `world` (built from `ref`: see src/world/osm/world-ref.ts registerOsmWorld).
 *
 * @param name the place's short name in the ids (e.g. `monaco-casino`); `[A-Za-z0-9_-]` only.
 * @throws Error when the place gives no unit scenario at all.
 */
export function osmSuite(world: World, ref: OsmWorldRef, name: string, options: OsmSuiteOptions = {}): OsmSuite {
  const seed = options.seed ?? 0;
  const notes: string[] = [];
  const draw: SuiteDraw = { worlds: [{ ref, world: () => world }], notes, narrow: true, clearStart: true };
  const unit = unitSuite(options.perCategory ?? 30, 'unit', [], 0, [], draw, seed);
  if (unit.length === 0) throw new Error(`${ref.path}: no unit route of 10–20 m in the selection (${notes.join('; ')})`);
  const reactive = reactiveSuite(options.perBehaviour ?? 10, 'reactive', BEHAVIOURS, draw, seed);
  const long = longSuite(options.longCount ?? 10, 100, 'long', 400, 0.5, null, draw, seed);
  const scenarios = [...unit, ...reactive, ...long].map((s) => ({ ...s, id: `osm/${name}/seed${seed}/${s.id}` }));
  const counts: Record<string, number> = Object.fromEntries([...['straight', 'curve', 'crosswalk'].map((c) => `unit/${c}`), ...BEHAVIOURS.map((b) => `reactive/${b}`), 'long/long'].map((k) => [k, 0]));
  for (const s of [...unit, ...reactive, ...long]) counts[`${s.suite}/${s.category}`] = (counts[`${s.suite}/${s.category}`] ?? 0) + 1;
  return { scenarios, counts, notes: notes.map((n) => `${ref.path}: ${n.replace(/^suites: /, '')}`) };
}
