/**
 * The demo's camera modes as pinhole cameras (world frame, Z up, metres): orbit around a point,
 * follow the robot from behind, the robot's own eye (the policy camera mount), and a top-down map
 * view. Pure functions; the app shell keeps the {@link OrbitControl} state from mouse input.
 */
import type { PinholeCamera, Vec3 } from '../gpu/camera';
import { DEFAULT_CAMERA_MOUNT } from '../policy/manifest';
import type { RobotState } from '../robot/unicycle';

/** Camera modes offered by the picker. */
export const CAMERA_MODES = ['orbit', 'follow', 'robot-eye', 'top-down'] as const;
export type CameraMode = (typeof CAMERA_MODES)[number];

/** Orbit state: azimuth (rad, from +x), elevation (rad above the horizon), distance (m). */
export interface OrbitControl {
  azimuth: number;
  elevation: number;
  distance: number;
}

/** A fresh orbit behind a robot heading `yaw`, 9 m away and 25° up. */
export function defaultOrbit(yaw: number): OrbitControl {
  return { azimuth: yaw + Math.PI + 0.5, elevation: (25 * Math.PI) / 180, distance: 9 };
}

/** Clamps an orbit to elevations in [5°, 89°] and distances in [2, 120] m. */
export function clampOrbit(o: OrbitControl): OrbitControl {
  return {
    azimuth: o.azimuth,
    elevation: Math.min((89 * Math.PI) / 180, Math.max((5 * Math.PI) / 180, o.elevation)),
    distance: Math.min(120, Math.max(2, o.distance)),
  };
}

/**
 * The camera of `mode` for a robot in state `robot` standing on ground height `groundZ`.
 *
 * @param orbit used by the orbit mode (around the robot) and for the top-down height (its distance).
 * @param mount the robot-eye mode's camera height (m), pitch (degrees, positive down) and field of view
 *   (default the wheeled robot's, {@link DEFAULT_CAMERA_MOUNT}; robot/embodiments.ts: embodiedMount).
 */
export function modeCamera(mode: CameraMode, robot: RobotState, groundZ: number, orbit: OrbitControl, width: number, height: number, mount: { height: number; pitchDeg: number; fovYDeg: number } = DEFAULT_CAMERA_MOUNT): PinholeCamera {
  const base = { width, height, up: [0, 0, 1] as Vec3, near: 0.05, far: 400 };
  const c = Math.cos(robot.yaw), s = Math.sin(robot.yaw);
  switch (mode) {
    case 'robot-eye': {
      const h = groundZ + mount.height;
      const eye: Vec3 = [robot.x + 0.3 * c, robot.y + 0.3 * s, h];
      const pitch = (mount.pitchDeg * Math.PI) / 180;
      return { ...base, eye, target: [eye[0] + c, eye[1] + s, h - Math.tan(pitch)], fovYDeg: mount.fovYDeg };
    }
    case 'follow': {
      const eye: Vec3 = [robot.x - 5 * c, robot.y - 5 * s, groundZ + 2.6];
      return { ...base, eye, target: [robot.x + 3 * c, robot.y + 3 * s, groundZ + 0.5], fovYDeg: 60 };
    }
    case 'top-down': {
      const h = Math.max(15, orbit.distance * 3);
      // Looking straight down with north (+y) up on screen.
      return { ...base, eye: [robot.x, robot.y, groundZ + h], target: [robot.x, robot.y, groundZ], up: [0, 1, 0], fovYDeg: 60, far: h + 100 };
    }
    default: {
      const o = clampOrbit(orbit);
      const ce = Math.cos(o.elevation);
      const target: Vec3 = [robot.x, robot.y, groundZ + 0.6];
      const eye: Vec3 = [target[0] + o.distance * ce * Math.cos(o.azimuth), target[1] + o.distance * ce * Math.sin(o.azimuth), target[2] + o.distance * Math.sin(o.elevation)];
      return { ...base, eye, target, fovYDeg: 55 };
    }
  }
}
