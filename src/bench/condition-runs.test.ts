import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { episodeRecord } from '../../test/episode-records';
import { conditionsComparison, conditionsTable, summarise, summaryTable } from './aggregate';
import { conditionsLabel, conditionVariants, parseConditionNames } from './condition-runs';
import { planJobs } from './plan';
import { parseScenarios } from '../sim/scenario';

const record = episodeRecord;

describe('matched condition runs', () => {
  it('reads --conditions names and names the bad ones', () => {
    expect(parseConditionNames('dusk,night, fog,rain')).toEqual(['dusk', 'night', 'fog', 'rain']);
    expect(() => parseConditionNames('dusk,snow')).toThrow("unknown condition 'snow': expected day, dusk, night, fog, rain");
    expect(() => parseConditionNames('fog,fog')).toThrow("'fog' is given twice");
    expect(() => parseConditionNames(',')).toThrow('expected names from');
  });

  it('runs every scenario under each condition with the same episode seeds', () => {
    const smoke = parseScenarios('smoke.json', readFileSync('scenes/suites/smoke.json', 'utf8'));
    const variants = conditionVariants(smoke, ['day', 'night']);
    expect(variants.length).toBe(2 * smoke.length);
    expect(variants[0].id).toBe(`${smoke[0].id}@day`);
    expect(variants[smoke.length].id).toBe(`${smoke[0].id}@night`);
    expect(variants[smoke.length].conditions).toEqual({ time: '23:00', weather: 'clear' });
    // The originals are untouched.
    expect(smoke[0].conditions).toBeUndefined();
    const jobs = planJobs(variants, ['expert'], 2, { index: 1, count: 1 }, new Set()).all;
    for (let k = 0; k < smoke.length * 2; k++) {
      expect(jobs[k + smoke.length * 2].seed, `job ${k}`).toBe(jobs[k].seed);
      expect(jobs[k + smoke.length * 2].scenario.robot).toEqual(jobs[k].scenario.robot);
    }
    expect(new Set(jobs.map((j) => `${j.scenario.id}#${j.run}`)).size).toBe(jobs.length);
  });

  it('labels conditions by preset name, else by time and weather', () => {
    expect(conditionsLabel(undefined)).toBe('default');
    expect(conditionsLabel({ time: '23:00', weather: 'clear' })).toBe('night');
    expect(conditionsLabel({ time: '06:30', weather: 'rain' })).toBe('06:30 rain');
  });

  it('summarises per condition and compares them side by side', () => {
    const day = { time: '13:00', weather: 'clear' } as const;
    const night = { time: '23:00', weather: 'clear' } as const;
    const rs = [
      record({ scenarioId: 'a@day', conditions: day, run: 0 }),
      record({ scenarioId: 'b@day', conditions: day, run: 0, success: true }),
      record({ scenarioId: 'a@night', conditions: night, run: 0, success: false, end: 'failure', routeCompletion: 0.5 }),
      record({ scenarioId: 'b@night', conditions: night, run: 0, success: true }),
    ];
    const rows = summarise(rs);
    const all = rows.filter((r) => r.category === 'all');
    expect(all.map((r) => r.conditions)).toEqual(['day', 'night']);
    expect(all[0].successRate.mean).toBe(1);
    expect(all[1].successRate.mean).toBe(0.5);
    expect(all[1].routeCompletion.mean).toBe(0.75);
    expect(conditionsComparison(rows)).toEqual({
      header: ['policy', 'suite', 'day: success / RC %', 'night: success / RC %'],
      body: [['expert', 'unit', '100.0 / 100.0', '50.0 / 75.0']],
    });
    expect(summaryTable(rows).split('\n')[0]).toMatch(/^policy\s+suite\s+conditions\s+category/);
    expect(conditionsTable(rows)).toContain('50.0 / 75.0');
    // One condition (or none): no comparison, no column.
    const plain = summarise([record({})]);
    expect(conditionsComparison(plain)).toBeNull();
    expect(conditionsTable(plain)).toBe('');
    expect(summaryTable(plain)).not.toContain('conditions');
  });

  it('puts the conditions side by side in the report, one chart series per policy and condition', async () => {
    const { buildReport } = await import('./report-html');
    const rs = [
      record({ scenarioId: 'a@day', conditions: { time: '13:00', weather: 'clear' } }),
      record({ scenarioId: 'a@fog', conditions: { time: '13:00', weather: 'fog' }, success: false, end: 'failure', routeCompletion: 0.4 }),
    ];
    const html = buildReport({ title: 'Run', meta: [], records: rs });
    expect(html).toContain('<h2>Conditions side by side</h2>');
    expect(html).toContain('<th>fog: success / RC %</th>');
    expect(html).toContain('<td>0.0 / 40.0</td>');
    expect(html).toContain('expert · fog');
    expect(html).toContain('<th>conditions</th>');
    // A run without conditions: neither.
    const plain = buildReport({ title: 'Run', meta: [], records: [record({})] });
    expect(plain).not.toContain('Conditions side by side');
    expect(plain).not.toContain('<th>conditions</th>');
  });
});
