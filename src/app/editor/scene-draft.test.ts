/** The scene editor's document: validation messages, the scene-file round trip, undo, snapping and levelling. */
import { describe, expect, it } from 'vitest';
import { parseSceneFile } from '../../world/bake/scene-file';
import { applyTransform, invertTransform, levelledTransform, levellingOf, levellingTransform, planeThroughPoints, remapAnnotations, shiftOrigin } from './levelling';
import { draftToSceneFile, emptyDraft, insertVertex, nearestEdge, removeVertex, SceneDraftHistory, sceneFileText, sceneFileToDraft, snapPoint, validateDraft, type SceneDraft } from './scene-draft';

function street(): SceneDraft {
  const d = emptyDraft('my-street', 'my-street.ply');
  d.polygons.push(
    { kind: 'sidewalk', outer: [[0, 0], [20, 0], [20, 3], [0, 3]], holes: [[[5, 1], [6, 1], [6, 2], [5, 2]]] },
    { kind: 'crosswalk', outer: [[8, 3], [8, 10], [11, 10], [11, 3]], holes: [] }, // clockwise
    { kind: 'road', outer: [[0, 3], [20, 3], [20, 10], [0, 10]], holes: [] },
    { kind: 'obstacle', outer: [[14, 1], [15, 1], [15, 2], [14, 2]], holes: [], height: 1.2, label: 'kiosk' },
  );
  d.points.push({ name: 'west end', kind: 'start', position: [1, 1.5] }, { name: 'east end', kind: 'goal', position: [19, 1.5] });
  d.georeference = { offset: [431_250.5, 9_226_100.25, 12], crs: 'EPSG:32749' };
  return d;
}

describe('validateDraft', () => {
  it('passes a well-formed street with one note for the clockwise crosswalk', () => {
    expect(validateDraft(street(), [-5, -5, 25, 15])).toEqual([{ where: 'crosswalk 1', message: 'drawn clockwise; saved counter-clockwise', severity: 'note' }]);
  });

  it('names each problem: self-intersection, hole outside, non-convex obstacle, duplicate names; outside the capture is a note', () => {
    const d = street();
    d.polygons[0].outer = [[0, 0], [20, 3], [20, 0], [0, 4]];
    d.polygons[1].holes = [[[30, 30], [31, 30], [31, 31]]];
    d.polygons[3].outer = [[14, 1], [16, 1], [15, 1.3], [16, 2], [14, 2]];
    d.polygons[2].outer[1] = [40, 3];
    d.points[1].name = 'west end';
    const problems = validateDraft(d, [-5, -5, 25, 15]).filter((p) => p.severity === 'error').map((p) => `${p.where}: ${p.message}`);
    expect(problems).toEqual([
      'sidewalk 1: edges 2 and 0 intersect',
      'crosswalk 1 hole 1: lies (partly) outside its polygon',
      'obstacle 1: obstacles must be convex (split it into convex parts)',
      'point "west end": the name is used twice',
    ]);
    expect(validateDraft(d, [-5, -5, 25, 15]).filter((p) => p.severity === 'note').map((p) => `${p.where}: ${p.message}`)).toContain('road 1: vertex 2 (40.00, 3.00) is outside the capture (no scan under it)');
  });
});

describe('scene file round trip', () => {
  it('saves version 2 that parseSceneFile accepts, and load → save gives the same text', () => {
    const text = sceneFileText(street());
    const parsed = parseSceneFile(text, 'my-street.json');
    expect(parsed.version).toBe(2);
    expect(parsed.walkable.crosswalk[0].outer).toEqual([[11, 3], [11, 10], [8, 10], [8, 3]]); // saved CCW
    expect(parsed.walkable.sidewalk[0].holes[0]).toEqual([[5, 2], [6, 2], [6, 1], [5, 1]]); // holes CW
    expect(parsed.obstacles).toEqual([{ kind: 'building', label: 'kiosk', polygon: [[14, 1], [15, 1], [15, 2], [14, 2]], height: 1.2 }]);
    expect(parsed.points.map((p) => p.name)).toEqual(['west end', 'east end']);
    expect(sceneFileText(sceneFileToDraft(parsed))).toBe(text);
  });

  it('rounds to the millimetre so a reloaded draft saves identically', () => {
    const d = street();
    d.points[0].position = [1.23456789, -0.0000001];
    expect(draftToSceneFile(d).points[0].position).toEqual([1.235, 0]);
  });
});

describe('SceneDraftHistory', () => {
  it('undoes and redoes edits in order and clears redo on a new edit', () => {
    const h = new SceneDraftHistory(emptyDraft('a', 'a.ply'));
    h.edit((d) => d.points.push({ name: 'p1', kind: 'landmark', position: [0, 0] }));
    h.edit((d) => d.points.push({ name: 'p2', kind: 'landmark', position: [1, 0] }));
    expect(h.undo()).toBe(true);
    expect(h.draft.points.map((p) => p.name)).toEqual(['p1']);
    expect(h.redo()).toBe(true);
    expect(h.draft.points).toHaveLength(2);
    h.undo();
    h.edit((d) => { d.name = 'b'; });
    expect(h.redo()).toBe(false);
    expect(h.undo() && h.undo()).toBe(true);
    expect(h.draft.points).toHaveLength(0);
    expect(h.draft.name).toBe('a');
    expect(h.undo()).toBe(false);
  });
});

describe('snapPoint', () => {
  it('snaps to an existing vertex within the radius, else to the grid, else keeps the point', () => {
    const d = street();
    expect(snapPoint(d, [19.8, 2.9], 0.5)).toEqual([20, 3]);
    expect(snapPoint(d, [12.26, 6.74], 0.5, 0.5)).toEqual([12.5, 6.5]);
    expect(snapPoint(d, [12.26, 6.74], 0.5)).toEqual([12.26, 6.74]);
    expect(snapPoint(d, [12.26, 6.74], 0.5, 0, [[12, 7]])).toEqual([12, 7]);
  });
});

describe('vertex editing', () => {
  it('inserts a vertex on the nearest edge and removes vertices down to a triangle', () => {
    const d = street();
    const e = nearestEdge(d, [10, 0.2], 0.5)!;
    expect(e.after).toEqual({ polygon: 0, ring: -1, vertex: 0 });
    expect(e.at).toEqual([10, 0]);
    insertVertex(d, e.after, e.at);
    expect(d.polygons[0].outer).toEqual([[0, 0], [10, 0], [20, 0], [20, 3], [0, 3]]);
    expect(nearestEdge(d, [5.9, 1.5], 0.2)?.after).toEqual({ polygon: 0, ring: 0, vertex: 1 }); // the hole's right edge
    expect(removeVertex(d, { polygon: 0, ring: -1, vertex: 1 })).toBe(true);
    expect(removeVertex(d, { polygon: 0, ring: -1, vertex: 0 })).toBe(true);
    expect(d.polygons[0].outer).toHaveLength(3);
    expect(removeVertex(d, { polygon: 0, ring: -1, vertex: 0 })).toBe(false);
    expect(nearestEdge(d, [50, 50], 1)).toBeNull();
  });
});

describe('levelling', () => {
  const plane = planeThroughPoints([0, 1, 0], [1, 1.1, 0], [0, 1, 1], [0, 1, 0]);

  it('puts the fitted ground at z = 0 with the chosen yaw and scale, and inverts exactly', () => {
    const t = levelledTransform(plane, 2, 30);
    const onGround = applyTransform(t, [3, 1 + 0.1 * 3, -2]);
    expect(onGround[2]).toBeCloseTo(0, 9);
    expect(applyTransform(t, plane.centroid).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 0, 0]);
    const back = invertTransform(t, applyTransform(t, [5, -4, 7]));
    for (const [k, v] of [5, -4, 7].entries()) expect(back[k]).toBeCloseTo(v, 9);
  });

  it('keeps annotations on the same capture points when the transform changes', () => {
    const d = street();
    const a = levelledTransform(plane, 1, 0);
    const b = shiftOrigin(levelledTransform(plane, 1, 90), 2, 3);
    const captureOf = (p: [number, number]) => invertTransform(a, [p[0], p[1], 0]);
    const before = captureOf(d.points[1].position);
    remapAnnotations(d, a, b);
    const after = invertTransform(b, [d.points[1].position[0], d.points[1].position[1], 0]);
    for (let k = 0; k < 3; k++) expect(after[k]).toBeCloseTo(before[k], 9);
  });

  it('recovers the levelling of a transform (a loaded scene file), reproducing it', () => {
    const t = shiftOrigin(levelledTransform(plane, 4, -63), 1.5, -2);
    const l = levellingOf(t);
    expect(l.scale).toBe(4);
    expect(l.yawDeg).toBeCloseTo(-63, 9);
    const again = levellingTransform(l);
    for (let k = 0; k < 4; k++) expect(again.rotation[k]).toBeCloseTo(t.rotation[k], 9);
    for (let k = 0; k < 3; k++) expect(again.translation[k]).toBeCloseTo(t.translation[k], 9);
  });

  it('refuses three collinear ground points', () => {
    expect(() => planeThroughPoints([0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 0, 1])).toThrow(/collinear/);
  });
});
