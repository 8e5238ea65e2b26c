/**
 * From simulated pedestrians to what the renderer draws: per-pedestrian motion state machines
 * (src/humans/motion: stride phase, speed ramps, gesture blending) driven by each pedestrian's
 * `animation()` state, SMPL poses for the skinner, placements on the ground, seeded appearances,
 * and stand-in boxes for the marker pass. CPU only, no DOM.
 */
import type { AnimationState } from '../crowd/scenario-pedestrians';
import type { PedestrianDisc } from '../robot/failure-monitor';
import { MAX_WALK_SPEED, PedestrianMotion, POSE_FLOATS, defaultSkeleton } from '../humans/motion';
import { randomAppearance, type PedestrianAppearance, type PedestrianPlacement } from '../humans/pedestrian-appearance';
import type { Box3 } from './box-pass';

/** Poses, placements and appearances of one frame's pedestrians. */
export interface CrowdFrame {
  count: number;
  /** count × POSE_FLOATS f32 (24 × 3 axis-angle + root translation). */
  poses: Float32Array;
  placements: PedestrianPlacement[];
  appearances: PedestrianAppearance[];
}

/** Animates a crowd whose size is fixed for an episode (see the module doc). */
export class CrowdView {
  private readonly motions: PedestrianMotion[];
  readonly appearances: PedestrianAppearance[];
  private readonly poses: Float32Array;

  /** @param seed episode seed: pedestrian i's look and gait style derive from seed + i. */
  constructor(readonly count: number, seed: number) {
    const skeleton = defaultSkeleton();
    this.motions = Array.from({ length: count }, (_, i) => new PedestrianMotion(skeleton, (seed + 7919 * (i + 1)) >>> 0));
    this.appearances = Array.from({ length: count }, (_, i) => randomAppearance((seed + 104729 * (i + 1)) >>> 0));
    this.poses = new Float32Array(Math.max(1, count) * POSE_FLOATS);
  }

  /**
   * Advances the gaits by `dt` seconds towards the simulated states and returns this frame's poses
   * and placements (positions from the simulation, at ground height `groundZ(x, y)`).
   */
  update(dt: number, discs: readonly PedestrianDisc[], animation: readonly AnimationState[], groundZ: (x: number, y: number) => number): CrowdFrame {
    const placements: PedestrianPlacement[] = [];
    for (let i = 0; i < this.count; i++) {
      const a = animation[i], d = discs[i];
      const m = this.motions[i];
      m.update(Math.max(0, dt), { walkSpeed: Math.min(MAX_WALK_SPEED, a.walkSpeed), turnRate: 0, gesture: a.gesture, idle: 'stand' });
      m.pose(this.poses, i * POSE_FLOATS);
      placements.push({ position: [d.x, d.y, groundZ(d.x, d.y)], yaw: a.heading });
    }
    return { count: this.count, poses: this.poses, placements, appearances: this.appearances };
  }

  /** Stand-in figures for the marker pass: a torso box and a head box per pedestrian, in its upper colour. */
  standIns(frame: CrowdFrame): Box3[] {
    const out: Box3[] = [];
    frame.placements.forEach((p, i) => {
      const a = frame.appearances[i];
      const [x, y, z] = p.position;
      out.push({ centre: [x, y, z + 0.75], yaw: p.yaw, halfSize: [0.14, 0.22, 0.75], color: a.upperColor });
      out.push({ centre: [x, y, z + 1.62], yaw: p.yaw, halfSize: [0.11, 0.1, 0.12], color: a.skinColor });
    });
    return out;
  }
}
