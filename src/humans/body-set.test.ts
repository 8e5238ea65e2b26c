/**
 * The shipped MakeHuman body set (assets/humans/): valid LOD bodies, sizes, the LOD identity
 * guarantee (same β → the same vertex positions and material coordinates at every LOD), the shape
 * directions' effect, and no drift from its generator when ../shared/data is present.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA, readSharedData } from '../../test/shared-data';
import { bounds, validateBodyModel } from './body-model';
import { shapeBlend } from './lbs-reference';
import { MAKEHUMAN_LOD_COUNT, makeHumanLod, makeHumanMaterial } from './makehuman-set';
import { MATERIAL_VERTEX_LAYOUT } from './pedestrian-material';
import { randomAppearance } from './pedestrian-appearance';
import { pedestrianBetas } from './pedestrian-wardrobe';
import { generateBodySetFiles } from './bake/make-body-set';

const ASSETS = resolve(import.meta.dirname, '../../assets/humans');

describe('MakeHuman body set (assets/humans)', () => {
  it('has three valid LODs of ≈ 2,200 / 800 / 300 vertices on 24 joints with 5 shape directions, 1.6–1.8 m tall, on the ground', () => {
    const want = [2200, 800, 300];
    for (let k = 0; k < MAKEHUMAN_LOD_COUNT; k++) {
      const { model, sourceVertex } = makeHumanLod(k);
      validateBodyModel(model);
      expect(model.vertexCount).toBe(want[k]);
      expect(model.jointCount).toBe(24);
      expect(model.shapeNames).toEqual(['gender', 'age', 'weight', 'muscle', 'height']);
      // A closed surface (hm08's body is closed): F = 2V − 4.
      expect(model.faces.length / 3).toBe(2 * model.vertexCount - 4);
      const b = bounds(model.template);
      // LOD0 keeps the lowest hm08 vertex (z = 0); decimation may drop it from coarser LODs (by millimetres).
      expect(Math.abs(b[2])).toBeLessThan(k === 0 ? 1e-6 : 0.01);
      expect(b[5] - b[2]).toBeGreaterThan(1.6);
      expect(b[5] - b[2]).toBeLessThan(1.8);
      expect(new Set(sourceVertex).size).toBe(model.vertexCount);
      expect(Math.max(...sourceVertex)).toBeLessThan(13380);
    }
  });

  it('stays well under 1.5 MB in all', () => {
    const total = [0, 1, 2].reduce((s, k) => s + statSync(resolve(ASSETS, `makehuman-lod${k}.json`)).size, 0);
    console.log(`body set: ${total} bytes`);
    expect(total).toBeLessThan(1_000_000);
    expect(existsSync(resolve(ASSETS, 'LICENSE.md'))).toBe(true);
  });

  it('LOD identity: every LOD vertex carries its hm08 vertex’s data, so a walker’s shaped body and material coordinates match at every LOD', () => {
    const lod0 = makeHumanLod(0);
    const index0 = new Map(Array.from(lod0.sourceVertex, (s, i) => [s, i]));
    const mat0 = new Float32Array(makeHumanMaterial(0));
    const u80 = new Uint8Array(makeHumanMaterial(0));
    for (let seed = 1; seed <= 3; seed++) {
      const look = randomAppearance(seed);
      const shaped0 = shapeBlend(lod0.model, pedestrianBetas(lod0.model, look.shape));
      for (let k = 1; k < MAKEHUMAN_LOD_COUNT; k++) {
        const { model, sourceVertex } = makeHumanLod(k);
        const betas = pedestrianBetas(model, look.shape);
        expect(Array.from(betas)).toEqual(Array.from(pedestrianBetas(lod0.model, look.shape)));
        const shaped = shapeBlend(model, betas);
        const mat = new Float32Array(makeHumanMaterial(k)), u8 = new Uint8Array(makeHumanMaterial(k));
        const F = MATERIAL_VERTEX_LAYOUT.stride / 4;
        let maxError = 0;
        for (let v = 0; v < model.vertexCount; v++) {
          const w = index0.get(sourceVertex[v]);
          expect(w, `LOD${k} vertex ${v} (hm08 ${sourceVertex[v]}) is not in LOD0`).toBeDefined();
          for (let c = 0; c < 3; c++) maxError = Math.max(maxError, Math.abs(shaped.vertices[3 * v + c] - shaped0.vertices[3 * w! + c]));
          for (let i = 0; i < 4; i++) {
            expect(model.skinIndices[4 * v + i]).toBe(lod0.model.skinIndices[4 * w! + i]);
            expect(model.skinWeights[4 * v + i]).toBe(lod0.model.skinWeights[4 * w! + i]);
          }
          for (let i = 0; i < 7; i++) expect(mat[v * F + i]).toBe(mat0[w! * F + i]);
          for (let i = 28; i < 32; i++) expect(u8[v * 32 + i]).toBe(u80[w! * 32 + i]);
        }
        expect(maxError).toBe(0);
        expect(Array.from(shaped.joints)).toEqual(Array.from(shaped0.joints));
      }
    }
  });

  it('shape directions: height +1 is taller, gender −1 (female) is shorter than +1 (male)', () => {
    const { model } = makeHumanLod(0);
    const h = (shape: Partial<Record<string, number>>) => {
      const b = bounds(shapeBlend(model, Float32Array.from(model.shapeNames, (n) => shape[n] ?? 0)).vertices);
      return b[5] - b[2];
    };
    expect(h({ height: 1 })).toBeGreaterThan(h({}) + 0.05);
    expect(h({ height: -1 })).toBeLessThan(h({}) - 0.05);
    expect(h({ gender: 1 })).toBeGreaterThan(h({ gender: -1 }));
  });

  it.skipIf(!existsSync(resolve(SHARED_DATA, 'humans/makehuman/3dobjs/base.obj')))(
    'regenerates byte for byte from ../shared/data (no drift)',
    async () => {
      const files = await generateBodySetFiles((rel) => readSharedData(`humans/makehuman/${rel}`));
      expect([...files.keys()]).toEqual(['makehuman-lod0.json', 'makehuman-lod1.json', 'makehuman-lod2.json']);
      for (const [name, text] of files) expect(text === readFileSync(resolve(ASSETS, name), 'utf8'), `${name} drifted: run npx tsx src/humans/bake/make-body-set.ts`).toBe(true);
    },
    120_000,
  );
});
