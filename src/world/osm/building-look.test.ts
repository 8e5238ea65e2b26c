/**
 * A real building's tagged look (`building:colour`, `building:material`): the tag values read, and
 * the baked walls of a tagged building (an OSM file made in the test) in its colour, where an
 * untagged twin keeps its seeded facade.
 */
import { describe, expect, it } from 'vitest';
import { OsmFixture } from '../../../test/osm-fixture';
import { SH_C0 } from '../../splats/splat-cloud';
import { bakeChunk, chunkGrid, chunkOf } from '../bake/chunks';
import { buildingLook, MATERIAL_COLOURS, parseBuildingColour } from './building-look';
import { buildOsmWorld } from './osm-world';
import { readOsm } from './read';

describe('building:colour and building:material', () => {
  it('reads #rgb, #rrggbb and colour names; materials onto the four wall materials', () => {
    expect(parseBuildingColour('#ff8000')).toEqual([1, 128 / 255, 0]);
    expect(parseBuildingColour('#F80')).toEqual([1, 136 / 255, 0]);
    expect(parseBuildingColour(' Light Grey ')).toEqual([211 / 255, 211 / 255, 211 / 255]);
    expect(parseBuildingColour('beige')).toEqual([245 / 255, 245 / 255, 220 / 255]);
    expect(parseBuildingColour('rosy sunset')).toBeNull();
    expect(parseBuildingColour('#12345')).toBeNull();
    expect(buildingLook({ building: 'yes', 'building:material': 'Sandstone' })).toEqual({ colour: null, material: 'stone' });
    expect(buildingLook({ building: 'yes', 'building:color': 'white', 'building:material': 'plaster' })).toEqual({ colour: [1, 1, 1], material: 'render' });
    expect(buildingLook({ building: 'yes', 'building:material': 'unobtainium' })).toBeNull();
    expect(buildingLook({ building: 'yes' })).toBeNull();
  });

  it('bakes a tagged building in its colour; its untagged twin keeps the seeded facade', () => {
    const f = new OsmFixture(43.74, 7.42);
    f.way([f.node(-100, 0), f.node(100, 0)], { highway: 'residential', name: 'Rue du Test' });
    const blue = f.ring([[-30, 10], [-10, 10], [-10, 25], [-30, 25]], { building: 'yes', height: '9', 'building:colour': '#2050c0' });
    const brick = f.ring([[10, 10], [30, 10], [30, 25], [10, 25]], { building: 'yes', height: '9', 'building:material': 'brick' });
    const plain = f.ring([[10, -10], [30, -10], [30, -25], [10, -25]], { building: 'yes', height: '9' });
    const world = buildOsmWorld(readOsm(f.xml(), 'look.osm'), { file: 'look.osm', md5: '0'.repeat(32), selection: { kind: 'centre', lat: 43.74, lon: 7.42, size: 200 }, seed: 3 });
    const label = (id: number) => world.osm!.buildings.find((b) => b.osmId === `way/${id}`)!;
    expect(label(blue).look).toEqual({ colour: [0x20 / 255, 0x50 / 255, 0xc0 / 255], material: null });
    expect(label(brick).look).toEqual({ colour: null, material: 'brick' });
    expect(label(plain).look).toBeNull();
    const grid = chunkGrid(world);
    /** Mean colour of the splats over a building's footprint box above 1 m (its walls). */
    const wallColour = (id: number): number[] => {
      const ob = world.obstacles.find((o) => o.id === label(id).objectIds[0])!;
      const xs = ob.footprint.map((p) => p[0]), ys = ob.footprint.map((p) => p[1]);
      const box = [Math.min(...xs) - 0.1, Math.min(...ys) - 0.1, Math.max(...xs) + 0.1, Math.max(...ys) + 0.1];
      const { cloud, origin } = bakeChunk(world, grid, chunkOf(grid, ob.centre[0], ob.centre[1]));
      const sum = [0, 0, 0];
      let n = 0;
      for (let i = 0; i < cloud.count; i++) {
        const x = cloud.positions[3 * i] + origin[0], y = cloud.positions[3 * i + 1] + origin[1], z = cloud.positions[3 * i + 2] + origin[2];
        if (x < box[0] || x > box[2] || y < box[1] || y > box[3] || z < 1.5 || z > 8.5) continue;
        for (let k = 0; k < 3; k++) sum[k] += cloud.shDc[3 * i + k] * SH_C0 + 0.5;
        n++;
      }
      expect(n, `splats on way/${id}'s walls`).toBeGreaterThan(500);
      return sum.map((v) => v / n);
    };
    const b = wallColour(blue);
    // Windows and doors darken the mean, but the wall's hue stays: blue well above red and green.
    expect(b[2]).toBeGreaterThan(b[0] + 0.15);
    expect(b[2]).toBeGreaterThan(b[1] + 0.05);
    const r = wallColour(brick);
    const [br, , bb] = MATERIAL_COLOURS.brick;
    expect(r[0] - r[2]).toBeGreaterThan(0.5 * (br - bb));
    expect(r[0]).toBeGreaterThan(r[1]);
    const p = wallColour(plain);
    expect(p[2]).toBeLessThan(p[0] + 0.15);
  });
});
