import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { SH_C0, SplatFormatError, type SplatCloud } from '../splat-cloud';
import { loadCompressedPly } from './compressed-ply';
import { splatBounds } from './index';
import { loadPly } from './ply';
import { locateElement, parsePlyHeader, readColumn } from './ply-reader';
import { editPlyHeader, expectCloudsClose, expectSaneCloud, writePly } from './test-utils';

const CAPTURES = [
  { file: 'guitar.compressed.ply', count: 90854, chunks: 355, colorRange: true },
  { file: 'angel.compressed.ply', count: 71377, chunks: 279, colorRange: false },
];

function packedColumns(file: string, bytes: Uint8Array): Record<string, Float64Array> {
  const header = parsePlyHeader(file, bytes);
  const out: Record<string, Float64Array> = {};
  for (const el of ['chunk', 'vertex']) {
    const loc = locateElement(file, bytes, header, el);
    for (const p of loc.element.properties) out[p.name] = readColumn(file, loc, p.name);
  }
  return out;
}

describe.each(CAPTURES)('$file', ({ file, count, chunks, colorRange }) => {
  const bytes = readSharedData(`splats/${file}`);
  const cloud = loadCompressedPly(file, bytes);
  const raw = packedColumns(file, bytes);

  it('loads with sane values', () => {
    expect(cloud.count).toBe(count);
    expect(cloud.shDegree).toBe(0);
    expect(raw.min_x.length).toBe(chunks);
    expect('min_r' in raw).toBe(colorRange);
    expectSaneCloud(cloud);
    // Splat sizes of a real object capture: millimetres to decimetres.
    const sorted = Float32Array.from(cloud.scales).sort();
    expect(sorted[sorted.length >> 1]).toBeGreaterThan(1e-4);
    expect(sorted[sorted.length >> 1]).toBeLessThan(0.1);
  });

  it('has plausible robust bounds (an object of a few metres, floaters ignored)', () => {
    const b = splatBounds(cloud);
    const full = splatBounds(cloud, 0, 1);
    expect(b.radius).toBeGreaterThan(0.3);
    expect(b.radius).toBeLessThan(5);
    expect(b.radius).toBeLessThanOrEqual(full.radius);
    for (let a = 0; a < 3; a++) {
      expect(b.min[a]).toBeLessThan(b.max[a]);
      expect(b.min[a]).toBeGreaterThanOrEqual(full.min[a]);
      expect(b.center[a]).toBeCloseTo((b.min[a] + b.max[a]) / 2, 6);
    }
  });

  it('11/10/11 fields: every full chunk reaches unorm 0 and 1 on each axis (the packer normalises per chunk)', () => {
    const fields = [[21, 0x7ff], [11, 0x3ff], [0, 0x7ff]] as const;
    const props = colorRange ? ['packed_position', 'packed_scale', 'packed_color'] : ['packed_position', 'packed_scale'];
    let checked = 0;
    for (const prop of props) {
      const layout = prop === 'packed_color' ? ([[24, 0xff], [16, 0xff], [8, 0xff]] as const) : fields;
      // The last, partial chunk is skipped: older SuperSplat builds padded it with other values.
      for (let c = 0; c < Math.floor(count / 256); c++) {
        for (const [shift, mask] of layout) {
          let lo = Infinity, hi = -Infinity;
          for (let i = c * 256; i < Math.min(count, (c + 1) * 256); i++) {
            const v = (raw[prop][i] >>> shift) & mask;
            lo = Math.min(lo, v); hi = Math.max(hi, v);
          }
          if (hi === 0) continue; // degenerate range (all equal) packs to 0
          expect([lo, hi], `${prop} chunk ${c} shift ${shift}`).toEqual([0, mask]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(chunks * 5);
  });

  it('rotation: the component named by bits 30..31 is the largest in magnitude', () => {
    for (let i = 0; i < count; i++) {
      const largest = raw.packed_rotation[i] >>> 30;
      const q = cloud.rotations.subarray(4 * i, 4 * i + 4);
      for (let j = 0; j < 4; j++) {
        if (Math.abs(q[j]) > q[largest] + 2e-3) expect.fail(`splat ${i}: |q[${j}]| = ${q[j]} > q[${largest}] = ${q[largest]}`);
      }
    }
  });

  it('chunk count mismatch and truncation are errors', () => {
    expect(() => loadCompressedPly(file, editPlyHeader(bytes, `element chunk ${chunks}`, `element chunk ${chunks - 1}`)))
      .toThrow(new RegExp(`${file}: chunk count ${chunks - 1} does not match ${count} splats`));
    expect(() => loadCompressedPly(file, bytes.subarray(0, bytes.length - 4)))
      .toThrow(new RegExp(`${file}: truncated PLY body: element "vertex" needs ${bytes.length} bytes .* has ${bytes.length - 4}`));
    expect(() => loadCompressedPly(file, editPlyHeader(bytes, 'min_scale_y', 'min_scale_q')))
      .toThrow(/missing required property "min_scale_y" in element "chunk"/);
  });
});

// An independent encoder following playcanvas/splat-transform compressed-chunk.ts and
// write-compressed-ply.ts, used to round-trip the 3-splat fixture with SH.
function encodeCompressed(src: SplatCloud, rawScaleLog: Float32Array, withColorRange: boolean): Uint8Array {
  const n = src.count;
  const range = (f: (i: number) => number) => {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) { lo = Math.min(lo, f(i)); hi = Math.max(hi, f(i)); }
    return [lo, hi];
  };
  const norm = (x: number, [lo, hi]: number[]) => (x <= lo ? 0 : x >= hi ? 1 : hi - lo < 1e-5 ? 0 : (x - lo) / (hi - lo));
  const unorm = (v: number, bits: number) => Math.max(0, Math.min((1 << bits) - 1, Math.floor(v * ((1 << bits) - 1) + 0.5)));
  const p111011 = (a: number, b: number, c: number) => ((unorm(a, 11) << 21) | (unorm(b, 10) << 11) | unorm(c, 11)) >>> 0;
  const pr = [0, 1, 2].map((a) => range((i) => src.positions[3 * i + a]));
  const sr = [0, 1, 2].map((a) => range((i) => rawScaleLog[3 * i + a]));
  const color = (i: number, a: number) => src.shDc[3 * i + a] * SH_C0 + 0.5;
  const cr = [0, 1, 2].map((a) => (withColorRange ? range((i) => color(i, a)) : [0, 1]));
  const chunkNames = ['min_x', 'min_y', 'min_z', 'max_x', 'max_y', 'max_z', 'min_scale_x', 'min_scale_y', 'min_scale_z',
    'max_scale_x', 'max_scale_y', 'max_scale_z', ...(withColorRange ? ['min_r', 'min_g', 'min_b', 'max_r', 'max_g', 'max_b'] : [])];
  const chunkValues = [...pr.map((r) => r[0]), ...pr.map((r) => r[1]), ...sr.map((r) => r[0]), ...sr.map((r) => r[1]),
    ...(withColorRange ? [...cr.map((r) => r[0]), ...cr.map((r) => r[1])] : [])];
  const packRot = (i: number) => {
    const q = Array.from(src.rotations.subarray(4 * i, 4 * i + 4));
    const largest = q.reduce((best, v, j) => (Math.abs(v) > Math.abs(q[best]) ? j : best), 0);
    const s = q[largest] < 0 ? -1 : 1;
    let r = largest;
    for (let j = 0; j < 4; j++) if (j !== largest) r = (r << 10) | unorm(s * q[j] * Math.SQRT1_2 + 0.5, 10);
    return r >>> 0;
  };
  const packed: Record<string, (i: number) => number> = {
    packed_position: (i) => p111011(...([0, 1, 2].map((a) => norm(src.positions[3 * i + a], pr[a])) as [number, number, number])),
    packed_rotation: packRot,
    packed_scale: (i) => p111011(...([0, 1, 2].map((a) => norm(rawScaleLog[3 * i + a], sr[a])) as [number, number, number])),
    packed_color: (i) => ((unorm(norm(color(i, 0), cr[0]), 8) << 24) | (unorm(norm(color(i, 1), cr[1]), 8) << 16) |
      (unorm(norm(color(i, 2), cr[2]), 8) << 8) | unorm(src.opacities[i], 8)) >>> 0,
  };
  const k = 15;
  return writePly([
    { name: 'chunk', count: 1, properties: chunkNames.map((name) => ({ name, type: 'float32' as const })), value: (_r, p) => chunkValues[chunkNames.indexOf(p)] },
    { name: 'vertex', count: n, properties: Object.keys(packed).map((name) => ({ name, type: 'uint32' as const })), value: (r, p) => packed[p](r) },
    {
      name: 'sh', count: n, properties: Array.from({ length: 3 * k }, (_, j) => ({ name: `f_rest_${j}`, type: 'uint8' as const })),
      value: (r, p) => {
        const j = Number(p.slice(7)), c = Math.floor(j / k), coeff = j % k; // channel-major in the file
        return Math.max(0, Math.min(255, Math.trunc((src.shRest[(r * k + coeff) * 3 + c] / 8 + 0.5) * 256)));
      },
    },
  ]);
}

describe('compressed PLY round trip of the 3-splat fixture', () => {
  const FIXTURE = 'splats/fixtures/test-splat.3-points-from-train.ply';
  const ply = loadPly('fixture.ply', readSharedData(FIXTURE));
  const logScales = ply.scales.map(Math.log);

  it.each([true, false])('with chunk colour range: %s', (withColorRange) => {
    const cloud = loadCompressedPly('roundtrip.compressed.ply', encodeCompressed(ply, logScales, withColorRange));
    expectSaneCloud(cloud);
    const span = (arr: Float32Array, a: number) => Math.abs(arr[a] - arr[3 + a]) + Math.abs(arr[3 + a] - arr[6 + a]) + Math.abs(arr[a] - arr[6 + a]);
    const maxSpan = (arr: Float32Array) => Math.max(span(arr, 0), span(arr, 1), span(arr, 2));
    expectCloudsClose(ply, cloud, {
      position: maxSpan(ply.positions) / 1023 / 2 + 1e-6, // ≤ half a 10-bit step of the widest range
      scaleLog: maxSpan(logScales) / 1023 / 2 + 1e-5,
      opacity: 0.5 / 255 + 1e-6,
      dc: 0.5 / 255 / SH_C0 + 1e-5, // half an 8-bit step (colour ranges here are within [0, 1])
      rotation: Math.SQRT2 / 1023 + 1e-4,
      shRest: 4 / 256 + 1e-6, // bucket centre of 8/256-wide buckets
    });
  });

  it('rejects a non-compressed PLY', () => {
    expect(() => loadCompressedPly('plain.ply', readSharedData(FIXTURE))).toThrow(SplatFormatError);
  });
});
