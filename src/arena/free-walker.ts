/**
 * The arena agent's free body: UrbanGround's first-person avatar (`docs/CONTROLS_AND_API.md` of
 * `UrbanGround/UrbanGround`: `move`/`sprint` forward, backward, left or right for a number of
 * seconds, `look` by yaw and pitch in degrees, positive yaw turning right) on a Curbside world. It
 * walks anywhere the ground is open (sidewalks, crosswalks, roads: staying on the pedestrian network
 * is measured, not enforced) and is stopped by buildings and props (the world's obstacle footprints),
 * the world's edge and pedestrians; each contact that begins counts once, by kind (UrbanGround's
 * `building_collisions` and `pedestrian_collisions`).
 *
 * Motion is integrated in {@link SUBSTEP} s steps; a step that would overlap something is not taken
 * (the avatar stops at the contact). World frame (Z up, metres), yaw rad from +x counter-clockwise.
 * Deterministic: the same actions and pedestrians give the same states bit for bit.
 */
import { pointInRing, pointRingDistance } from '../core/geometry2d';
import type { Vec2 } from '../world/geometry';
import { isWalkable, obstaclesNear } from '../world/queries';
import type { World } from '../world/world';
import { PITCH_MAX, PITCH_MIN, WALK_SPEED } from './walker';

/** Sprint speed, m/s (a jog; UrbanGround does not publish its avatar's speeds). */
export const SPRINT_SPEED = 3.0;
/** Radius of the avatar's footprint, metres (a person's shoulders). */
export const BODY_RADIUS = 0.25;
/** Integration step, seconds. */
export const SUBSTEP = 0.05;
/** Longest `move`/`sprint`, seconds (UrbanGround's released client allows 0.05–2 s). */
export const MAX_MOVE_SECONDS = 2;

/** Directions of `move` and `sprint`, as angles left of the camera's heading, rad. */
export const MOVE_DIRECTIONS = { forward: 0, backward: Math.PI, left: Math.PI / 2, right: -Math.PI / 2 } as const;
export type MoveDirection = keyof typeof MOVE_DIRECTIONS;

/** A pedestrian the avatar can bump into: centre (metres) and radius. */
export interface BodyDisc {
  x: number;
  y: number;
  radius: number;
}

/** The avatar's pose and counters. */
export interface FreeWalkerState {
  position: Vec2;
  /** Heading of the camera and body, rad from +x. */
  yaw: number;
  /** Camera pitch, rad, up positive. */
  pitch: number;
  buildingCollisions: number;
  pedestrianCollisions: number;
  /** Seconds of movement executed, and those of it on the pedestrian network (sidewalk or crosswalk ground). */
  movingSeconds: number;
  networkSeconds: number;
}

/** What one move did. */
export interface MoveResult {
  distance: number;
  seconds: number;
  /** What stopped it first, or null. */
  blockedBy: 'building' | 'prop' | 'pedestrian' | 'edge' | null;
}

const wrap = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));

/** The free avatar (see the module comment). */
export class FreeWalker {
  private s: FreeWalkerState;
  private touching = { building: false, pedestrian: false };

  /** @throws RangeError when the start is inside an obstacle or outside the world. */
  constructor(private readonly world: World, start: { position: Vec2; yaw: number; pitch?: number }) {
    this.s = { position: [start.position[0], start.position[1]], yaw: wrap(start.yaw), pitch: start.pitch ?? 0, buildingCollisions: 0, pedestrianCollisions: 0, movingSeconds: 0, networkSeconds: 0 };
    const hit = this.overlap(this.s.position, []);
    if (hit && hit !== 'pedestrian') throw new RangeError(`free walker: start (${start.position[0].toFixed(2)}, ${start.position[1].toFixed(2)}) is ${hit === 'edge' ? 'outside the world' : `inside a ${hit}`}`);
  }

  /** A copy of the state. */
  get state(): FreeWalkerState {
    return { ...this.s, position: [this.s.position[0], this.s.position[1]] };
  }

  /** What the body disc at `p` would overlap, or null. */
  private overlap(p: Vec2, pedestrians: readonly BodyDisc[]): MoveResult['blockedBy'] {
    const b = this.world.bounds;
    if (p[0] - BODY_RADIUS < b[0] || p[0] + BODY_RADIUS > b[2] || p[1] - BODY_RADIUS < b[1] || p[1] + BODY_RADIUS > b[3]) return 'edge';
    for (const o of obstaclesNear(this.world, p, BODY_RADIUS)) {
      if (pointInRing(p[0], p[1], o.footprint) || pointRingDistance(p[0], p[1], o.footprint) < BODY_RADIUS) return o.kind === 'building' ? 'building' : 'prop';
    }
    for (const d of pedestrians) if (Math.hypot(d.x - p[0], d.y - p[1]) < d.radius + BODY_RADIUS) return 'pedestrian';
    return null;
  }

  /**
   * Moves (`sprint`: at {@link SPRINT_SPEED}, else {@link WALK_SPEED}) in `dir` relative to the
   * camera's heading for `seconds`, among `pedestrians` (held where they are during the move).
   *
   * @throws RangeError for a duration outside [0, {@link MAX_MOVE_SECONDS}].
   */
  move(dir: MoveDirection, seconds: number, sprint = false, pedestrians: readonly BodyDisc[] = []): MoveResult {
    if (!(seconds >= 0 && seconds <= MAX_MOVE_SECONDS)) throw new RangeError(`move: seconds must be in [0, ${MAX_MOVE_SECONDS}], got ${seconds}`);
    const speed = sprint ? SPRINT_SPEED : WALK_SPEED;
    const heading = this.s.yaw + MOVE_DIRECTIONS[dir];
    const [dx, dy] = [Math.cos(heading), Math.sin(heading)];
    const steps = Math.round(seconds / SUBSTEP);
    let distance = 0;
    let blockedBy: MoveResult['blockedBy'] = null;
    for (let k = 0; k < steps; k++) {
      const dt = k === steps - 1 ? seconds - SUBSTEP * (steps - 1) : SUBSTEP;
      const [x, y] = this.s.position;
      const next: Vec2 = [x + dx * speed * dt, y + dy * speed * dt];
      const hit = this.overlap(next, pedestrians);
      const kind = hit === 'pedestrian' ? 'pedestrian' : hit === 'building' || hit === 'prop' ? 'building' : null;
      for (const c of ['building', 'pedestrian'] as const) {
        if (kind === c && !this.touching[c]) {
          if (c === 'building') this.s.buildingCollisions++;
          else this.s.pedestrianCollisions++;
        }
        this.touching[c] = kind === c;
      }
      this.s.movingSeconds += dt;
      if (isWalkable(this.world, x, y)) this.s.networkSeconds += dt;
      if (hit) {
        blockedBy ??= hit;
        continue;
      }
      this.s.position = next;
      distance += speed * dt;
    }
    return { distance, seconds, blockedBy };
  }

  /**
   * Puts the avatar at `position` (heading `yaw`, rad, or kept), as a teleport: no time passes, no
   * contact is counted, and the counters stay.
   *
   * @throws RangeError when the spot is inside a building or prop or outside the world (the avatar stays).
   */
  teleport(position: Vec2, yaw = this.s.yaw): void {
    const hit = this.overlap(position, []);
    if (hit && hit !== 'pedestrian') throw new RangeError(`(${position[0].toFixed(2)}, ${position[1].toFixed(2)}) is ${hit === 'edge' ? 'outside the world' : `inside a ${hit}`}`);
    this.s.position = [position[0], position[1]];
    this.s.yaw = wrap(yaw);
    this.touching = { building: false, pedestrian: false };
  }

  /** Turns the camera `yawDeg` degrees to the right (UrbanGround's sign) and tilts it `pitchDeg` up, clamped. */
  look(yawDeg: number, pitchDeg: number): void {
    if (!Number.isFinite(yawDeg) || !Number.isFinite(pitchDeg)) throw new RangeError(`look: yaw ${yawDeg}, pitch ${pitchDeg} are not angles`);
    this.s.yaw = wrap(this.s.yaw - (yawDeg * Math.PI) / 180);
    this.s.pitch = Math.min(PITCH_MAX, Math.max(PITCH_MIN, this.s.pitch + (pitchDeg * Math.PI) / 180));
  }

  /** Share of the movement time spent on the pedestrian network (UrbanGround's network adherence), or null before any move. */
  networkAdherence(): number | null {
    return this.s.movingSeconds > 0 ? this.s.networkSeconds / this.s.movingSeconds : null;
  }
}
