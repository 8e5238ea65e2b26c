import { describe, expect, it } from 'vitest';
import { decimateMesh } from './quadric-decimate';

/** A UV sphere of radius 1 (closed, counter-clockwise from outside): rings × segments + 2 poles. */
function sphere(rings: number, segments: number) {
  const p: number[] = [0, 0, -1];
  for (let i = 1; i <= rings; i++) {
    const th = (Math.PI * i) / (rings + 1) - Math.PI / 2;
    for (let j = 0; j < segments; j++) {
      const ph = (2 * Math.PI * j) / segments;
      p.push(Math.cos(th) * Math.cos(ph), Math.cos(th) * Math.sin(ph), Math.sin(th));
    }
  }
  p.push(0, 0, 1);
  const top = 1 + rings * segments;
  const r = (i: number, j: number) => 1 + i * segments + (j % segments);
  const f: number[] = [];
  for (let j = 0; j < segments; j++) {
    f.push(0, r(0, j + 1), r(0, j));
    for (let i = 0; i + 1 < rings; i++) f.push(r(i, j), r(i, j + 1), r(i + 1, j + 1), r(i, j), r(i + 1, j + 1), r(i + 1, j));
    f.push(top, r(rings - 1, j), r(rings - 1, j + 1));
  }
  return { positions: Float64Array.from(p), faces: Uint32Array.from(f) };
}

describe('decimateMesh (quadric-error half-edge collapse)', () => {
  const { positions, faces } = sphere(30, 40);
  const out = decimateMesh(positions, faces, 150);

  it('reaches the target and keeps a closed, consistently wound surface (F = 2V − 4, every edge in two opposite faces)', () => {
    expect(out.kept.length).toBe(150);
    expect(out.faces.length / 3).toBe(2 * 150 - 4);
    const directed = new Set<string>();
    for (let f = 0; f < out.faces.length; f += 3) {
      for (let k = 0; k < 3; k++) directed.add(`${out.faces[f + k]},${out.faces[f + ((k + 1) % 3)]}`);
    }
    for (const e of directed) {
      const [a, b] = e.split(',');
      expect(directed.has(`${b},${a}`), `edge ${e} has no opposite`).toBe(true);
    }
    expect(directed.size).toBe(out.faces.length);
  });

  it('keeps original vertices (ascending) and the shape: every face normal still points outward', () => {
    for (let i = 1; i < out.kept.length; i++) expect(out.kept[i]).toBeGreaterThan(out.kept[i - 1]);
    const P = (i: number) => [0, 1, 2].map((c) => positions[3 * out.kept[i] + c]);
    for (let f = 0; f < out.faces.length; f += 3) {
      const [a, b, c] = [P(out.faces[f]), P(out.faces[f + 1]), P(out.faces[f + 2])];
      const e1 = b.map((x, i) => x - a[i]), e2 = c.map((x, i) => x - a[i]);
      const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      const centre = [0, 1, 2].map((i) => (a[i] + b[i] + c[i]) / 3);
      expect(n[0] * centre[0] + n[1] * centre[1] + n[2] * centre[2]).toBeGreaterThan(0);
    }
  });

  it('is deterministic', () => {
    const again = decimateMesh(positions, faces, 150);
    expect(Array.from(again.kept)).toEqual(Array.from(out.kept));
    expect(Array.from(again.faces)).toEqual(Array.from(out.faces));
  });

  it('rejects a target below 4', () => {
    expect(() => decimateMesh(positions, faces, 3)).toThrow(/targetVertices/);
  });
});
