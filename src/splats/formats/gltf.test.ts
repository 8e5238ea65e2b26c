/**
 * glTF `KHR_gaussian_splatting` loader: files written with @gltf-transform/core (an independent
 * writer) from known clouds, hand-packed GLBs for legacy and malformed input.
 */
import { VertexLayout } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { readSharedData } from '../../../test/shared-data';
import { evalSplatColor } from '../spherical-harmonics';
import { allocateSplatCloud, SH_C0, SplatFormatError, type SplatCloud } from '../splat-cloud';
import { loadGltfSplats } from './gltf';
import { loadSplatFile, sniffSplatFormat } from './index';
import { attrs, editedGlb, EXT, io, packGlb, randomCloud, splatDocument, unpackGlb, writeGlb, type WriteOptions } from './gltf-test-utils';
import { expectCloudsClose, expectSaneCloud } from './test-utils';

function expectError(fn: () => unknown, message: string | RegExp): void {
  let err: unknown;
  try { fn(); } catch (e) { err = e; }
  expect(err).toBeInstanceOf(SplatFormatError);
  if (typeof message === 'string') expect((err as Error).message).toBe(message);
  else expect((err as Error).message).toMatch(message);
}

/** Row-major rotation of (w, x, y, z). */
function rot3(w: number, x: number, y: number, z: number): number[] {
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}
const matMul = (a: number[], b: number[]) => Array.from({ length: 9 }, (_, k) => a[3 * Math.floor(k / 3)] * b[k % 3] + a[3 * Math.floor(k / 3) + 1] * b[3 + (k % 3)] + a[3 * Math.floor(k / 3) + 2] * b[6 + (k % 3)]);
const transpose = (a: number[]) => [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]];
const apply = (a: number[], v: number[]) => [0, 1, 2].map((r) => a[3 * r] * v[0] + a[3 * r + 1] * v[1] + a[3 * r + 2] * v[2]);

/** Splat i's covariance R S² Rᵀ (row-major). */
function covariance(c: SplatCloud, i: number): number[] {
  const R = rot3(c.rotations[4 * i], c.rotations[4 * i + 1], c.rotations[4 * i + 2], c.rotations[4 * i + 3]);
  const S2 = [0, 1, 2].map((a) => c.scales[3 * i + a] ** 2);
  const RS = R.map((v, k) => v * S2[k % 3]);
  return matMul(RS, transpose(R));
}

/** RDF ↔ RUB axis change diag(1, −1, −1). */
const FLIP = [1, 0, 0, 0, -1, 0, 0, 0, -1];

/**
 * Checks `got` is `src` moved by the glTF node transform A·p + t (glTF axes, A = rotation `q`
 * (x, y, z, w) × diag(scale)), seen in RDF: centres (F A F) p + F t, covariances (F A F) Σ (F A F)ᵀ,
 * and the colour towards R'·d equal to the source's towards d, with R' = F R F.
 */
function expectTransformed(src: SplatCloud, got: SplatCloud, q: [number, number, number, number], scale: number[], t: number[]): void {
  const R = rot3(q[3], q[0], q[1], q[2]);
  const A = R.map((v, k) => v * scale[k % 3]);
  const B = matMul(matMul(FLIP, A), FLIP), Rp = matMul(matMul(FLIP, R), FLIP);
  const tb = apply(FLIP, t);
  expect(got.count).toBe(src.count);
  expect(got.shDegree).toBe(src.shDegree);
  const dirs = [[0, 0, 1], [1, 0, 0], [0.6, -0.8, 0], [-0.48, 0.6, 0.64]];
  const c1 = new Float64Array(3), c2 = new Float64Array(3);
  for (let i = 0; i < src.count; i++) {
    const p = apply(B, Array.from(src.positions.subarray(3 * i, 3 * i + 3))).map((v, a) => v + tb[a]);
    for (let a = 0; a < 3; a++) expect(got.positions[3 * i + a]).toBeCloseTo(p[a], 4);
    const want = matMul(matMul(B, covariance(src, i)), transpose(B));
    const have = covariance(got, i);
    const norm = Math.max(...want.map(Math.abs));
    for (let k = 0; k < 9; k++) expect(Math.abs(have[k] - want[k]) / norm, `splat ${i} covariance ${k}`).toBeLessThan(2e-5);
    expect(got.opacities[i]).toBe(src.opacities[i]);
    for (const d of dirs) {
      evalSplatColor(src, i, d, c1);
      evalSplatColor(got, i, apply(Rp, d), c2);
      for (let c = 0; c < 3; c++) expect(c2[c]).toBeCloseTo(c1[c], 4);
    }
  }
}

describe('loadGltfSplats', () => {
  it('round-trips fruit_drops_minimal.ply (4721 splats, SH degree 3) through a float .glb', async () => {
    const ply = loadSplatFile('fruit_drops_minimal.ply', readSharedData('splats/fruit_drops_minimal.ply'));
    expect([ply.count, ply.shDegree]).toEqual([4721, 3]);
    const { glb } = await writeGlb(ply);
    expect(sniffSplatFormat('capture.bin', glb)).toBe('gltf');
    const cloud = loadSplatFile('fruit.glb', glb);
    expectSaneCloud(cloud);
    // Float32 in and out, the axis change is a sign flip: bit-exact except the renormalised quaternions.
    expectCloudsClose(ply, cloud, { position: 0, scaleLog: 0, opacity: 0, dc: 0, rotation: 2e-7, shRest: 0 });
    // Spot values: splat 0 in glTF axes is (x, −y, −z) of the PLY's.
    const { json, bin } = unpackGlb(glb);
    const acc = json.accessors![attrs(json).POSITION];
    const view = json.bufferViews![acc.bufferView!];
    const stored = new DataView(bin.buffer, bin.byteOffset + (view.byteOffset ?? 0) + (acc.byteOffset ?? 0));
    expect([stored.getFloat32(0, true), stored.getFloat32(4, true), stored.getFloat32(8, true)])
      .toEqual([ply.positions[0], -ply.positions[1], -ply.positions[2]]);
  }, 30_000); // ~1 s alone; a loaded 2-core machine has taken 6.6 s

  it('reads separate (non-interleaved) buffer views the same as interleaved ones', async () => {
    const src = randomCloud(300, 1, 2);
    const a = loadGltfSplats('a.glb', (await writeGlb(src, { layout: VertexLayout.SEPARATE })).glb);
    const b = loadGltfSplats('b.glb', (await writeGlb(src, { layout: VertexLayout.INTERLEAVED })).glb);
    expectCloudsClose(src, a, { position: 0, scaleLog: 0, opacity: 0, dc: 0, rotation: 2e-7, shRest: 0 });
    expectCloudsClose(a, b, { position: 0, scaleLog: 0, opacity: 0, dc: 0, rotation: 0, shRest: 0 });
    const { json } = unpackGlb((await writeGlb(src, { layout: VertexLayout.INTERLEAVED })).glb);
    expect(json.bufferViews!.some((v) => (v.byteStride ?? 0) > 12)).toBe(true);
  });

  it('maps glTF axes to RDF on a hand-checked splat', async () => {
    // One splat, written directly in glTF terms: centre (1, 2, 3), 90° about glTF +Y, SH band 1 only in m = −1 (the y term).
    const s = Math.SQRT1_2;
    const json = {
      asset: { version: '2.0' }, extensionsUsed: [EXT],
      buffers: [{ byteLength: 96 }],
      bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 96 }],
      accessors: [
        { bufferView: 0, byteOffset: 0, componentType: 5126, count: 1, type: 'VEC3' },
        { bufferView: 0, byteOffset: 12, componentType: 5126, count: 1, type: 'VEC4' },
        { bufferView: 0, byteOffset: 28, componentType: 5126, count: 1, type: 'VEC3' },
        { bufferView: 0, byteOffset: 40, componentType: 5126, count: 1, type: 'SCALAR' },
        { bufferView: 0, byteOffset: 44, componentType: 5126, count: 1, type: 'VEC3' },
        { bufferView: 0, byteOffset: 56, componentType: 5126, count: 1, type: 'VEC3' },
        { bufferView: 0, byteOffset: 68, componentType: 5126, count: 1, type: 'VEC3' },
        { bufferView: 0, byteOffset: 80, componentType: 5126, count: 1, type: 'VEC3' },
      ],
      meshes: [{ primitives: [{ mode: 0, extensions: { [EXT]: { kernel: 'ellipse', colorSpace: 'srgb_rec709_display' } }, attributes: {
        POSITION: 0, [`${EXT}:ROTATION`]: 1, [`${EXT}:SCALE`]: 2, [`${EXT}:OPACITY`]: 3, [`${EXT}:SH_DEGREE_0_COEF_0`]: 4,
        [`${EXT}:SH_DEGREE_1_COEF_0`]: 5, [`${EXT}:SH_DEGREE_1_COEF_1`]: 6, [`${EXT}:SH_DEGREE_1_COEF_2`]: 7,
      } }] }],
      nodes: [{ mesh: 0 }], scenes: [{ nodes: [0] }], scene: 0,
    };
    const bin = new Float32Array([1, 2, 3, 0, s, 0, s, 0.1, 0.2, 0.3, 0.75, 0.5, -0.5, 1, 0.4, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const cloud = loadGltfSplats('one.glb', packGlb(json, new Uint8Array(bin.buffer)));
    expect(Array.from(cloud.positions)).toEqual([1, -2, -3]);
    // 90° about glTF +Y is 90° about −y in RDF: (w, x, y, z) = (√½, 0, −√½, 0).
    expect(Array.from(cloud.rotations).map((v) => +v.toFixed(6))).toEqual([+s.toFixed(6), 0, -s.toFixed(6), 0]);
    expect(Array.from(cloud.scales)).toEqual([Math.fround(0.1), Math.fround(0.2), Math.fround(0.3)]);
    expect(cloud.opacities[0]).toBe(0.75);
    expect(Array.from(cloud.shDc)).toEqual([0.5, -0.5, 1]);
    // The y-term coefficient flips sign with y: the colour looking along glTF +Y (RDF −y) is unchanged.
    expect(Array.from(cloud.shRest.subarray(0, 3)).map((v) => +v.toFixed(6))).toEqual([-0.4, 0, 0]);
    const c = evalSplatColor(cloud, 0, [0, -1, 0], new Float64Array(3));
    expect(c[0]).toBeCloseTo(SH_C0 * 0.5 - 0.4886025119029199 * 0.4 * 1 + 0.5, 6);
  });

  it('reads normalised integer rotations, scales and opacities (and quantised positions)', async () => {
    const src = randomCloud(200, 0, 3);
    const cases: WriteOptions[] = [
      { rotation: 'i8n', scale: 'u8n', opacity: 'u8n', position: 'i16n' },
      { rotation: 'i16n', scale: 'u16n', opacity: 'u16n', position: 'i8n' },
    ];
    // Positions and scales must fit the normalised range: shrink the cloud to ±0.5 m, scales < 1.
    const small = { ...src, positions: src.positions.map((v) => v / 10) };
    for (const o of cases) {
      const { glb, expected } = await writeGlb(small, o);
      const { json } = unpackGlb(glb);
      const rot = json.accessors![attrs(json)[`${EXT}:ROTATION`]];
      expect([rot.componentType, rot.normalized]).toEqual([o.rotation === 'i8n' ? 5120 : 5122, true]);
      const cloud = loadGltfSplats('q.glb', glb);
      expectSaneCloud(cloud);
      expectCloudsClose(expected, cloud, { position: 1e-7, scaleLog: 1e-6, opacity: 1e-7, dc: 0, rotation: 1e-6 });
      // And within the quantisation step of the source.
      const step = o.rotation === 'i8n' ? 1 / 127 : 1 / 32767;
      const coarse = o.scale === 'u8n'; // scales ≥ e^−4 ≈ 0.018 quantised in steps of 1/255
      expectCloudsClose(small, cloud, {
        position: o.position === 'i8n' ? 0.5 / 127 : 0.5 / 32767, scaleLog: coarse ? 0.12 : 5e-4,
        opacity: o.opacity === 'u8n' ? 0.5 / 255 : 0.5 / 65535, dc: 0, rotation: 2 * step,
      });
    }
    // −128 decodes to −1 like −127 (glTF §3.11): quaternion (0, 0, −1, 0) in glTF (x, y, z, w) → w = 0, y = +1 in RDF.
    const { json, bin } = unpackGlb((await writeGlb(randomCloud(1, 0, 4), { rotation: 'i8n' })).glb);
    const acc = json.accessors![attrs(json)[`${EXT}:ROTATION`]];
    const view = json.bufferViews![acc.bufferView!];
    const at = (view.byteOffset ?? 0) + (acc.byteOffset ?? 0);
    bin.set([0, 0x80, 0, 0], at); // (x, y, z, w) = (0, −128, 0, 0)
    const cloud = loadGltfSplats('q.glb', packGlb(json, bin));
    expect(Array.from(cloud.rotations, (v) => v + 0)).toEqual([0, 0, 1, 0]);
  });

  it('reads integer (non-normalised) scales', async () => {
    const src = randomCloud(50, 0, 5);
    for (let k = 0; k < src.scales.length; k++) src.scales[k] = 1 + (k % 7);
    for (const scale of ['u8', 'u16'] as const) {
      const { glb } = await writeGlb(src, { scale });
      expect(unpackGlb(glb).json.accessors![attrs(unpackGlb(glb).json)[`${EXT}:SCALE`]].componentType).toBe(scale === 'u8' ? 5121 : 5123);
      expect(Array.from(loadGltfSplats('s.glb', glb).scales)).toEqual(Array.from(src.scales));
    }
  });

  it('applies the node translation, rotation and uniform scale, rotating the SH bands', async () => {
    const src = randomCloud(60, 3, 6);
    const q: [number, number, number, number] = [0.2, -0.5, 0.3, 0.7874007874011811]; // unit (x, y, z, w)
    const t = [1, -2, 3];
    const { glb } = await writeGlb(src, { node: { translation: t as [number, number, number], rotation: q, scale: [2, 2, 2] } });
    expectTransformed(src, loadGltfSplats('n.glb', glb), q, [2, 2, 2], t);
  });

  it('composes parent and child transforms', async () => {
    const src = randomCloud(40, 2, 7);
    const q: [number, number, number, number] = [0, Math.sin(0.3), 0, Math.cos(0.3)];
    // parent: translate (0, 5, 0), scale 3; child: rotate q → global A = 3·R, t = (0, 5, 0).
    const { glb } = await writeGlb(src, { parent: { translation: [0, 5, 0], scale: [3, 3, 3] }, node: { rotation: q } });
    expectTransformed(src, loadGltfSplats('p.glb', glb), q, [3, 3, 3], [0, 5, 0]);
  });

  it('re-diagonalises covariances under a non-uniform node scale', async () => {
    const src = randomCloud(60, 1, 8);
    const q: [number, number, number, number] = [0.5, 0.5, -0.5, 0.5];
    const { glb } = await writeGlb(src, { node: { rotation: q, scale: [1, 2.5, 0.4] } });
    const cloud = loadGltfSplats('ns.glb', glb);
    expectSaneCloud(cloud);
    expectTransformed(src, cloud, q, [1, 2.5, 0.4], [0, 0, 0]);
  });

  it('reads a node matrix like the equivalent TRS', async () => {
    const src = randomCloud(20, 1, 9);
    const q: [number, number, number, number] = [0, 0, Math.sin(0.4), Math.cos(0.4)];
    const glb = await editedGlb(src, (json) => {
      const R = rot3(q[3], q[0], q[1], q[2]);
      // column-major: T · R · diag(1.5)
      json.nodes![0].matrix = [R[0] * 1.5, R[3] * 1.5, R[6] * 1.5, 0, R[1] * 1.5, R[4] * 1.5, R[7] * 1.5, 0, R[2] * 1.5, R[5] * 1.5, R[8] * 1.5, 0, 4, 5, 6, 1];
    });
    expectTransformed(src, loadGltfSplats('m.glb', glb), q, [1.5, 1.5, 1.5], [4, 5, 6]);
  });

  it('reads sparse accessors', async () => {
    const src = randomCloud(100, 0, 10);
    src.opacities.fill(0);
    src.opacities[7] = 0.25; src.opacities[42] = 1; src.opacities[99] = 0.5;
    const { doc } = splatDocument(src);
    // Only the opacity accessor sparse, without a bufferView (zeros + 3 substitutions).
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    prim.getAttribute(`${EXT}:OPACITY`)!.setSparse(true);
    const glb = await io().writeBinary(doc);
    const { json } = unpackGlb(glb);
    const acc = json.accessors![attrs(json)[`${EXT}:OPACITY`]];
    expect(acc.sparse?.count).toBe(3);
    expect(acc.bufferView).toBeUndefined();
    const cloud = loadGltfSplats('sparse.glb', glb);
    expect(Array.from(cloud.opacities)).toEqual(Array.from(src.opacities));
  });

  it('reads a .gltf with a data: URI buffer, and an external buffer only through the reader', async () => {
    const src = randomCloud(50, 1, 11);
    const { doc } = splatDocument(src);
    doc.getRoot().listBuffers()[0].setURI('splats.bin');
    const jsonDoc = await io().writeJSON(doc);
    const bin = jsonDoc.resources['splats.bin'];
    expect(bin).toBeInstanceOf(Uint8Array);
    const external = new TextEncoder().encode(JSON.stringify(jsonDoc.json));
    expect(sniffSplatFormat('scene.gltf', external)).toBe('gltf');
    expect(sniffSplatFormat('scene.txt', external)).toBe('gltf');
    expectError(() => loadSplatFile('scene.gltf', external),
      'scene.gltf: buffer 0 refers to the external file "splats.bin", which was not supplied (use a .glb, or embed the buffer in the .gltf as a data: URI)');
    const viaReader = loadGltfSplats('scene.gltf', external, (uri) => (uri === 'splats.bin' ? bin : undefined));
    expectCloudsClose(src, viaReader, { position: 0, scaleLog: 0, opacity: 0, dc: 0, rotation: 2e-7, shRest: 0 });

    const embedded = structuredClone(jsonDoc.json);
    embedded.buffers![0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
    const cloud = loadSplatFile('embedded.gltf', new TextEncoder().encode(JSON.stringify(embedded)));
    expectCloudsClose(viaReader, cloud, { position: 0, scaleLog: 0, opacity: 0, dc: 0, rotation: 0, shRest: 0 });
  });

  it('reads the 2024 draft form (_ROTATION, _SCALE, COLOR_0)', () => {
    const s = Math.SQRT1_2;
    const f = new Float32Array([1, 2, 3, 0, 0, s, s, 0.5, 0.25, 0.125]);
    const bin = new Uint8Array(44);
    bin.set(new Uint8Array(f.buffer), 0);
    bin.set([255, 128, 0, 51], 40); // COLOR_0: RGB = SH_C0·dc + 0.5, A = opacity
    const json = {
      asset: { version: '2.0' }, extensionsUsed: [EXT], buffers: [{ byteLength: 44 }],
      bufferViews: [{ buffer: 0, byteLength: 44 }],
      accessors: [
        { bufferView: 0, componentType: 5126, count: 1, type: 'VEC3' },
        { bufferView: 0, byteOffset: 12, componentType: 5126, count: 1, type: 'VEC4' },
        { bufferView: 0, byteOffset: 28, componentType: 5126, count: 1, type: 'VEC3' },
        { bufferView: 0, byteOffset: 40, componentType: 5121, normalized: true, count: 1, type: 'VEC4' },
      ],
      meshes: [{ primitives: [{ mode: 0, attributes: { POSITION: 0, _ROTATION: 1, _SCALE: 2, COLOR_0: 3 }, extensions: { [EXT]: {} } }] }],
    };
    const cloud = loadGltfSplats('legacy.glb', packGlb(json, bin));
    expect(Array.from(cloud.positions)).toEqual([1, -2, -3]);
    // glTF (x, y, z, w) = (0, 0, √½, √½) → (w, x, y, z) = (√½, 0, 0, √½) → RDF (√½, 0, 0, −√½).
    expect(Array.from(cloud.rotations).map((v) => +v.toFixed(6))).toEqual([+s.toFixed(6), 0, 0, -s.toFixed(6)]);
    expect(Array.from(cloud.scales)).toEqual([0.5, 0.25, 0.125]);
    expect(cloud.opacities[0]).toBeCloseTo(0.2, 7);
    [1, 128 / 255, 0].forEach((rgb, c) => expect(cloud.shDc[c]).toBeCloseTo((rgb - 0.5) / SH_C0, 6));
    expect(cloud.shDegree).toBe(0);
  });

  it('concatenates several splat primitives and instances', async () => {
    const a = randomCloud(30, 0, 12), b = randomCloud(20, 1, 13);
    const docA = splatDocument(a).doc;
    const docB = splatDocument(b).doc;
    // Put b's primitive, as a second mesh, into a second node of a's scene.
    const { json: jb, bin: binB } = unpackGlb(await io(VertexLayout.SEPARATE).writeBinary(docB));
    const { json: ja, bin: binA } = unpackGlb(await io(VertexLayout.SEPARATE).writeBinary(docA));
    const offset = Math.ceil(binA.length / 4) * 4;
    const bin = new Uint8Array(offset + binB.length);
    bin.set(binA); bin.set(binB, offset);
    const views = ja.bufferViews!.length, accs = ja.accessors!.length;
    ja.bufferViews!.push(...jb.bufferViews!.map((v) => ({ ...v, byteOffset: (v.byteOffset ?? 0) + offset })));
    ja.accessors!.push(...jb.accessors!.map((x) => ({ ...x, bufferView: x.bufferView! + views })));
    const pb = jb.meshes![0].primitives[0];
    pb.attributes = Object.fromEntries(Object.entries(pb.attributes).map(([k, v]) => [k, v + accs]));
    ja.meshes!.push({ primitives: [pb] });
    ja.nodes!.push({ mesh: 1 });
    ja.scenes![0].nodes.push(ja.nodes!.length - 1);
    ja.buffers![0].byteLength = bin.length;
    const cloud = loadGltfSplats('two.glb', packGlb(ja, bin));
    expect([cloud.count, cloud.shDegree]).toEqual([50, 1]);
    const first = { ...allocateSplatCloud(30, 1), positions: cloud.positions.slice(0, 90), scales: cloud.scales.slice(0, 90), rotations: cloud.rotations.slice(0, 120), opacities: cloud.opacities.slice(0, 30), shDc: cloud.shDc.slice(0, 90) };
    expectCloudsClose(a, first, { position: 0, scaleLog: 0, opacity: 0, dc: 0, rotation: 2e-7 });
    expect(Array.from(cloud.shRest.subarray(0, 90)).every((v) => v === 0)).toBe(true);
    expect(Array.from(cloud.positions.subarray(90))).toEqual(Array.from(b.positions));
  });
});

describe('loadGltfSplats errors', () => {
  const src = randomCloud(10, 1, 20);

  it('missing extension', async () => {
    const glb = await editedGlb(src, (json) => { delete json.meshes![0].primitives[0].extensions; });
    expectError(() => loadGltfSplats('plain.glb', glb),
      'plain.glb: no mesh primitive has the KHR_gaussian_splatting extension (1 meshes, 1 primitives); a primitive has KHR_gaussian_splatting:* attributes but no extensions.KHR_gaussian_splatting object');
  });

  it('missing attribute', async () => {
    const glb = await editedGlb(src, (json) => { delete attrs(json)[`${EXT}:OPACITY`]; });
    expectError(() => loadGltfSplats('a.glb', glb), /^a\.glb: mesh 0 primitive 0: missing attribute KHR_gaussian_splatting:OPACITY \(the primitive has POSITION, KHR_gaussian_splatting:ROTATION, /);
    const spz = await editedGlb(src, (json) => {
      const p = json.meshes![0].primitives[0];
      p.attributes = { POSITION: p.attributes.POSITION };
      p.extensions = { [EXT]: { kernel: 'ellipse', colorSpace: 'srgb_rec709_display', extensions: { KHR_gaussian_splatting_compression_spz_2: {} } } };
    });
    expectError(() => loadGltfSplats('c.glb', spz),
      'c.glb: mesh 0 primitive 0: missing attribute KHR_gaussian_splatting:ROTATION (the primitive has POSITION); the splats are stored by KHR_gaussian_splatting_compression_spz_2, which Curbside does not read');
  });

  it('wrong accessor type or component type', async () => {
    const vec3 = await editedGlb(src, (json) => { attrs(json)[`${EXT}:ROTATION`] = attrs(json)[`${EXT}:SCALE`]; });
    expectError(() => loadGltfSplats('t.glb', vec3), /^t\.glb: mesh 0 primitive 0: KHR_gaussian_splatting:ROTATION \(accessor \d+\) is VEC3 of float; expected VEC4 of float, normalised byte or normalised short$/);
    const unnormalised = await editedGlb(src, (json) => { json.accessors![attrs(json)[`${EXT}:OPACITY`]].normalized = false; }, { opacity: 'u8n' });
    expectError(() => loadGltfSplats('u.glb', unnormalised), /^u\.glb: mesh 0 primitive 0: KHR_gaussian_splatting:OPACITY \(accessor \d+\) is SCALAR of unsigned byte; expected SCALAR of float, normalised unsigned byte or normalised unsigned short$/);
  });

  it('count mismatch', async () => {
    const glb = await editedGlb(src, (json) => { json.accessors![attrs(json)[`${EXT}:SCALE`]].count = 9; });
    expectError(() => loadGltfSplats('n.glb', glb), /^n\.glb: mesh 0 primitive 0: KHR_gaussian_splatting:SCALE \(accessor \d+\) has 9 elements but POSITION has 10$/);
  });

  it('partial SH degree', async () => {
    const glb = await editedGlb(src, (json) => { delete attrs(json)[`${EXT}:SH_DEGREE_1_COEF_1`]; });
    expectError(() => loadGltfSplats('sh.glb', glb), 'sh.glb: mesh 0 primitive 0: SH degree 1 is partially defined (has COEF_0, COEF_2 of COEF_0..COEF_2; a degree must be complete)');
  });

  it('truncated GLB', async () => {
    const { glb } = await writeGlb(src);
    expectError(() => loadGltfSplats('t.glb', glb.subarray(0, glb.length - 100)), `t.glb: truncated GLB: the header says ${glb.length} bytes, the file has ${glb.length - 100}`);
    expectError(() => loadSplatFile('t.glb', glb.subarray(0, 7)), 't.glb: truncated GLB: 7 bytes, the header alone needs 12');
    // A consistent header whose BIN chunk is shorter than the buffer.
    const { json, bin } = unpackGlb(glb);
    expectError(() => loadGltfSplats('s.glb', packGlb(json, bin.subarray(0, 64))), `s.glb: buffer 0 holds 64 bytes but its byteLength is ${json.buffers![0].byteLength} (truncated file?)`);
    expectError(() => loadSplatFile('x.glb', new TextEncoder().encode('not a glb at all')), 'x.glb: bad GLB magic 0x20746f6e (expected 0x46546c67 "glTF")');
  });

  it('bad values: negative scale, opacity outside [0, 1]', async () => {
    const neg = randomCloud(10, 0, 21);
    neg.scales[3 * 4 + 1] = -0.5;
    const negGlb = (await writeGlb(neg)).glb;
    expectError(() => loadGltfSplats('s.glb', negGlb),
      's.glb: mesh 0 primitive 0: KHR_gaussian_splatting:SCALE of splat 4 is -0.5; scales are linear standard deviations, finite and not negative (is this a log-scale?)');
    const logit = randomCloud(10, 0, 22);
    logit.opacities[6] = 3.25;
    const logitGlb = (await writeGlb(logit)).glb;
    expectError(() => loadGltfSplats('o.glb', logitGlb),
      'o.glb: mesh 0 primitive 0: KHR_gaussian_splatting:OPACITY of splat 6 is 3.25; opacity must be in [0, 1] (the extension stores it after the sigmoid)');
  });

  it('invalid JSON, wrong version, unsupported required extension', async () => {
    expectError(() => loadSplatFile('bad.gltf', new TextEncoder().encode('{"asset": ')), /^bad\.gltf: not valid glTF JSON \(/);
    expectError(() => loadSplatFile('v1.gltf', new TextEncoder().encode('{"asset": {"version": "1.0"}}')), 'v1.gltf: glTF version 1.0 is not supported (only 2.x)');
    const glb = await editedGlb(src, (json) => { json.extensionsRequired = ['EXT_meshopt_compression']; });
    expectError(() => loadGltfSplats('m.glb', glb), 'm.glb: requires the extension EXT_meshopt_compression, which Curbside does not read (decompress the file first, e.g. with gltf-transform)');
  });

  it('node transforms the spec leaves undefined', async () => {
    const mirror = (await writeGlb(src, { node: { scale: [1, -1, 1] } })).glb;
    expectError(() => loadGltfSplats('m.glb', mirror), 'm.glb: node 0 ("splats"): global transform mirrors (negative scale, determinant < 0), which KHR_gaussian_splatting leaves undefined');
    const shear = (await writeGlb(src, { parent: { scale: [1, 3, 1] }, node: { rotation: [0, 0, Math.sin(0.3), Math.cos(0.3)] } })).glb;
    expectError(() => loadGltfSplats('s.glb', shear), /^s\.glb: node \d \("splats"\): global transform is not translation · rotation · scale \(it shears/);
    const zero = (await writeGlb(src, { node: { scale: [1, 0, 1] } })).glb;
    expectError(() => loadGltfSplats('z.glb', zero), 'z.glb: node 0 ("splats"): global transform has a zero or non-finite scale (column lengths 1, 0, 1)');
  });

  it('index out of range', async () => {
    const glb = await editedGlb(src, (json) => { attrs(json)[`${EXT}:SCALE`] = 99; });
    expectError(() => loadGltfSplats('i.glb', glb), /^i\.glb: mesh 0 primitive 0: KHR_gaussian_splatting:SCALE: accessor 99 does not exist \(the file has \d+ accessors\)$/);
  });
});

describe('sniffSplatFormat for glTF', () => {
  it('recognises GLB by magic, .gltf by name or JSON content', async () => {
    const { glb } = await writeGlb(randomCloud(3, 0));
    expect(sniffSplatFormat('anything', glb)).toBe('gltf');
    expect(sniffSplatFormat('x.GLB', new Uint8Array(3))).toBe('gltf');
    expect(sniffSplatFormat('scene.gltf', new Uint8Array(0))).toBe('gltf');
    expect(sniffSplatFormat('scene', new TextEncoder().encode('\ufeff  {\n "asset": {"version": "2.0"}}'))).toBe('gltf');
    expect(sniffSplatFormat('meta.json', new TextEncoder().encode('{"version": 2, "count": 3, "means": {}}'))).toBeNull();
  });
});
