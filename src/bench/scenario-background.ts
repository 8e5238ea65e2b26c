/**
 * The background splats a scenario's robot camera draws: the procedural world baked chunk by chunk
 * ({@link ChunkedWorld}) or a scanned scene's capture placed in the world frame, plus the scenario's
 * blockers baked as construction fences (orange and white bands, the furniture baker's surface
 * splats), so a camera-fed policy sees the barriers it collides with.
 */
import type { PinholeCamera } from '../gpu/camera';
import type { SplatBackground, SplatViewOptions } from '../splats/splat-background';
import { allocateSplatCloud, shRestCount, type SplatCloud } from '../splats/splat-cloud';
import type { Ring, Vec2 } from '../core/geometry2d';
import { assembleChunks, ChunkedWorld, DEFAULT_VIEW_DISTANCE } from '../world/bake/chunks';
import { addPanel } from '../world/bake/furniture';
import { sceneTransform, transformSplatCloud } from '../world/bake/scene-file';
import { SplatBuilder } from '../world/bake/splat-builder';
import { groundHeight } from '../world/queries';
import type { World } from '../world/world';
import type { Blocker, Scenario } from '../sim/scenario';
import type { ScenarioWorld } from './scenario-world';
import { FENCE_HEIGHT } from './blockers';

/** Fence colours: safety orange and white bands, 0.2 m high. */
export const FENCE_COLORS = { orange: [0.95, 0.42, 0.05], white: [0.95, 0.95, 0.95] } as const;
const BAND = 0.2;
/** Splat spacing on fence faces, metres. */
const FENCE_STEP = 0.06;

/**
 * Bakes blockers as splats (world frame, positions relative to `origin`): every side of the
 * extruded polygon as a banded vertical panel from the ground (the lowest ground height under its
 * vertices) to the blocker's height, and the top face.
 */
export function bakeBlockers(world: World, blockers: readonly Blocker[]): SplatCloud {
  const out = new SplatBuilder();
  for (const b of blockers) {
    const ring = b.polygon as Ring;
    const z0 = Math.min(...ring.map(([x, y]) => groundHeight(world, x, y)));
    const band = (_: number, v: number) => (Math.floor((v + b.height / 2) / BAND) % 2 === 0 ? FENCE_COLORS.orange : FENCE_COLORS.white);
    ring.forEach((p, i) => {
      const q = ring[(i + 1) % ring.length];
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (len < 1e-6) return;
      // Outward normal of a CCW ring's edge: the edge direction turned clockwise.
      const normal: Vec2 = [(q[1] - p[1]) / len, -(q[0] - p[0]) / len];
      addPanel(out, (p[0] + q[0]) / 2, (p[1] + q[1]) / 2, z0 + b.height / 2, normal, len, b.height, band, FENCE_STEP);
    });
    // Top face: a row of flat splats along the polygon's longest diagonal extent (fences are thin).
    const [cx, cy] = [ring.reduce((s, p) => s + p[0], 0) / ring.length, ring.reduce((s, p) => s + p[1], 0) / ring.length];
    for (const p of ring) {
      const n = Math.max(1, Math.ceil(Math.hypot(p[0] - cx, p[1] - cy) / FENCE_STEP));
      for (let k = 0; k < n; k++) out.addFlat(cx + ((p[0] - cx) * k) / n, cy + ((p[1] - cy) * k) / n, z0 + b.height, FENCE_STEP, FENCE_COLORS.orange);
    }
  }
  return out.toCloud([0, 0, 0]);
}

/**
 * Concatenates clouds (world frame) into `out` when it is large enough (else a new cloud), at the
 * highest SH degree among them (a lower-degree cloud's missing bands are zero). Degree 0 is
 * {@link assembleChunks} with zero origins.
 */
export function concatClouds(clouds: readonly SplatCloud[], out?: SplatCloud): SplatCloud {
  const degree = Math.max(0, ...clouds.map((c) => c.shDegree));
  if (degree === 0) return assembleChunks(clouds.map((cloud, id) => ({ id, ix: 0, iy: 0, origin: [0, 0, 0], cloud })), out);
  const total = clouds.reduce((s, c) => s + c.count, 0);
  const K = shRestCount(degree);
  const buf = out && out.shDegree === degree && out.opacities.length >= total ? out : allocateSplatCloud(Math.max(1, total), degree);
  let o = 0;
  for (const c of clouds) {
    for (const [key, per] of [['positions', 3], ['scales', 3], ['rotations', 4], ['opacities', 1], ['shDc', 3]] as const) buf[key].set(c[key].subarray(0, per * c.count), per * o);
    const k = shRestCount(c.shDegree);
    const rest = buf.shRest.subarray(3 * K * o, 3 * K * (o + c.count));
    rest.fill(0);
    for (let i = 0; i < c.count && k > 0; i++) rest.set(c.shRest.subarray(3 * k * i, 3 * k * (i + 1)), 3 * K * i);
    o += c.count;
  }
  const view = (a: Float32Array, per: number) => a.subarray(0, per * total);
  return { count: total, shDegree: degree, positions: view(buf.positions, 3), scales: view(buf.scales, 3), rotations: view(buf.rotations, 4), opacities: view(buf.opacities, 1), shDc: view(buf.shDc, 3), shRest: view(buf.shRest, 3 * K) };
}

/** A fixed cloud (a scanned capture): `changed` only on the first view. */
export class StaticBackground implements SplatBackground {
  private shown = false;
  constructor(readonly cloud: SplatCloud) {}
  view(): { cloud: SplatCloud; changed: boolean } {
    const changed = !this.shown;
    this.shown = true;
    return { cloud: this.cloud, changed };
  }
}

/**
 * A background plus baked blockers and closure fences: the blockers, and the fences of the closures
 * shown ({@link showClosures}), within the view distance (horizontal distance from the eye to their
 * bounds) are appended to the base's cloud. `changed` is true when the base's cloud changed or the
 * set of visible pieces did.
 */
export class BlockedBackground implements SplatBackground {
  private readonly pieces: { cloud: SplatCloud; box: [number, number, number, number]; closure: number }[];
  private key = '';
  private assembly: SplatCloud | undefined;
  private current: SplatCloud | null = null;
  private closureShown: (closure: number) => boolean = () => false;

  /**
   * @param closureFences per scenario closure, its fences (CCW rings, metres; drawn
   *   {@link FENCE_HEIGHT} high), hidden until {@link showClosures} shows them.
   */
  constructor(readonly base: SplatBackground, world: World, blockers: readonly Blocker[], closureFences: readonly (readonly Ring[])[] = []) {
    const piece = (b: Blocker, closure: number) => {
      const xs = b.polygon.map((p) => p[0]), ys = b.polygon.map((p) => p[1]);
      return { cloud: bakeBlockers(world, [b]), box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as [number, number, number, number], closure };
    };
    this.pieces = [...blockers.map((b) => piece(b, -1)), ...closureFences.flatMap((fences, i) => fences.map((f) => piece({ polygon: f, height: FENCE_HEIGHT }, i)))];
  }

  /**
   * Draws the fences of closure i whenever `shown(i)` (e.g. `EpisodeRun.closureActive`, asked at
   * every view; a view after the answer changed reports `changed`).
   */
  showClosures(shown: (closure: number) => boolean): void {
    this.closureShown = shown;
  }

  view(camera: PinholeCamera, options: SplatViewOptions = {}): { cloud: SplatCloud; changed: boolean } {
    const base = this.base.view(camera, options);
    const vd = options.viewDistance ?? DEFAULT_VIEW_DISTANCE;
    const [ex, ey] = camera.eye;
    const visible = this.pieces.filter(({ box: b, closure }) => (closure < 0 || this.closureShown(closure)) && Math.hypot(Math.max(b[0] - ex, 0, ex - b[2]), Math.max(b[1] - ey, 0, ey - b[3])) <= vd);
    const key = visible.map((p) => this.pieces.indexOf(p)).join(',');
    if (this.current && !base.changed && key === this.key) return { cloud: this.current, changed: false };
    this.key = key;
    if (visible.length === 0) this.current = base.cloud;
    else {
      const parts = [base.cloud, ...visible.map((p) => p.cloud)];
      const total = parts.reduce((s, c) => s + c.count, 0), degree = Math.max(...parts.map((c) => c.shDegree));
      if (!this.assembly || this.assembly.shDegree !== degree || this.assembly.opacities.length < total) this.assembly = allocateSplatCloud(Math.ceil(total * 1.25), degree);
      this.current = concatClouds(parts, this.assembly);
    }
    return { cloud: this.current, changed: true };
  }
}

/** Options of {@link scenarioBackground}. */
export interface ScenarioBackgroundOptions {
  /**
   * Scene worlds: the capture's splats as `loadSplatFile` gives them (capture frame; the scene's
   * transform is applied here). Read it from `sceneCapturePath(scenario.world.path, world.scene)`.
   */
  capture?: SplatCloud;
  /**
   * The world's own splats, already built (e.g. a view of baked chunks shared between scenarios of
   * one world, or a capture transformed once); default a new ChunkedWorld, or the transformed
   * `capture` for scene worlds.
   */
  base?: SplatBackground;
}

/**
 * The background of a scenario: its world's splats (procedural: `options.base` or a new
 * ChunkedWorld; scene: the transformed capture) plus its blockers' fences and its closures' fences
 * (a {@link BlockedBackground}: show the closures in force with `showClosures`).
 *
 * @throws Error for a scene world without `options.capture` or `options.base`.
 */
export function scenarioBackground(scenario: Scenario, world: ScenarioWorld, options: ScenarioBackgroundOptions = {}): SplatBackground {
  let base: SplatBackground;
  if (options.base) base = options.base;
  else if (world.scene) {
    if (!options.capture) throw new Error(`${scenario.id}: a scene world's background needs the capture splats (options.capture)`);
    base = new StaticBackground(transformSplatCloud(options.capture, sceneTransform(world.scene)));
  } else base = new ChunkedWorld(world.world);
  const closures = world.closures?.closures.map((c) => c.fences) ?? [];
  return scenario.blockers?.length || closures.length ? new BlockedBackground(base, world.world, scenario.blockers ?? [], closures) : base;
}
