/**
 * The suites of a real place (issue "Real places"): drawn from a small selection of a shared OSM
 * file, deterministic, every shortfall reported, the suite file naming its source, the world rebuilt
 * from it (md5 checked; the page's extract gives the same world), and the privileged expert
 * completing the unit scenarios on the real streets.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../test/shared-data';
import { ScenarioPedestrians } from '../crowd/scenario-pedestrians';
import { ExpertPolicy } from '../policy/expert-policy';
import { DELIVERY_ROBOT } from '../robot/robot-spec';
import { parseScenarios } from '../sim/scenario';
import { isWalkable } from '../world/queries';
import { readExtract } from '../world/osm/extract';
import { readOsm } from '../world/osm/read';
import { runEpisode } from './episode';
import { osmSuite } from './osm-suite';
import { osmExtractsFor, readOsmWorldData } from './osm-worlds-node';
import { loadScenarioWorldNode } from './scanned-scenes-node';
import { pedestrianObstacles, scenarioWorld } from './scenario-world';
import { registerOsmWorld, type OsmWorldRef } from '../world/osm/world-ref';
import { buildOsmWorld } from '../world/osm/osm-world';

const PATH = '../shared/data/osm/bristol_sausage_links.osm';
const bytes = readSharedData('osm/bristol_sausage_links.osm');
const md5 = createHash('md5').update(bytes).digest('hex');
const ref: OsmWorldRef = { kind: 'osm', path: PATH, md5, selection: { kind: 'centre', lat: 51.4594, lon: -2.5512, size: 300 }, seed: 0, furniture: 'osm+generated' };

describe('osmSuite on Bristol, 300 m about Church Road', () => {
  const world = registerOsmWorld(ref, readOsm(bytes, PATH));
  const made = osmSuite(world, ref, 'bristol', { perCategory: 6, perBehaviour: 3, longCount: 2 });

  it('draws unit, reactive and long scenarios on walkable ground of the real world, and reports what it could not place', () => {
    expect(made.counts['unit/straight']).toBe(6);
    expect(made.counts['unit/crosswalk']).toBe(6);
    expect(made.counts['long/long']).toBe(2);
    expect(made.counts['reactive/ped-crossing']).toBe(3);
    // Conversing groups leave no 1 m passing gap on Bristol's 2 m sidewalks: said, with the count.
    expect(made.counts['reactive/conversing']).toBe(0);
    expect(made.notes.some((n) => n.startsWith(`${PATH}: could not place conversing pedestrians`) && n.endsWith('0 of 3 conversing scenarios made'))).toBe(true);
    const total = Object.values(made.counts).reduce((a, b) => a + b, 0);
    expect(made.scenarios).toHaveLength(total);
    for (const s of made.scenarios) {
      expect(s.id).toMatch(/^osm\/bristol\/seed0\/(unit|reactive|long)\//);
      expect(s.world).toEqual(ref);
      for (const p of [s.robot.route[0], s.robot.goal]) expect(isWalkable(world, p[0], p[1]), `${s.id} ends off the walkable area`).toBe(true);
    }
    // A suite file round trip: the schema keeps the OSM world as made.
    const parsed = parseScenarios('bristol.json', JSON.stringify({ scenarios: made.scenarios }));
    expect(parsed).toEqual(made.scenarios);
  }, 60_000);

  it('is deterministic in the file, selection and seed', () => {
    const again = osmSuite(world, ref, 'bristol', { perCategory: 6, perBehaviour: 3, longCount: 2 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(made));
    const other = osmSuite(world, ref, 'bristol', { perCategory: 6, perBehaviour: 3, longCount: 2, seed: 1 });
    expect(other.scenarios[0].robot.route).not.toEqual(made.scenarios[0].robot.route);
  }, 60_000);

  it("rebuilds the world from the suite's source, refuses a changed file by name, and the page's extract gives the same world", async () => {
    const s = made.scenarios[0];
    expect((await loadScenarioWorldNode(s)).world).toBe(world);
    await expect(readOsmWorldData({ ...ref, md5: '0'.repeat(32) })).rejects.toThrow(/^\.\.\/shared\/data\/osm\/bristol_sausage_links\.osm: md5 [0-9a-f]{32} is not the 0{32} the suite was made from/);
    await expect(readOsmWorldData({ ...ref, path: 'nowhere.osm' })).rejects.toThrow(/^nowhere\.osm: no such OSM file/);
    const extracts = await osmExtractsFor(made.scenarios);
    expect(Object.keys(extracts)).toHaveLength(1);
    const { extract } = Object.values(extracts)[0];
    const rebuilt = buildOsmWorld(readExtract(new TextEncoder().encode(extract), PATH), { file: ref.path, md5, selection: ref.selection, seed: 0 });
    expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(world));
  }, 60_000);

  it('the expert completes the unit scenarios on the real streets', async () => {
    const unit = made.scenarios.filter((s) => s.suite === 'unit');
    let success = 0;
    for (const s of unit) {
      const w = scenarioWorld(s);
      const r = await runEpisode(s, 0, s.seed, { world: w, pedestrians: new ScenarioPedestrians(s.pedestrians, pedestrianObstacles(s, w), s.seed), policy: new ExpertPolicy(DELIVERY_ROBOT), robot: DELIVERY_ROBOT, crowdDt: 0.1 });
      if (r.success) success++;
    }
    expect(success / unit.length).toBeGreaterThanOrEqual(0.95);
  }, 120_000);
});
