/**
 * Default camera for a splat file seen on its own (no scene file): frames the robust bounds of the
 * centres from the capture's own convention. 3DGS captures come from COLMAP in OpenCV axes
 * (x right, y down, z forward), so up is −y and the default view looks along +z at the bounds'
 * centre from far enough back that the bounding sphere fits the vertical field of view.
 */
import type { PinholeCamera, Vec3 } from '../gpu/camera';
import { splatBounds, type SplatBounds } from './formats';
import type { SplatCloud } from './splat-cloud';

/** Up vector of the default view of a raw capture (COLMAP/OpenCV: y down). */
export const CAPTURE_UP: Vec3 = [0, -1, 0];

/**
 * A camera looking at `bounds.center` along +z (capture frame) that fits the bounding sphere.
 * Near and far planes bracket the sphere with margin.
 */
export function frameSplatBounds(bounds: SplatBounds, width: number, height: number, fovYDeg = 50): PinholeCamera {
  const r = Math.max(bounds.radius, 1e-3);
  const halfFov = (Math.min(fovYDeg, (fovYDeg * width) / height) * Math.PI) / 360;
  const distance = (r / Math.sin(halfFov)) * 1.05;
  const [cx, cy, cz] = bounds.center;
  return {
    eye: [cx, cy, cz - distance],
    target: [cx, cy, cz],
    up: CAPTURE_UP,
    fovYDeg,
    width,
    height,
    near: Math.max(distance * 1e-3, 1e-3),
    far: distance + 20 * r,
  };
}

/** A requested view of a capture: size and field of view, and optionally where the camera is. */
export interface CaptureViewRequest {
  width: number;
  height: number;
  fovYDeg: number;
  eye?: Vec3;
  target?: Vec3;
  up?: Vec3;
}

/**
 * The camera of a requested view: the default framing (`frameSplatBounds`) with any of eye, target
 * and up replaced. With an explicit eye or target, the target gives a direction, not a depth
 * range: far reaches past every splat (the full bounds, not the robust ones) and near is small.
 * Depth keys span the visible splats whatever near and far are, so a wide range costs no sort
 * precision.
 */
export function captureCamera(cloud: SplatCloud, req: CaptureViewRequest): PinholeCamera {
  const framed = frameSplatBounds(splatBounds(cloud), req.width, req.height, req.fovYDeg);
  const camera: PinholeCamera = { ...framed, eye: req.eye ?? framed.eye, target: req.target ?? framed.target, up: req.up ?? framed.up };
  return req.eye || req.target ? reachAllSplats(camera, splatBounds(cloud, 0, 1)) : camera;
}

/**
 * `camera` with far past every splat of the full bounds `all` (`splatBounds(cloud, 0, 1)`) and a
 * small near plane: the depth range of a view whose target gives a direction only ({@link captureCamera}).
 */
export function reachAllSplats(camera: PinholeCamera, all: SplatBounds): PinholeCamera {
  const reach = Math.hypot(...all.center.map((c, k) => c - camera.eye[k])) + all.radius;
  const far = Math.max(1, reach * 1.01);
  return { ...camera, far, near: Math.min(0.01, Math.max(1e-4, far * 1e-6)) };
}
