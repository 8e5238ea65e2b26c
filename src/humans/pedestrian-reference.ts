/**
 * Plain TypeScript (float64) reference of the pedestrian pass's vertex stage
 * (`shaders/humans/pedestrian.wgsl`) and a CPU silhouette rasteriser, the oracle of the GPU tests.
 *
 * Vertex transform: world = position + R_z(yaw)·p (body frame x forward, y left, z up), camera
 * frame by `worldToCamera` (OpenCV axes), then the pinhole projection u = fx·x/z + cx,
 * v = fy·y/z + cy, depth_ndc = far·(z − near)/(z·(far − near)) (as `cameraDepthToNdc`).
 * Rasterisation: a pixel is covered when its centre (i + 0.5, j + 0.5) lies inside a triangle
 * (edge functions, WebGPU spec §23.2.5 "Polygon Rasterization"; ties on an edge count as inside,
 * where WebGPU applies a top-left rule, so the two may differ on exact ties only).
 */
import { worldToCamera, type CameraModel } from '../gpu/camera';
import type { PedestrianPlacement } from './pedestrian-appearance';

/** A projected vertex: pixel coordinates (origin top-left, y down), camera depth z (m), NDC depth. */
export interface ProjectedVertex {
  u: number;
  v: number;
  z: number;
  ndcDepth: number;
}

/** Body-frame point p of a pedestrian → world frame (metres). */
export function pedestrianToWorld(placement: PedestrianPlacement, p: ArrayLike<number>, offset = 0): [number, number, number] {
  const c = Math.cos(placement.yaw), s = Math.sin(placement.yaw);
  const x = p[offset], y = p[offset + 1], z = p[offset + 2];
  return [placement.position[0] + c * x - s * y, placement.position[1] + s * x + c * y, placement.position[2] + z];
}

/** Projects a body-frame point of a pedestrian (see the module doc). z ≤ 0 gives non-finite u, v. */
export function projectPedestrianVertex(camera: CameraModel, placement: PedestrianPlacement, p: ArrayLike<number>, offset = 0): ProjectedVertex {
  const t = worldToCamera(camera, pedestrianToWorld(placement, p, offset));
  return {
    u: (camera.fx * t[0]) / t[2] + camera.cx,
    v: (camera.fy * t[1]) / t[2] + camera.cy,
    z: t[2],
    ndcDepth: (camera.far * (t[2] - camera.near)) / (t[2] * (camera.far - camera.near)),
  };
}

/**
 * CPU silhouette of pedestrians: width×height bytes, 1 where a triangle covers the pixel centre.
 *
 * @param skinned per pedestrian, its skinned vertices as V×stride floats (position first).
 * @param stride floats per vertex (6 for `skinnedVertices`).
 * @throws Error when a vertex lies at or behind the near plane (this reference does not clip).
 */
export function rasterizeSilhouette(
  camera: CameraModel,
  pedestrians: readonly { placement: PedestrianPlacement; skinned: ArrayLike<number> }[],
  faces: ArrayLike<number>,
  stride = 6,
): Uint8Array {
  const { width: W, height: H } = camera;
  const mask = new Uint8Array(W * H);
  for (const { placement, skinned } of pedestrians) {
    const V = skinned.length / stride;
    const proj = new Float64Array(V * 2);
    for (let v = 0; v < V; v++) {
      const p = projectPedestrianVertex(camera, placement, skinned, v * stride);
      if (!(p.z > camera.near)) throw new Error(`rasterizeSilhouette: vertex ${v} at depth ${p.z} m is not in front of the near plane`);
      proj[2 * v] = p.u;
      proj[2 * v + 1] = p.v;
    }
    for (let f = 0; f < faces.length; f += 3) {
      const [a, b, c] = [faces[f], faces[f + 1], faces[f + 2]];
      const ax = proj[2 * a], ay = proj[2 * a + 1], bx = proj[2 * b], by = proj[2 * b + 1], cx = proj[2 * c], cy = proj[2 * c + 1];
      const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
      if (area === 0) continue;
      const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx))), x1 = Math.min(W - 1, Math.ceil(Math.max(ax, bx, cx)));
      const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy))), y1 = Math.min(H - 1, Math.ceil(Math.max(ay, by, cy)));
      const sgn = Math.sign(area);
      for (let j = y0; j <= y1; j++) {
        for (let i = x0; i <= x1; i++) {
          const px = i + 0.5, py = j + 0.5;
          const w0 = sgn * ((bx - ax) * (py - ay) - (by - ay) * (px - ax));
          const w1 = sgn * ((cx - bx) * (py - by) - (cy - by) * (px - bx));
          const w2 = sgn * ((ax - cx) * (py - cy) - (ay - cy) * (px - cx));
          if (w0 >= 0 && w1 >= 0 && w2 >= 0) mask[j * W + i] = 1;
        }
      }
    }
  }
  return mask;
}

/** First and last image rows (top = 0) containing a covered pixel, or null for an empty mask. */
export function silhouetteRows(mask: Uint8Array, width: number): { top: number; bottom: number } | null {
  let top = -1, bottom = -1;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const r = Math.floor(i / width);
    if (top < 0) top = r;
    bottom = r;
  }
  return top < 0 ? null : { top, bottom };
}
