/**
 * Writer for INRIA 3D Gaussian Splatting `.ply` files (binary little-endian, all properties
 * float): the inverse of `loadPly` (the layout of `gaussian_model.py: save_ply`). Used to bake
 * procedural blocks into street-scale captures (`npm run bake`) that every loader reads like a scan.
 *
 * Properties per splat: `x y z nx ny nz f_dc_0..2 f_rest_0..K-1 opacity scale_0..2 rot_0..3`, with
 * f_rest channel-major, opacity as a logit (inverse sigmoid; opacities are clamped to
 * [1e-6, 1 − 1e-6] first, so fully opaque splats stay finite), scales as natural logs, rot_0 = w.
 * The body is produced in batches so files of any size stream to disk.
 */
import { shRestCount, type SplatCloud } from '../splat-cloud';

/** The PLY header for `count` splats of SH degree `shDegree`. */
export function plyHeader(count: number, shDegree: number): string {
  const rest = shRestCount(shDegree) * 3;
  const props = ['x', 'y', 'z', 'nx', 'ny', 'nz', 'f_dc_0', 'f_dc_1', 'f_dc_2', ...Array.from({ length: rest }, (_, k) => `f_rest_${k}`), 'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'];
  return `ply\nformat binary_little_endian 1.0\nelement vertex ${count}\n${props.map((p) => `property float ${p}`).join('\n')}\nend_header\n`;
}

/** Floats per splat record for an SH degree. */
export function plyFloatsPerSplat(shDegree: number): number {
  return 17 + shRestCount(shDegree) * 3;
}

/**
 * Calls `write` with the header and then the body in batches of at most `batch` splats (one
 * reused buffer: `write` must copy or consume it before returning).
 *
 * @throws RangeError when an opacity is outside [0, 1] or a scale is not positive (no log).
 */
export function writePly(cloud: SplatCloud, write: (bytes: Uint8Array) => void, batch = 65_536): void {
  write(new TextEncoder().encode(plyHeader(cloud.count, cloud.shDegree)));
  const K = shRestCount(cloud.shDegree);
  const stride = plyFloatsPerSplat(cloud.shDegree);
  const buf = new Float32Array(Math.min(batch, Math.max(cloud.count, 1)) * stride);
  for (let start = 0; start < cloud.count; start += batch) {
    const n = Math.min(batch, cloud.count - start);
    for (let j = 0; j < n; j++) {
      const i = start + j;
      const o = j * stride;
      buf.set(cloud.positions.subarray(3 * i, 3 * i + 3), o);
      buf[o + 3] = buf[o + 4] = buf[o + 5] = 0;
      buf.set(cloud.shDc.subarray(3 * i, 3 * i + 3), o + 6);
      for (let c = 0; c < 3; c++) for (let k = 0; k < K; k++) buf[o + 9 + c * K + k] = cloud.shRest[(i * K + k) * 3 + c];
      if (!(cloud.opacities[i] >= 0 && cloud.opacities[i] <= 1)) throw new RangeError(`writePly: splat ${i} has opacity ${cloud.opacities[i]}, outside [0, 1]`);
      const op = Math.min(1 - 1e-6, Math.max(1e-6, cloud.opacities[i]));
      buf[o + 9 + 3 * K] = Math.log(op / (1 - op));
      for (let a = 0; a < 3; a++) {
        const s = cloud.scales[3 * i + a];
        if (!(s > 0)) throw new RangeError(`writePly: splat ${i} has scale ${s} on axis ${a}`);
        buf[o + 10 + 3 * K + a] = Math.log(s);
      }
      buf.set(cloud.rotations.subarray(4 * i, 4 * i + 4), o + 13 + 3 * K);
    }
    write(new Uint8Array(buf.buffer, 0, n * stride * 4));
  }
}
