import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDroppedFile, parseDroppedFiles } from './dropped-file';

const dir = resolve(import.meta.dirname, '../../assets/policies/single-frame');
const model = new Uint8Array(readFileSync(resolve(dir, 'model.onnx')));
const manifestText = readFileSync(resolve(dir, 'model.json'), 'utf8');
const enc = (s: string) => new TextEncoder().encode(s);

describe('dropped policy files', () => {
  it('pairs a model with the manifest dropped with it', () => {
    const d = parseDroppedFiles([{ name: 'model.onnx', bytes: model }, { name: 'model.json', bytes: enc(manifestText) }]);
    expect(d.kind).toBe('policy');
    if (d.kind === 'policy') expect([d.name, d.manifestFile, d.manifest.name]).toEqual(['model.onnx', 'model.json', 'example single-frame']);
  });

  it('reads a manifest alone, then pairs a model with it', () => {
    const m = parseDroppedFile('model.json', enc(manifestText));
    expect(m.kind).toBe('policy-manifest');
    if (m.kind !== 'policy-manifest') return;
    const d = parseDroppedFiles([{ name: 'model.onnx', bytes: model }], m);
    expect(d.kind === 'policy' && d.manifestFile).toBe('model.json');
  });

  it('names the problem: no manifest, an invalid manifest, several models', () => {
    expect(() => parseDroppedFiles([{ name: 'net.onnx', bytes: model }])).toThrow(/net\.onnx: an ONNX model needs its manifest/);
    const bad = JSON.stringify({ ...JSON.parse(manifestText), rateHz: -1 });
    expect(() => parseDroppedFiles([{ name: 'net.onnx', bytes: model }, { name: 'net.json', bytes: enc(bad) }])).toThrow(/net\.json: rateHz: /);
    expect(() => parseDroppedFile('net.json', enc(bad))).toThrow(/net\.json: rateHz: /);
    expect(() => parseDroppedFiles([{ name: 'a.onnx', bytes: model }, { name: 'b.onnx', bytes: model }])).toThrow(/one ONNX model at a time/);
  });
});

describe('dropped splat files', () => {
  /** A one-splat glTF (KHR_gaussian_splatting) whose buffer is the external file `bin/splat data.bin`. */
  const gltf = enc(JSON.stringify({
    asset: { version: '2.0' }, extensionsUsed: ['KHR_gaussian_splatting'],
    buffers: [{ uri: 'bin/splat%20data.bin', byteLength: 56 }],
    bufferViews: [{ buffer: 0, byteLength: 56 }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 1, type: 'VEC3' },
      { bufferView: 0, byteOffset: 12, componentType: 5126, count: 1, type: 'VEC4' },
      { bufferView: 0, byteOffset: 28, componentType: 5126, count: 1, type: 'VEC3' },
      { bufferView: 0, byteOffset: 40, componentType: 5126, count: 1, type: 'SCALAR' },
      { bufferView: 0, byteOffset: 44, componentType: 5126, count: 1, type: 'VEC3' },
    ],
    meshes: [{ primitives: [{ mode: 0, extensions: { KHR_gaussian_splatting: { kernel: 'ellipse', colorSpace: 'srgb_rec709_display' } }, attributes: {
      POSITION: 0, 'KHR_gaussian_splatting:ROTATION': 1, 'KHR_gaussian_splatting:SCALE': 2, 'KHR_gaussian_splatting:OPACITY': 3, 'KHR_gaussian_splatting:SH_DEGREE_0_COEF_0': 4,
    } }] }],
  }));
  const bin = new Uint8Array(new Float32Array([1, 2, 3, 0, 0, 0, 1, 0.5, 0.5, 0.5, 0.25, 0, 0, 0]).buffer);

  it('loads a .gltf dropped with its .bin, and names the .bin when it is missing', () => {
    const d = parseDroppedFiles([{ name: 'splat data.bin', bytes: bin }, { name: 'scene.gltf', bytes: gltf }]);
    expect(d.kind).toBe('splats');
    if (d.kind !== 'splats') return;
    expect(d.name).toBe('scene.gltf');
    expect(Array.from(d.cloud.positions)).toEqual([1, -2, -3]);
    expect(d.cloud.opacities[0]).toBe(0.25);
    expect(() => parseDroppedFiles([{ name: 'scene.gltf', bytes: gltf }])).toThrow(/^scene\.gltf: buffer 0 refers to the external file "bin\/splat data\.bin", which was not supplied/);
  });
});
