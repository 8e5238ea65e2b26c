import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateWorld } from '../world';
import { shopSigns } from '../names';
import { bakeChunk, chunkGrid } from './chunks';
import { composeText } from './font-atlas';
import { GLYPH_H, rasteriseText, textWidth } from './glyphs';
import { bakeSign, FONT_CAP_SHARE, FONT_CAP_TEXELS, FONT_MARGIN_TEXELS, SIGN_MARGIN, signBlocks, signLayout, signTexelPoint, UNIFORM_TOLERANCE } from './sign';
import { bakeBuilding, storefrontSign } from './buildings';
import { SH_C0 } from '../../splats/splat-cloud';
import { SplatBuilder } from './splat-builder';

/** The splat index at a world point (within 10 µm), or −1. */
function splatAt(cloud: { count: number; positions: Float32Array }, p: readonly number[]): number {
  for (let k = 0; k < cloud.count; k++) if (Math.hypot(cloud.positions[3 * k] - p[0], cloud.positions[3 * k + 1] - p[1], cloud.positions[3 * k + 2] - p[2]) < 1e-5) return k;
  return -1;
}

describe('sign text, bitmap style (the older 5 × 7 font)', () => {
  it('rasterises capitals in the 5 × 7 font with one blank column between glyphs; lower case as capitals, unknown characters blank', () => {
    const t = rasteriseText('Ti');
    expect([t.width, t.height]).toEqual([11, GLYPH_H]);
    const row = (j: number) => Array.from(t.ink.subarray(j * t.width, (j + 1) * t.width)).join('');
    expect(row(0)).toBe('11111' + '0' + '01110');
    expect(row(6)).toBe('00100' + '0' + '01110');
    expect(Array.from(rasteriseText('ti').ink)).toEqual(Array.from(t.ink));
    expect(rasteriseText('a~b').ink.subarray(6, 11).every((v) => v === 0)).toBe(true);
    expect(textWidth('Rossi Bakery')).toBe(71);
  });

  it('fits the text on the board with 1.5 glyph pixels of margin, at most 1/10 of the band height per glyph pixel', () => {
    const l = signLayout('Rossi Bakery', 8, 0.9, 'bitmap')!;
    expect(l.style).toBe('bitmap');
    expect(l.texel).toBeCloseTo(0.09, 12);
    expect(l.height).toBeCloseTo(0.9, 12);
    expect(l.width).toBeCloseTo((71 + 2 * SIGN_MARGIN) * 0.09, 12);
    expect([l.cols, l.rows]).toEqual([71 + 4, GLYPH_H + 4]);
    const narrow = signLayout('Rossi Bakery', 3, 0.9, 'bitmap')!;
    expect(narrow.width).toBeCloseTo(3, 12);
    expect(signLayout('   ', 8, 0.9, 'bitmap')).toBeNull();
    expect(signLayout('A very long shop name indeed', 1, 0.9, 'bitmap')).toBeNull();
  });

  it('bakes one splat per glyph pixel and margin cell, ink where the text has ink, centred on the board', () => {
    const l = signLayout('AB', 2, 0.9, 'bitmap')!;
    const out = new SplatBuilder();
    bakeSign(out, l, [10, 20, 3], [1, 0], [0.1, 0.2, 0.6], [1, 1, 1]);
    expect(out.count).toBe(l.cols * l.rows);
    const cloud = out.toCloud([0, 0, 0]);
    // Glyph pixel (0, 0) of "A" (texel (2, 2)) is board (its top row is .###.), (1, 0) ink.
    const ink = (i: number, j: number) => cloud.shDc[3 * splatAt(cloud, signTexelPoint(l, [10, 20, 3], [1, 0], i, j))] > 0;
    expect(ink(2, 2)).toBe(false);
    expect(ink(3, 2)).toBe(true);
    // The text is centred: its first and last columns sit symmetrically about the centre, its middle row at the centre's height.
    const [x0, x1] = [l.textBox[0], l.textBox[1] - 1];
    expect(signTexelPoint(l, [10, 20, 3], [1, 0], x0, 5)[0] - 10).toBeCloseTo(-(signTexelPoint(l, [10, 20, 3], [1, 0], x1, 5)[0] - 10), 12);
    expect(signTexelPoint(l, [10, 20, 3], [1, 0], x0, 5)[2]).toBeCloseTo(3, 12);
  });

  it('bakes a world byte for byte as before the font style and the fine surface detail existed', { timeout: 120_000 }, () => {
    const world = generateWorld({ seed: 1 });
    const grid = chunkGrid(world, 32);
    const h = createHash('sha256');
    let total = 0;
    for (let id = 0; id < grid.nx * grid.ny; id++) {
      const c = bakeChunk(world, grid, id, { signStyle: 'bitmap', surfaceDetail: 'coarse' }).cloud;
      total += c.count;
      for (const a of [c.positions, c.shDc, c.scales]) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    }
    expect(total).toBe(2_871_296);
    expect(h.digest('hex').slice(0, 16)).toBe('0845c6be77beaa2a');
  });
});

describe('sign text, font style (DejaVu Sans Bold atlas)', () => {
  it('sets the name in capitals from the atlas: cap height 18 texels, margins, centred; shrinks to the width; null when too small', () => {
    const l = signLayout('Rossi Bakery', 8, 0.9, 'font')!;
    const t = composeText('ROSSI BAKERY');
    expect(l.style).toBe('font');
    expect(l.rows).toBe(Math.round(FONT_CAP_TEXELS / FONT_CAP_SHARE));
    expect(l.cols).toBe(t.width + 2 * FONT_MARGIN_TEXELS);
    expect(l.texel).toBeCloseTo(0.9 / l.rows, 12);
    expect([l.width, l.height]).toEqual([l.cols * l.texel, l.rows * l.texel]);
    // Cap height 0.6 m on the 0.9 m board.
    expect(FONT_CAP_TEXELS * l.texel).toBeCloseTo(0.6, 2);
    const [x0, x1, y0, y1] = l.textBox;
    expect([x0, x1, y1 - y0]).toEqual([FONT_MARGIN_TEXELS, FONT_MARGIN_TEXELS + t.width, FONT_CAP_TEXELS]);
    // The coverage is the composed text, its baseline at the cap box's bottom; the margins are blank.
    for (let r = 0; r < t.height; r++) {
      const j = y1 - t.baseline + r;
      if (j < 0 || j >= l.rows) continue;
      expect(Array.from(l.coverage.subarray(j * l.cols + x0, j * l.cols + x1))).toEqual(Array.from(t.coverage.subarray(r * t.width, (r + 1) * t.width)));
    }
    for (let j = 0; j < l.rows; j++) for (const i of [0, FONT_MARGIN_TEXELS - 1, x1, l.cols - 1]) expect(l.coverage[j * l.cols + i]).toBe(0);
    // Lower case as capitals.
    expect(Array.from(signLayout('rossi bakery', 8, 0.9, 'font')!.coverage)).toEqual(Array.from(l.coverage));
    const narrow = signLayout('Rossi Bakery', 3, 0.9, 'font')!;
    expect(narrow.width).toBeCloseTo(3, 12);
    expect(narrow.cols).toBe(l.cols);
    expect(signLayout('   ', 8, 0.9, 'font')).toBeNull();
    expect(signLayout('A very long shop name indeed', 1, 0.9, 'font')).toBeNull();
  });

  it('covers every texel with exactly one splat rectangle, merged only over uniform regions', () => {
    const l = signLayout('Kowalski Hardware', 8, 0.9, 'font')!;
    const blocks = signBlocks(l);
    const hits = new Uint8Array(l.cols * l.rows);
    for (const [i, j, kx, ky, c] of blocks) {
      for (let y = j; y < j + ky; y++) for (let x = i; x < i + kx; x++) hits[y * l.cols + x]++;
      if (kx * ky === 1) {
        expect(c).toBe(l.coverage[j * l.cols + i]);
        continue;
      }
      // The block and half its size around it (inside the board) stay within the tolerance of its colour.
      for (let y = Math.max(0, j - (ky >> 1)); y < Math.min(l.rows, j + ky + (ky >> 1)); y++) {
        for (let x = Math.max(0, i - (kx >> 1)); x < Math.min(l.cols, i + kx + (kx >> 1)); x++) expect(Math.abs(l.coverage[y * l.cols + x] - c)).toBeLessThanOrEqual(UNIFORM_TOLERANCE);
      }
    }
    expect(hits.every((h) => h === 1)).toBe(true);
    // Far fewer splats than texels, yet every partly covered texel keeps its own.
    expect(blocks.length).toBeLessThan(0.5 * l.cols * l.rows);
    const partial = Array.from(l.coverage).filter((v) => v > UNIFORM_TOLERANCE && v < 255 - UNIFORM_TOLERANCE).length;
    expect(blocks.filter((b) => b[2] * b[3] === 1).length).toBeGreaterThanOrEqual(partial * 0.9);
  });

  it('bakes splats coloured board + (ink − board) × coverage, sized 0.6 × their rectangle, deterministic', () => {
    const l = signLayout('Xu Cafe', 8, 0.9, 'font')!;
    const board: [number, number, number] = [0.94, 0.9, 0.8], ink: [number, number, number] = [0.42, 0.04, 0.04];
    const out = new SplatBuilder();
    bakeSign(out, l, [5, -3, 4], [0, 1], board, ink);
    const blocks = signBlocks(l);
    expect(out.count).toBe(blocks.length);
    const cloud = out.toCloud([0, 0, 0]);
    for (const [k, [i, j, kx, ky, c]] of blocks.entries()) {
      const p = signTexelPoint(l, [5, -3, 4], [0, 1], i + (kx - 1) / 2, j + (ky - 1) / 2);
      for (let a = 0; a < 3; a++) expect(cloud.positions[3 * k + a]).toBeCloseTo(p[a], 5);
      const red = cloud.shDc[3 * k] * SH_C0 + 0.5;
      expect(red).toBeCloseTo(board[0] + (ink[0] - board[0]) * (c / 255), 5);
      expect(cloud.scales[3 * k]).toBeCloseTo(0.6 * kx * l.texel, 6);
      expect(cloud.scales[3 * k + 1]).toBeCloseTo(0.6 * ky * l.texel, 6);
    }
    const again = new SplatBuilder();
    bakeSign(again, l, [5, -3, 4], [0, 1], board, ink);
    expect(Buffer.from(again.toCloud([0, 0, 0]).shDc.buffer).equals(Buffer.from(cloud.shDc.buffer))).toBe(true);
  });

  it("is a storefront's font sign: a box sign 15 cm proud of the wall, light board and dark ink, the wall behind it backed by small splats", () => {
    const world = generateWorld({ seed: 1 });
    const [id, text] = [...shopSigns(world)][0];
    const b = world.obstacles.find((o) => o.id === id)!;
    const font = storefrontSign(b, world.curbHeight, text, 'font')!, bitmap = storefrontSign(b, world.curbHeight, text, 'bitmap')!;
    expect(font.layout.style).toBe('font');
    expect([font.offset, bitmap.offset]).toEqual([0.15, 0.03]);
    // Same place on the wall: the centres differ only along the normal.
    expect(font.centre[0] - bitmap.centre[0]).toBeCloseTo(font.normal[0] * 0.12, 9);
    expect(font.centre[1] - bitmap.centre[1]).toBeCloseTo(font.normal[1] * 0.12, 9);
    const out = new SplatBuilder();
    bakeBuilding(b, world.curbHeight, world.seed, out, text, 'font');
    const cloud = out.toCloud([0, 0, 0]);
    // The board's splats (in its plane, within its outline): the texel most covered is dark, the margin light.
    const l = font.layout;
    const luma = (i: number, j: number) => {
      const k = splatAt(cloud, signTexelPoint(l, font.centre, font.along, i, j));
      return k < 0 ? null : [0, 1, 2].reduce((s, a, n) => s + [0.299, 0.587, 0.114][n] * (cloud.shDc[3 * k + a] * SH_C0 + 0.5), 0);
    };
    const inkTexel = l.coverage.indexOf(255);
    expect(luma(inkTexel % l.cols, Math.floor(inkTexel / l.cols))!).toBeLessThan(0.3);
    const margin = signBlocks(l).find((q) => q[4] === 0 && q[2] * q[3] === 1)!;
    expect(luma(margin[0], margin[1])!).toBeGreaterThan(0.75);
    // Wall splats behind the board are small (σ ≤ 0.05 m); beside it, the facade's σ 0.18 m.
    let behind = 0;
    for (let k = 0; k < cloud.count; k++) {
      const dx = cloud.positions[3 * k] - font.centre[0], dy = cloud.positions[3 * k + 1] - font.centre[1], dz = cloud.positions[3 * k + 2] - font.centre[2];
      const depth = -(dx * font.normal[0] + dy * font.normal[1]), along = dx * font.along[0] + dy * font.along[1];
      if (depth > 0.13 && depth < 0.15 && Math.abs(along) < l.width / 2 - 0.2 && Math.abs(dz) < l.height / 2 - 0.2) {
        behind++;
        expect(Math.max(cloud.scales[3 * k], cloud.scales[3 * k + 1])).toBeLessThan(0.05);
      }
    }
    expect(behind).toBeGreaterThan(10);
  });
});
