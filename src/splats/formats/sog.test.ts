import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { parseSogMeta } from './sog';
import { concatSplatClouds } from '../splat-cloud';
import { allocateSplatCloud } from '../splat-cloud';

const text = new TextDecoder().decode(readSharedData('splats/semarang-sog/5_0/meta.json'));

describe('parseSogMeta', () => {
  it('reads a real meta.json (count, codebooks, SH bands)', () => {
    const meta = parseSogMeta('5_0/meta.json', text);
    expect(meta.count).toBe(524_470);
    expect(meta.scales.codebook).toHaveLength(256);
    expect(meta.shN?.bands).toBe(3);
  });

  it('refuses other versions and names the field that is wrong', () => {
    const json = JSON.parse(text);
    expect(() => parseSogMeta('m.json', JSON.stringify({ ...json, version: 1 }))).toThrow('m.json: SOG version 1 is not supported (only version 2)');
    expect(() => parseSogMeta('m.json', JSON.stringify({ ...json, means: { ...json.means, mins: [0, 0] } }))).toThrow(/^m\.json: means\.mins: /);
    expect(() => parseSogMeta('m.json', '{oops')).toThrow(/^m\.json: not JSON/);
  });
});

describe('concatSplatClouds', () => {
  it('keeps every splat in order and pads missing SH bands with zeros', () => {
    const a = allocateSplatCloud(2, 0);
    a.positions.set([1, 2, 3, 4, 5, 6]);
    const b = allocateSplatCloud(1, 1);
    b.positions.set([7, 8, 9]);
    b.shRest.fill(0.5);
    const c = concatSplatClouds([a, b]);
    expect(c.count).toBe(3);
    expect(c.shDegree).toBe(1);
    expect(Array.from(c.positions)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(Array.from(c.shRest.subarray(0, 18))).toEqual(new Array(18).fill(0));
    expect(Array.from(c.shRest.subarray(18))).toEqual(new Array(9).fill(0.5));
  });
});
