/**
 * The scene editor's document: what the user draws on the top-down view of a capture (sidewalk,
 * crosswalk, road and obstacle polygons with holes, named points), how the capture is levelled,
 * and the conversion to and from a scene file (`src/world/bake/scene-file.ts`, version 2). Pure
 * data and geometry, no DOM: the page (`editor-page.ts`) draws it and turns clicks into these edits.
 *
 * Coordinates are the scene's world frame (Z up, metres, the capture levelled by the transform).
 * Every edit goes through {@link SceneDraftHistory}, so each can be undone.
 */
import { isConvexRing } from '../../core/geometry2d';
import { pointInRing, ringProblem, signedArea, type Box, type Vec2 } from '../../world/geometry';
import { SCENE_FORMAT, SCENE_VERSION, type SceneFile } from '../../world/bake/scene-file';

/** Kinds of drawn polygon. Obstacles are convex rings with a height (the ORCA obstacle form). */
export type RegionKind = 'sidewalk' | 'crosswalk' | 'road' | 'obstacle';
export const REGION_KINDS: readonly RegionKind[] = ['sidewalk', 'crosswalk', 'road', 'obstacle'];

/** A drawn polygon (world frame, metres). */
export interface DraftPolygon {
  kind: RegionKind;
  outer: Vec2[];
  holes: Vec2[][];
  /** Obstacles: height above the ground, metres. */
  height?: number;
  label?: string;
}

/** A named point: a start or goal candidate, or a landmark. */
export interface DraftPoint {
  name: string;
  kind: 'start' | 'goal' | 'landmark';
  position: Vec2;
}

/** The capture → world similarity (as in the scene file: p_w = scale · R(rotation) p_c + translation). */
export interface DraftTransform {
  scale: number;
  /** Unit quaternion (w, x, y, z). */
  rotation: [number, number, number, number];
  translation: [number, number, number];
}

/** Everything a scene file holds, as the editor edits it. */
export interface SceneDraft {
  name: string;
  /** The capture path as the scene file records it (relative to the scene file). */
  capture: string;
  transform: DraftTransform;
  groundHeight: number;
  polygons: DraftPolygon[];
  points: DraftPoint[];
  georeference?: { offset: [number, number, number]; crs?: string };
  /** The occupancy-grid parameters behind the obstacles labelled {@link SCAN_OBSTACLE_LABEL}. */
  occupancy?: SceneFile['occupancy'];
  /** Kept from a loaded file (the editor does not edit them). */
  bounds?: [number, number, number, number];
  camera?: SceneFile['camera'];
  source?: SceneFile['source'];
}

/** Label of obstacles proposed from the capture's occupancy grid (replaced when proposed again). */
export const SCAN_OBSTACLE_LABEL = 'from the scan';

/** An empty draft for a capture file. */
export function emptyDraft(name: string, capture: string): SceneDraft {
  return { name, capture, transform: { scale: 1, rotation: [1, 0, 0, 0], translation: [0, 0, 0] }, groundHeight: 0, polygons: [], points: [] };
}

/** A problem found by {@link validateDraft}: where (e.g. `sidewalk 2`), what, and whether saving is refused. */
export interface DraftProblem {
  where: string;
  message: string;
  severity: 'error' | 'note';
}

const label = (d: SceneDraft, i: number): string => {
  const p = d.polygons[i];
  const nth = d.polygons.slice(0, i + 1).filter((q) => q.kind === p.kind).length;
  return `${p.kind} ${nth}`;
};


const inBox = (b: Box, p: Vec2) => p[0] >= b[0] && p[0] <= b[2] && p[1] >= b[1] && p[1] <= b[3];

/**
 * Checks a draft before saving. Errors (saving is refused): rings that are not simple (too few
 * vertices, self-intersecting, zero area), holes outside their polygon, non-convex obstacles or
 * ones without a positive height, a name that is not a file name, duplicate point names. Notes:
 * rings drawn clockwise (saved counter-clockwise, holes clockwise, as the scene file normalises
 * them), vertices and points outside the capture's extent `captureBox` (world frame).
 */
export function validateDraft(d: SceneDraft, captureBox?: Box): DraftProblem[] {
  const out: DraftProblem[] = [];
  const err = (where: string, message: string) => out.push({ where, message, severity: 'error' });
  if (!/^[\w.-]+$/.test(d.name)) err('name', `"${d.name}" is not a file name (letters, digits, _ . - only)`);
  d.polygons.forEach((p, i) => {
    const where = label(d, i);
    const o = ringProblem(p.outer);
    if (o) err(where, o);
    else if (signedArea(p.outer) < 0) out.push({ where, message: 'drawn clockwise; saved counter-clockwise', severity: 'note' });
    p.holes.forEach((h, j) => {
      const hp = ringProblem(h);
      if (hp) err(`${where} hole ${j + 1}`, hp);
      else if (!o && !h.every((v) => pointInRing(v[0], v[1], p.outer))) err(`${where} hole ${j + 1}`, 'lies (partly) outside its polygon');
    });
    if (p.kind === 'obstacle') {
      if (!o && !isConvexRing(p.outer)) err(where, 'obstacles must be convex (split it into convex parts)');
      if (p.holes.length) err(where, 'obstacles cannot have holes');
      if (!(p.height !== undefined && p.height > 0)) err(where, 'needs a height above the ground > 0 m');
    }
    if (captureBox) {
      const outside = p.outer.findIndex((v) => !inBox(captureBox, v));
      if (outside >= 0) out.push({ where, message: `vertex ${outside + 1} (${p.outer[outside].map((v) => v.toFixed(2)).join(', ')}) is outside the capture (no scan under it)`, severity: 'note' });
    }
  });
  const names = new Set<string>();
  for (const pt of d.points) {
    if (names.has(pt.name)) err(`point "${pt.name}"`, 'the name is used twice');
    names.add(pt.name);
    if (captureBox && !inBox(captureBox, pt.position)) out.push({ where: `point "${pt.name}"`, message: 'is outside the capture (no scan under it)', severity: 'note' });
  }
  return out;
}

/** Metres rounded to the millimetre (what the file stores, so a save → load → save round trip is exact). */
const mm = (v: number) => Math.round(v * 1000) / 1000 + 0;
const ringOut = (r: Vec2[], ccw: boolean): Vec2[] => {
  const pts = r.map((v): Vec2 => [mm(v[0]), mm(v[1])]);
  return (signedArea(pts) > 0) === ccw ? pts : pts.reverse();
};

/**
 * The draft as a scene file (version 2; coordinates rounded to mm; outer rings CCW, holes CW).
 * Does not validate: call {@link validateDraft} first.
 */
export function draftToSceneFile(d: SceneDraft): SceneFile {
  const regions = (kind: RegionKind) => d.polygons.filter((p) => p.kind === kind).map((p) => ({ outer: ringOut(p.outer, true), holes: p.holes.map((h) => ringOut(h, false)) }));
  const t = d.transform;
  const file: SceneFile = {
    format: SCENE_FORMAT,
    version: SCENE_VERSION,
    name: d.name,
    capture: d.capture,
    transform: { scale: t.scale, rotation: [...t.rotation], translation: [...t.translation] },
    groundHeight: d.groundHeight,
    ...(d.bounds ? { bounds: d.bounds } : {}),
    walkable: { sidewalk: regions('sidewalk'), crosswalk: regions('crosswalk') },
    obstacles: d.polygons.filter((p) => p.kind === 'obstacle').map((p) => ({
      kind: 'building' as const, ...(p.label ? { label: p.label } : {}), polygon: ringOut(p.outer, true), height: p.height ?? 1,
    })),
    ...(d.camera ? { camera: d.camera } : {}),
    road: regions('road'),
    points: d.points.map((p) => ({ name: p.name, kind: p.kind, position: [mm(p.position[0]), mm(p.position[1])] as Vec2 })),
    ...(d.georeference ? { georeference: d.georeference } : {}),
    ...(d.occupancy ? { occupancy: d.occupancy } : {}),
    ...(d.source ? { source: d.source } : {}),
  };
  return file;
}

/** A parsed scene file as a draft (the inverse of {@link draftToSceneFile} up to ring orientation). */
export function sceneFileToDraft(s: SceneFile): SceneDraft {
  if ('matrix' in s.transform) throw new Error(`${s.name}: the editor edits scale + rotation + translation transforms, not a 4×4 matrix`);
  const poly = (kind: RegionKind) => (p: { outer: Vec2[]; holes: Vec2[][] }): DraftPolygon => ({ kind, outer: p.outer.map((v) => [...v] as Vec2), holes: p.holes.map((h) => h.map((v) => [...v] as Vec2)) });
  return {
    name: s.name,
    capture: s.capture,
    transform: { scale: s.transform.scale, rotation: [...s.transform.rotation], translation: [...s.transform.translation] },
    groundHeight: s.groundHeight,
    polygons: [
      ...s.walkable.sidewalk.map(poly('sidewalk')),
      ...s.walkable.crosswalk.map(poly('crosswalk')),
      ...s.road.map(poly('road')),
      ...s.obstacles.map((o): DraftPolygon => ({ kind: 'obstacle', outer: o.polygon.map((v) => [...v] as Vec2), holes: [], height: o.height, ...(o.label ? { label: o.label } : {}) })),
    ],
    points: s.points.map((p) => ({ ...p, position: [...p.position] as Vec2 })),
    ...(s.georeference ? { georeference: { ...s.georeference, offset: [...s.georeference.offset] } } : {}),
    ...(s.occupancy ? { occupancy: { ...s.occupancy } } : {}),
    ...(s.source ? { source: structuredClone(s.source) } : {}),
    ...(s.bounds ? { bounds: [...s.bounds] } : {}),
    ...(s.camera ? { camera: s.camera } : {}),
  };
}

/** The serialised file: two-space JSON with a final newline (what the editor saves). */
export function sceneFileText(d: SceneDraft): string {
  return `${JSON.stringify(draftToSceneFile(d), null, 2)}\n`;
}

/** Undo / redo over whole-draft snapshots (drafts are small: kilobytes). */
export class SceneDraftHistory {
  private readonly past: string[] = [];
  private readonly future: string[] = [];
  constructor(private current: SceneDraft) {}

  get draft(): SceneDraft {
    return this.current;
  }

  /** Applies an edit to a copy of the draft and records the previous state. */
  edit(change: (d: SceneDraft) => void): void {
    this.past.push(JSON.stringify(this.current));
    this.future.length = 0;
    const next = structuredClone(this.current);
    change(next);
    this.current = next;
  }

  /**
   * Records the current state and returns the draft for changing in place (a vertex drag: one
   * undo step however many moves follow).
   */
  checkpoint(): SceneDraft {
    this.edit(() => undefined);
    return this.current;
  }

  /** Replaces the draft (opening a file): clears the history. */
  reset(d: SceneDraft): void {
    this.past.length = 0;
    this.future.length = 0;
    this.current = d;
  }

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  undo(): boolean {
    const prev = this.past.pop();
    if (prev === undefined) return false;
    this.future.push(JSON.stringify(this.current));
    this.current = JSON.parse(prev);
    return true;
  }

  redo(): boolean {
    const next = this.future.pop();
    if (next === undefined) return false;
    this.past.push(JSON.stringify(this.current));
    this.current = JSON.parse(next);
    return true;
  }
}

/** A vertex of a drawn polygon: polygon index, ring (−1 outer, else the hole index) and vertex index. */
export interface VertexRef {
  polygon: number;
  ring: number;
  vertex: number;
}

/** The ring a vertex reference names. */
export function ringOf(d: SceneDraft, r: VertexRef): Vec2[] {
  const p = d.polygons[r.polygon];
  return r.ring < 0 ? p.outer : p.holes[r.ring];
}

/** The nearest vertex of any polygon within `radius` metres of `p`, or null. */
export function nearestVertex(d: SceneDraft, p: Vec2, radius: number): VertexRef | null {
  let best: VertexRef | null = null;
  let bestD = radius;
  d.polygons.forEach((poly, i) => {
    [poly.outer, ...poly.holes].forEach((ring, k) => ring.forEach((v, j) => {
      const dist = Math.hypot(v[0] - p[0], v[1] - p[1]);
      if (dist <= bestD) {
        bestD = dist;
        best = { polygon: i, ring: k - 1, vertex: j };
      }
    }));
  });
  return best;
}

/** The nearest named point within `radius` metres, or −1. */
export function nearestPoint(d: SceneDraft, p: Vec2, radius: number): number {
  let best = -1;
  let bestD = radius;
  d.points.forEach((pt, i) => {
    const dist = Math.hypot(pt.position[0] - p[0], pt.position[1] - p[1]);
    if (dist <= bestD) {
      bestD = dist;
      best = i;
    }
  });
  return best;
}

/**
 * Where a click lands after snapping: onto an existing vertex within `radius` metres (so adjoining
 * sidewalk and crosswalk polygons share corners exactly), else onto the `grid` (metres; 0: none).
 * `extra` are vertices of the ring being drawn (not yet in the draft).
 */
export function snapPoint(d: SceneDraft, p: Vec2, radius: number, grid = 0, extra: readonly Vec2[] = []): Vec2 {
  const v = nearestVertex(d, p, radius);
  let best: Vec2 | null = v ? [...ringOf(d, v)[v.vertex]] as Vec2 : null;
  let bestD = best ? Math.hypot(best[0] - p[0], best[1] - p[1]) : radius;
  for (const e of extra) {
    const dist = Math.hypot(e[0] - p[0], e[1] - p[1]);
    if (dist <= bestD) {
      bestD = dist;
      best = [e[0], e[1]];
    }
  }
  if (best) return best;
  return grid > 0 ? [Math.round(p[0] / grid) * grid, Math.round(p[1] / grid) * grid] : [p[0], p[1]];
}

/** The index of the polygon (last drawn first) whose outer ring contains `p`, or −1. */
export function polygonAt(d: SceneDraft, p: Vec2): number {
  for (let i = d.polygons.length - 1; i >= 0; i--) if (pointInRing(p[0], p[1], d.polygons[i].outer)) return i;
  return -1;
}

/**
 * The edge of any polygon ring nearest to `p` within `radius` metres, as the vertex reference of its
 * first end (the new vertex goes after it), with the closest point on it; or null.
 */
export function nearestEdge(d: SceneDraft, p: Vec2, radius: number): { after: VertexRef; at: Vec2 } | null {
  let best: { after: VertexRef; at: Vec2 } | null = null;
  let bestD = radius;
  d.polygons.forEach((poly, i) => {
    [poly.outer, ...poly.holes].forEach((ring, k) => ring.forEach((a, j) => {
      const b = ring[(j + 1) % ring.length];
      const dx = b[0] - a[0], dy = b[1] - a[1];
      const l2 = dx * dx + dy * dy;
      const t = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0;
      const at: Vec2 = [a[0] + t * dx, a[1] + t * dy];
      const dist = Math.hypot(at[0] - p[0], at[1] - p[1]);
      if (dist <= bestD) {
        bestD = dist;
        best = { after: { polygon: i, ring: k - 1, vertex: j }, at };
      }
    }));
  });
  return best;
}

/** Inserts vertex `at` after `after` in its ring (edits `d`). */
export function insertVertex(d: SceneDraft, after: VertexRef, at: Vec2): void {
  ringOf(d, after).splice(after.vertex + 1, 0, [at[0], at[1]]);
}

/**
 * Removes a vertex (edits `d`); a ring left with fewer than 3 vertices is not allowed.
 *
 * @returns false (and changes nothing) when the ring has only 3 vertices.
 */
export function removeVertex(d: SceneDraft, v: VertexRef): boolean {
  const ring = ringOf(d, v);
  if (ring.length <= 3) return false;
  ring.splice(v.vertex, 1);
  return true;
}

