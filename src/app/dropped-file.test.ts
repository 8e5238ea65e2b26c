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
