import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { SplatFormatError } from '../splat-cloud';
import { loadPly } from './ply';
import { parsePlyHeader, locateElement, readColumn, type PlyScalarType } from './ply-reader';
import { editPlyHeader, expectCloudsClose, expectSaneCloud, headerLength, writePly } from './test-utils';

const FIXTURE = 'test-splat.3-points-from-train.ply';
const fixtureBytes = () => readSharedData(`splats/fixtures/${FIXTURE}`);

/** The fixture's raw vertex columns, by property name, in file order. */
function fixtureColumns(): Map<string, Float64Array> {
  const bytes = fixtureBytes();
  const header = parsePlyHeader(FIXTURE, bytes);
  const loc = locateElement(FIXTURE, bytes, header, 'vertex');
  return new Map(loc.element.properties.map((p) => [p.name, readColumn(FIXTURE, loc, p.name)]));
}

function expectError(fn: () => unknown, ...parts: string[]): void {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SplatFormatError);
    for (const p of parts) expect((e as Error).message).toContain(p);
    return;
  }
  expect.fail(`expected a SplatFormatError containing ${parts.join(', ')}`);
}

describe('loadPly (INRIA layout)', () => {
  it('loads fruit_drops_minimal.ply (4,721 splats, SH 3, extra "transform" property)', () => {
    const cloud = loadPly('fruit_drops_minimal.ply', readSharedData('splats/fruit_drops_minimal.ply'));
    expect(cloud.count).toBe(4721);
    expect(cloud.shDegree).toBe(3);
    expect(cloud.shRest.length).toBe(4721 * 15 * 3);
    expectSaneCloud(cloud);
    const meanOpacity = cloud.opacities.reduce((s, v) => s + v, 0) / cloud.count;
    expect(meanOpacity).toBeGreaterThan(0.1);
    expect(meanOpacity).toBeLessThan(0.3);
    // Higher-order SH are mostly non-zero in this capture.
    expect(cloud.shRest.filter((v) => v !== 0).length / cloud.shRest.length).toBeGreaterThan(0.9);
  });

  it('transposes f_rest from channel-major to coefficient-major/channel-minor', () => {
    const cols = fixtureColumns();
    const cloud = loadPly(FIXTURE, fixtureBytes());
    for (const [i, k, c] of [[0, 0, 0], [0, 0, 1], [1, 4, 2], [2, 14, 1], [2, 7, 0]]) {
      expect(cloud.shRest[(i * 15 + k) * 3 + c]).toBe(Math.fround(cols.get(`f_rest_${c * 15 + k}`)![i]));
    }
  });

  it('gives the same cloud for shuffled properties, other types, extra properties and elements', () => {
    const cols = fixtureColumns();
    const names = [...cols.keys()].filter((n) => !n.startsWith('n')); // drop the normals too
    // Deterministic shuffle (reverse + rotate), a double-typed position, an extra uchar property.
    const shuffled = [...names].reverse();
    shuffled.push(...shuffled.splice(0, 17));
    const typeOf = (n: string): PlyScalarType => (n === 'x' || n === 'opacity' ? 'float64' : 'float32');
    const props = shuffled.map((name) => ({ name, type: typeOf(name) }));
    props.splice(5, 0, { name: 'label', type: 'uint8' });
    const bytes = writePly([
      { name: 'camera', count: 2, properties: [{ name: 'id', type: 'int16' }, { name: 'f', type: 'float64' }], value: (r) => r * 7 },
      { name: 'vertex', count: 3, properties: props, value: (r, p) => (p === 'label' ? 200 + r : cols.get(p)![r]) },
      { name: 'face', count: 1, properties: [{ name: 'v', type: 'int32' }], value: () => -1 },
    ], { typeSpelling: 'sized', comments: ['rewritten by ply.test.ts'] });
    const expected = loadPly(FIXTURE, fixtureBytes());
    const actual = loadPly('shuffled.ply', bytes);
    expectCloudsClose(expected, actual, { position: 0, scaleLog: 0, opacity: 0, dc: 0, rotation: 0, shRest: 0 });
  });

  it('reads integer-typed properties', () => {
    const props = ['x', 'y', 'z', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'];
    const types: PlyScalarType[] = ['int8', 'int16', 'int32', 'uint8', 'uint16', 'uint32', 'int8', 'int8', 'int8', 'int8', 'int16', 'uint8', 'uint8', 'uint8'];
    const bytes = writePly([{
      name: 'vertex', count: 1, properties: props.map((name, i) => ({ name, type: types[i] })),
      value: (_r, p) => ({ x: -3, y: -300, z: -70000, f_dc_0: 200, f_dc_1: 60000, f_dc_2: 4e9, opacity: 0, rot_0: 2 } as Record<string, number>)[p] ?? 0,
    }]);
    const c = loadPly('ints.ply', bytes);
    expect(Array.from(c.positions)).toEqual([-3, -300, -70000]);
    expect(Array.from(c.shDc)).toEqual([200, 60000, 4e9].map(Math.fround));
    expect(c.opacities[0]).toBe(0.5);
    expect(Array.from(c.scales)).toEqual([1, 1, 1]);
    expect(Array.from(c.rotations)).toEqual([1, 0, 0, 0]);
  });
});

describe('loadPly errors', () => {
  it('truncated body: names the bytes expected and present', () => {
    const bytes = fixtureBytes();
    expectError(() => loadPly(FIXTURE, bytes.subarray(0, bytes.length - 10)), FIXTURE, 'truncated', `${bytes.length}`, `${bytes.length - 10}`);
  });

  it('missing required property', () => {
    expectError(() => loadPly(FIXTURE, editPlyHeader(fixtureBytes(), 'property float opacity', 'property float opacitx')),
      FIXTURE, 'missing required property "opacity"');
    expectError(() => loadPly(FIXTURE, editPlyHeader(fixtureBytes(), 'property float rot_3', 'property float rot_x')),
      FIXTURE, '"rot_3"');
  });

  it('NaN value: names the property and splat index', () => {
    const bytes = fixtureBytes().slice();
    const view = new DataView(bytes.buffer);
    const vertex = parsePlyHeader(FIXTURE, bytes).elements[0];
    const scale1 = vertex.properties.find((p) => p.name === 'scale_1')!;
    view.setFloat32(headerLength(bytes) + 2 * vertex.rowSize + scale1.offset, NaN, true);
    expectError(() => loadPly(FIXTURE, bytes), FIXTURE, 'non-finite', '"scale_1"', 'splat 2');
  });

  it('ascii and big-endian encodings are rejected by name', () => {
    expectError(() => loadPly(FIXTURE, editPlyHeader(fixtureBytes(), 'binary_little_endian', 'ascii')), FIXTURE, 'unsupported PLY encoding ascii');
    expectError(() => loadPly(FIXTURE, editPlyHeader(fixtureBytes(), 'binary_little_endian', 'binary_big_endian')), FIXTURE, 'binary_big_endian');
  });

  it('missing magic and truncated header', () => {
    const bytes = fixtureBytes().slice();
    bytes[0] = 0x50; // "Ply"
    expectError(() => loadPly(FIXTURE, bytes), FIXTURE, 'missing PLY magic');
    expectError(() => loadPly(FIXTURE, fixtureBytes().subarray(0, 300)), FIXTURE, 'truncated PLY header');
  });

  it('list property in the vertex element', () => {
    expectError(() => loadPly(FIXTURE, editPlyHeader(fixtureBytes(), 'property float nx', 'property list uchar float nx')),
      FIXTURE, 'list property "nx"', '"vertex"');
  });

  it('f_rest count that is not 0/9/24/45', () => {
    expectError(() => loadPly(FIXTURE, editPlyHeader(fixtureBytes(), 'property float f_rest_44', 'property float g_rest_44')),
      FIXTURE, 'f_rest_* count 44');
  });

  it('unknown property type and missing vertex element', () => {
    expectError(() => loadPly(FIXTURE, editPlyHeader(fixtureBytes(), 'property float nx', 'property half nx')), FIXTURE, 'type "half"');
    expectError(() => loadPly(FIXTURE, editPlyHeader(fixtureBytes(), 'element vertex 3', 'element points 3')), FIXTURE, 'no "vertex" element');
  });
});
