/**
 * What `npm run crowd -- --world SEED` measures of a living city crowd, step by step, from the
 * batch's view (the same definitions for both backends):
 *
 * | field                | definition |
 * |----------------------|------------|
 * | propPenetrations     | contact events: a walker's centre comes closer than PEDESTRIAN_RADIUS − {@link PROP_TOLERANCE} to a static obstacle's footprint (or inside it); counted once per walker and obstacle until they separate |
 * | overlaps             | contact events: two walkers' centres closer than {@link OVERLAP_DISTANCE} (0.45 m); counted once per pair until they separate |
 * | standingDriftMedian / Max | per stand (a walker whose path is empty: arrived, pausing or waiting for its group), the largest distance from where the stand began, m; median and max over stands |
 * | stuck                | walkers that, while walking, moved less than {@link STUCK_PROGRESS} m from where they were {@link STUCK_SECONDS} s earlier at some time |
 * | meanSpeed            | mean speed over the walker-steps in which the walker was walking, m/s (SidewalkBench draws walking speeds in 1.1–1.65) |
 *
 * ORCA keeps discs apart only up to one step's discretisation (crowd-metrics.ts), hence the
 * tolerances. Frames: world x-y, metres, seconds.
 */
import type { Vec2 } from '../core/geometry2d';
import { pointInRing, pointRingDistance } from '../core/geometry2d';
import { obstaclesInBox } from '../world/queries';
import type { World } from '../world/world';
import type { PedestrianSlotView } from './pedestrian-batch';
import { PEDESTRIAN_RADIUS } from './scenario-pedestrians';

/** Two walkers closer than this (centre to centre) overlap, metres (the and SidewalkBench-style contact: 0.6 m bodies, 15 cm tolerance). */
export const OVERLAP_DISTANCE = 0.45;
/** A walker's cylinder may graze an obstacle by this much before it counts as a penetration, metres. */
export const PROP_TOLERANCE = 0.05;
/** Stuck: less progress than this … */
export const STUCK_PROGRESS = 0.5;
/** … over this long while walking, seconds. */
export const STUCK_SECONDS = 30;

/** The crowd metrics of a run (see the module comment). */
export interface CityCrowdMeasures {
  propPenetrations: number;
  overlaps: number;
  /** Smallest centre-to-centre distance between two walkers over the run, m. */
  minPairDistance: number | null;
  standingDriftMedian: number | null;
  standingDriftMax: number | null;
  /** Stands measured. */
  stands: number;
  stuck: number;
  meanSpeed: number;
}

interface Stand {
  start: Vec2;
  drift: number;
}

/** Accumulates {@link CityCrowdMeasures} over the steps of one slot. */
export class CityCrowdMetrics {
  private readonly inProp = new Set<string>();
  private readonly inPair = new Set<number>();
  private readonly stands: (Stand | null)[];
  private readonly finished: number[] = [];
  /** Per walker: positions of the last STUCK_SECONDS while walking (ring of samples per second). */
  private readonly history: { t: number; p: Vec2 }[][];
  private readonly stuckWalkers = new Set<number>();
  private propPenetrations = 0;
  private overlaps = 0;
  private minPair = Infinity;
  private speedSum = 0;
  private speedCount = 0;
  private time = 0;

  constructor(private readonly world: World, private readonly walkers: number) {
    this.stands = new Array(walkers).fill(null);
    this.history = Array.from({ length: walkers }, () => []);
  }

  /** Records the state after a step of `dt` s. */
  observe(view: PedestrianSlotView, dt: number): void {
    this.time += dt;
    const discs = view.discs();
    const vel = view.velocities();
    const n = this.walkers;
    for (let i = 0; i < n; i++) {
      const p: Vec2 = [discs[i].x, discs[i].y];
      this.props(i, p);
      for (let j = i + 1; j < n; j++) {
        const d = Math.hypot(discs[j].x - p[0], discs[j].y - p[1]);
        this.minPair = Math.min(this.minPair, d);
        const key = i * n + j;
        if (d < OVERLAP_DISTANCE) {
          if (!this.inPair.has(key)) this.overlaps++;
          this.inPair.add(key);
        } else this.inPair.delete(key);
      }
      if (view.walking(i)) {
        this.endStand(i);
        this.speedSum += Math.hypot(vel[i][0], vel[i][1]);
        this.speedCount++;
        this.progress(i, p);
      } else {
        this.history[i].length = 0;
        const s = this.stands[i];
        if (s) s.drift = Math.max(s.drift, Math.hypot(p[0] - s.start[0], p[1] - s.start[1]));
        else this.stands[i] = { start: p, drift: 0 };
      }
    }
  }

  /** The measures so far (open stands included). */
  result(): CityCrowdMeasures {
    const drifts = [...this.finished, ...this.stands.filter((s): s is Stand => s !== null).map((s) => s.drift)].sort((a, b) => a - b);
    const median = drifts.length === 0 ? null : drifts.length % 2 === 1 ? drifts[(drifts.length - 1) / 2] : (drifts[drifts.length / 2 - 1] + drifts[drifts.length / 2]) / 2;
    return {
      propPenetrations: this.propPenetrations,
      overlaps: this.overlaps,
      minPairDistance: Number.isFinite(this.minPair) ? this.minPair : null,
      standingDriftMedian: median,
      standingDriftMax: drifts.length === 0 ? null : drifts[drifts.length - 1],
      stands: drifts.length,
      stuck: this.stuckWalkers.size,
      meanSpeed: this.speedCount === 0 ? 0 : this.speedSum / this.speedCount,
    };
  }

  private endStand(i: number): void {
    const s = this.stands[i];
    if (s) this.finished.push(s.drift);
    this.stands[i] = null;
  }

  private props(i: number, p: Vec2): void {
    const reach = PEDESTRIAN_RADIUS;
    const touching = new Set<number>();
    for (const o of obstaclesInBox(this.world, [p[0] - reach, p[1] - reach, p[0] + reach, p[1] + reach])) {
      if (pointInRing(p[0], p[1], o.footprint) || pointRingDistance(p[0], p[1], o.footprint) < PEDESTRIAN_RADIUS - PROP_TOLERANCE) touching.add(o.id);
    }
    for (const id of touching) {
      const key = `${i}:${id}`;
      if (!this.inProp.has(key)) this.propPenetrations++;
      this.inProp.add(key);
    }
    for (const key of [...this.inProp]) {
      if (key.startsWith(`${i}:`) && !touching.has(Number(key.slice(key.indexOf(':') + 1)))) this.inProp.delete(key);
    }
  }

  private progress(i: number, p: Vec2): void {
    const h = this.history[i];
    if (h.length === 0 || this.time - h[h.length - 1].t >= 1 - 1e-9) h.push({ t: this.time, p });
    while (h.length > 0 && this.time - h[0].t > STUCK_SECONDS + 1e-9) h.shift();
    const first = h[0];
    if (first && this.time - first.t >= STUCK_SECONDS - 1e-9 && Math.hypot(p[0] - first.p[0], p[1] - first.p[1]) < STUCK_PROGRESS) this.stuckWalkers.add(i);
  }
}
