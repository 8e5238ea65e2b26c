/**
 * Matched condition runs (`npm run bench -- --conditions dusk,night,fog,rain`, issue #16): the same
 * scenarios with the same seeds under each named condition (src/world/conditions.ts:
 * CONDITION_PRESETS), so a policy's results by day and at night differ only by what its camera sees.
 * A variant's id is the scenario's with `@NAME` appended (its results resume separately); its
 * episode seeds are the scenario's (plan.ts: runSeed reads the scenario seed, not the id).
 */
import { CliError } from '../core/user-error';
import type { Scenario } from '../sim/scenario';
import { CONDITION_PRESETS, type Conditions } from '../world/conditions';

/**
 * The condition names of a `--conditions` value: comma-separated preset names, in order, once each.
 *
 * @throws CliError naming an unknown or repeated name.
 */
export function parseConditionNames(list: string): string[] {
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new CliError(`--conditions '${list}': expected names from ${Object.keys(CONDITION_PRESETS).join(', ')}`);
  for (const [k, n] of names.entries()) {
    if (!(n in CONDITION_PRESETS)) throw new CliError(`--conditions: unknown condition '${n}': expected ${Object.keys(CONDITION_PRESETS).join(', ')}`);
    if (names.indexOf(n) !== k) throw new CliError(`--conditions: '${n}' is given twice`);
  }
  return names;
}

/** Every scenario under each named condition, condition-major (all of `day`, then all of `night`, …). */
export function conditionVariants(scenarios: readonly Scenario[], names: readonly string[]): Scenario[] {
  return names.flatMap((name) => scenarios.map((s) => ({ ...s, id: `${s.id}@${name}`, conditions: { ...CONDITION_PRESETS[name] } })));
}

/**
 * How a record's conditions are shown: the preset's name when they are one (`night`), else `HH:MM
 * weather`; `default` when the scenario set none.
 */
export function conditionsLabel(c: Conditions | undefined): string {
  if (!c) return 'default';
  const preset = Object.entries(CONDITION_PRESETS).find(([, p]) => p.time === c.time && p.weather === c.weather);
  return preset ? preset[0] : `${c.time} ${c.weather}`;
}
