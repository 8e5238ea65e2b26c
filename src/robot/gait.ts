/**
 * A legged robot's camera motion while it walks: a deterministic function of the distance travelled
 * (the step phase) and the current speed, so the same trajectory always gives the same frames.
 *
 * With step length s (metres travelled per footfall) and distance d, the phase is φ = π d / s, so
 * every footfall is half a cycle of φ and one stride (two footfalls: left and right, or the two
 * diagonal pairs of a trot) is a full cycle. Relative to the standing mount, in the robot frame
 * (x forward, y left, z up):
 *
 *   up    = −A_z cos 2φ     (lowest at each footfall, highest mid-stance: once per step)
 *   left  =  A_y sin φ      (sway toward the stance side: once per stride)
 *   roll  =  A_r sin φ      (about x, right-handed: once per stride)
 *   pitch =  A_p sin 2φ     (positive looks down: once per step)
 *
 * each scaled by k = min(1, speed / fullAmplitudeSpeed), so the motion fades in from a standstill and
 * is exactly zero when the robot stands still. The step frequency at speed v is v / s steps per second.
 * The motion is periodic in d with period 2 s (one stride); the bob and the pitch with period s.
 */

/** The gait parameters of a legged embodiment (sources and choices in embodiments.ts). */
export interface GaitModel {
  /** Distance travelled per footfall, metres (one step; a stride is two). */
  stepLength: number;
  /** Vertical bob amplitude, metres (half the peak-to-peak excursion). */
  bobAmplitude: number;
  /** Lateral sway amplitude, metres. */
  swayAmplitude: number;
  /** Roll amplitude, degrees. */
  rollAmplitudeDeg: number;
  /** Pitch amplitude, degrees. */
  pitchAmplitudeDeg: number;
  /** Speed from which the motion has its full amplitude, m/s (below it the amplitudes scale linearly with speed). */
  fullAmplitudeSpeed: number;
}

/** The gait's camera offset from the standing mount (robot frame: x forward, y left, z up). */
export interface GaitOffset {
  /** Vertical offset, metres. */
  up: number;
  /** Lateral offset, metres (positive left). */
  left: number;
  /** Roll about the forward axis, degrees (right-handed about x: positive raises the camera's left side). */
  rollDeg: number;
  /** Pitch, degrees, positive looks down (added to the mount's pitch). */
  pitchDeg: number;
}

/** The offset of a camera at rest. */
export const NO_GAIT_OFFSET: Readonly<GaitOffset> = Object.freeze({ up: 0, left: 0, rollDeg: 0, pitchDeg: 0 });

/**
 * The gait's camera offset after `distance` metres travelled at `speed` m/s (see the module comment).
 *
 * @throws RangeError when distance or speed is not finite.
 */
export function gaitOffset(gait: GaitModel, distance: number, speed: number): GaitOffset {
  if (!Number.isFinite(distance) || !Number.isFinite(speed)) throw new RangeError(`gaitOffset: distance ${distance} m and speed ${speed} m/s must be finite`);
  const k = Math.min(1, Math.abs(speed) / gait.fullAmplitudeSpeed);
  if (k === 0) return { ...NO_GAIT_OFFSET };
  const phi = (Math.PI * distance) / gait.stepLength;
  return {
    up: -k * gait.bobAmplitude * Math.cos(2 * phi),
    left: k * gait.swayAmplitude * Math.sin(phi),
    rollDeg: k * gait.rollAmplitudeDeg * Math.sin(phi),
    pitchDeg: k * gait.pitchAmplitudeDeg * Math.sin(2 * phi),
  };
}

/** Footfalls per second at `speed` m/s (the step frequency): speed / stepLength. */
export function stepFrequency(gait: GaitModel, speed: number): number {
  return Math.abs(speed) / gait.stepLength;
}

/**
 * Distance travelled and current speed of a robot seen once per rendered frame: each frame adds the
 * straight distance from the previous frame's position. A jump longer than `maxSpeed` × dt (a
 * long-horizon reset to a route waypoint) is not walked: it adds nothing and the speed reads 0.
 */
export class GaitOdometer {
  /** Metres travelled since the last {@link reset}. */
  distance = 0;
  /** Speed over the last frame interval, m/s (0 on the first frame). */
  speed = 0;
  private last: [number, number] | null = null;

  /** @param maxSpeed the embodiment's speed limit, m/s (jumps faster than this are resets, not walking). */
  constructor(private readonly maxSpeed: number) {}

  /** Starts a new episode: distance and speed 0, no previous position. */
  reset(): void {
    this.distance = 0;
    this.speed = 0;
    this.last = null;
  }

  /** The robot is at (x, y) metres, `dt` seconds after the previous frame (0 on an episode's first). */
  advance(x: number, y: number, dt: number): void {
    const step = this.last ? Math.hypot(x - this.last[0], y - this.last[1]) : 0;
    this.last = [x, y];
    if (!(dt > 0) || step > this.maxSpeed * dt * 1.01 + 1e-9) {
      this.speed = 0;
      return;
    }
    this.distance += step;
    this.speed = step / dt;
  }
}

/**
 * The camera's eye, look-at target and up vector (world frame, Z up, metres) for a robot at (x, y)
 * with yaw `yaw` (radians), camera `height` metres above `groundZ`, `pitchDeg` (positive looks
 * down) and a gait offset: the eye moves `up` and `left` in the robot frame, the pitch adds, and
 * the up vector turns by the roll about the forward axis.
 */
export function gaitCameraPose(x: number, y: number, yaw: number, groundZ: number, height: number, pitchDeg: number, g: GaitOffset): { eye: [number, number, number]; target: [number, number, number]; up: [number, number, number] } {
  const c = Math.cos(yaw);
  const s = Math.sin(yaw);
  const ex = x - s * g.left;
  const ey = y + c * g.left;
  const ez = groundZ + height + g.up;
  const pitch = ((pitchDeg + g.pitchDeg) * Math.PI) / 180;
  const roll = (g.rollDeg * Math.PI) / 180;
  // Up = R_forward(roll) · Z ≈ cos(roll) Z − sin(roll) · left axis (−s, c, 0) for the small pitches of a walking robot.
  return {
    eye: [ex, ey, ez],
    target: [ex + c * Math.cos(pitch), ey + s * Math.cos(pitch), ez - Math.sin(pitch)],
    up: [s * Math.sin(roll), -c * Math.sin(roll), Math.cos(roll)],
  };
}
