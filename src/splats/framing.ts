/**
 * Default camera for a splat file seen on its own (no scene file): frames the robust bounds of the
 * centres from the capture's own convention. 3DGS captures come from COLMAP in OpenCV axes
 * (x right, y down, z forward), so up is −y and the default view looks along +z at the bounds'
 * centre from far enough back that the bounding sphere fits the vertical field of view.
 */
import type { PinholeCamera, Vec3 } from '../gpu/camera';
import type { SplatBounds } from './formats';

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
