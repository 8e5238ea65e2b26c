/**
 * Real spherical harmonics up to degree 3, as used by 3DGS for view-dependent colour
 * (Kerbl et al. 2023, §4; constants and sign conventions of the reference CUDA rasteriser,
 * `forward.cu: computeColorFromSH`, which follows Sloan, "Stupid Spherical Harmonics Tricks").
 */
import { SH_C0, type SplatCloud } from './splat-cloud';

export { SH_C0 };
export const SH_C1 = 0.4886025119029199;
export const SH_C2 = [1.0925484305920792, -1.0925484305920792, 0.31539156525252005, -1.0925484305920792, 0.5462742152960396];
export const SH_C3 = [
  -0.5900435899266435, 2.890611442640554, -0.4570457994644658, 0.3731763325901154, -0.4570457994644658,
  1.445305721320277, -0.5900435899266435,
];

/**
 * Evaluates the colour of splat `i` seen along unit direction `dir` (from the eye to the splat,
 * in the cloud's frame), returning RGB in `out`, clamped at 0 like the reference (`max(0, c + 0.5)`).
 */
export function evalSplatColor(cloud: SplatCloud, i: number, dir: ArrayLike<number>, out: Float64Array): Float64Array {
  const x = dir[0];
  const y = dir[1];
  const z = dir[2];
  const deg = cloud.shDegree;
  const k = (deg + 1) * (deg + 1) - 1;
  const rest = cloud.shRest;
  const basis = new Float64Array(16);
  basis[0] = SH_C0;
  if (deg > 0) {
    basis[1] = -SH_C1 * y;
    basis[2] = SH_C1 * z;
    basis[3] = -SH_C1 * x;
  }
  if (deg > 1) {
    const xx = x * x, yy = y * y, zz = z * z, xy = x * y, yz = y * z, xz = x * z;
    basis[4] = SH_C2[0] * xy;
    basis[5] = SH_C2[1] * yz;
    basis[6] = SH_C2[2] * (2 * zz - xx - yy);
    basis[7] = SH_C2[3] * xz;
    basis[8] = SH_C2[4] * (xx - yy);
    if (deg > 2) {
      basis[9] = SH_C3[0] * y * (3 * xx - yy);
      basis[10] = SH_C3[1] * xy * z;
      basis[11] = SH_C3[2] * y * (4 * zz - xx - yy);
      basis[12] = SH_C3[3] * z * (2 * zz - 3 * xx - 3 * yy);
      basis[13] = SH_C3[4] * x * (4 * zz - xx - yy);
      basis[14] = SH_C3[5] * z * (xx - yy);
      basis[15] = SH_C3[6] * x * (xx - 3 * yy);
    }
  }
  for (let c = 0; c < 3; c++) {
    let v = basis[0] * cloud.shDc[i * 3 + c];
    for (let j = 0; j < k; j++) v += basis[j + 1] * rest[(i * k + j) * 3 + c];
    out[c] = Math.max(0, v + 0.5);
  }
  return out;
}
