/**
 * Pinhole camera shared by every pass, and its GPU uniform (`shaders/common/camera.wgsl`).
 *
 * World frame: right-handed, Z up, metres (ROS REP 103). The camera frame follows the 3DGS
 * reference and OpenCV: x right, y down, z forward. Pixel origin is the top-left corner and
 * pixel (i, j) has its centre at (i + 0.5, j + 0.5).
 */
import { vec3 } from 'wgpu-matrix';

export type Vec3 = [number, number, number];

/** A perspective camera looking from `eye` at `target`. */
export interface PinholeCamera {
  /** Eye position, metres, world frame (kept in f64 on the host). */
  eye: Vec3;
  /** Point looked at, metres, world frame. */
  target: Vec3;
  /** Up direction, world frame (need not be unit or orthogonal to the view direction). */
  up: Vec3;
  /** Vertical field of view, degrees, in (0, 180). */
  fovYDeg: number;
  /** Image size, pixels. */
  width: number;
  height: number;
  /** Near and far plane distances, metres (0 < near < far). */
  near: number;
  far: number;
}

/**
 * An orthographic camera looking from `eye` towards `target` (a direction only: rays are parallel
 * to target − eye), as used for the top-down view of a capture in the scene editor. Only the splat
 * renderer (and its reference) draw through it.
 */
export interface OrthographicCamera {
  projection: 'orthographic';
  /** Eye position, metres, world frame: the image centre's ray starts here. */
  eye: Vec3;
  /** Any point on the viewing axis beyond the eye, metres, world frame. */
  target: Vec3;
  /** Up direction, world frame (need not be unit or orthogonal to the view direction). */
  up: Vec3;
  /** Ground sampling distance: metres per pixel, > 0. */
  metresPerPixel: number;
  /** Image size, pixels. */
  width: number;
  height: number;
  /** Near and far plane distances from the eye along the axis, metres (0 < near < far). */
  near: number;
  far: number;
}

/** A camera the splat renderer draws through. */
export type SplatCamera = PinholeCamera | OrthographicCamera;

/** Whether a camera is orthographic (an {@link OrthographicCamera}). */
export function isOrthographic(cam: SplatCamera): cam is OrthographicCamera {
  return (cam as OrthographicCamera).projection === 'orthographic';
}

/** Intrinsics and extrinsics derived from a {@link PinholeCamera} or {@link OrthographicCamera}, all in f64. */
export interface CameraModel {
  /**
   * Orthographic: pixel = (fx · x + cx, fy · y + cy) for camera-frame (x, y, z), fx = fy = pixels per
   * metre, and tanHalfFovX / Y are 0. Perspective (false): pixel = (fx · x / z + cx, fy · y / z + cy).
   */
  orthographic: boolean;
  /** World → camera rotation, row-major 3×3 (rows are the camera's x, y, z axes in world). */
  rotation: Float64Array;
  eye: Vec3;
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  tanHalfFovX: number;
  tanHalfFovY: number;
  width: number;
  height: number;
  near: number;
  far: number;
}

/**
 * Derives the camera model (OpenCV axes, focal lengths in pixels, square pixels; for an
 * orthographic camera fx = fy = 1 / metresPerPixel).
 *
 * @throws Error when eye = target, up is parallel to the view direction, or a value is out of range.
 */
export function cameraModel(cam: SplatCamera): CameraModel {
  const bad = (what: string) => new Error(`camera: ${what}`);
  const ortho = isOrthographic(cam);
  if (ortho && !(cam.metresPerPixel > 0 && Number.isFinite(cam.metresPerPixel))) throw bad(`metres per pixel ${cam.metresPerPixel} must be > 0`);
  if (!ortho && !(cam.fovYDeg > 0 && cam.fovYDeg < 180)) throw bad(`fov-y ${cam.fovYDeg}° is outside (0, 180)`);
  if (!(cam.width >= 1 && cam.height >= 1)) throw bad(`image size ${cam.width}×${cam.height} is empty`);
  if (!(cam.near > 0 && cam.far > cam.near)) throw bad(`near ${cam.near} / far ${cam.far} must satisfy 0 < near < far`);
  for (const v of [...cam.eye, ...cam.target, ...cam.up]) if (!Number.isFinite(v)) throw bad('eye, target and up must be finite');
  const f = vec3.sub(cam.target, cam.eye, new Float64Array(3));
  const fl = vec3.length(f);
  if (fl === 0) throw bad('eye and target coincide');
  vec3.scale(f, 1 / fl, f);
  const right = vec3.cross(f, cam.up, new Float64Array(3));
  const rl = vec3.length(right);
  if (rl < 1e-9 * vec3.length(cam.up) || rl === 0) throw bad('up is parallel to the view direction');
  vec3.scale(right, 1 / rl, right);
  const down = vec3.cross(f, right, new Float64Array(3));
  const tanHalfFovY = ortho ? 0 : Math.tan((cam.fovYDeg * Math.PI) / 360);
  const fy = ortho ? 1 / cam.metresPerPixel : cam.height / 2 / tanHalfFovY;
  return {
    orthographic: ortho,
    rotation: Float64Array.from([...right, ...down, ...f]),
    eye: [...cam.eye] as Vec3,
    fx: fy,
    fy,
    cx: cam.width / 2,
    cy: cam.height / 2,
    tanHalfFovX: ortho ? 0 : cam.width / 2 / fy,
    tanHalfFovY,
    width: cam.width,
    height: cam.height,
    near: cam.near,
    far: cam.far,
  };
}

/**
 * Whether an axis-aligned box (world frame, `[minX, minY, minZ, maxX, maxY, maxZ]`, metres) lies
 * entirely outside one plane of the view frustum (near, left, right, top, bottom; not far, which
 * the splat preprocess clips per splat): a conservative cull test on the 8 corners in the camera
 * frame (f64, camera-relative). Used by the baked city's chunk selection and the captures' cells.
 * The box is `box[o … o + 5]` (so a table of boxes needs no view per box).
 */
export function boxOutsideFrustum(m: CameraModel, box: ArrayLike<number>, o = 0): boolean {
  const R = m.rotation;
  let near = 0, left = 0, right = 0, top = 0, bottom = 0;
  for (let c = 0; c < 8; c++) {
    const px = (c & 1 ? box[o + 3] : box[o]) - m.eye[0];
    const py = (c & 2 ? box[o + 4] : box[o + 1]) - m.eye[1];
    const pz = (c & 4 ? box[o + 5] : box[o + 2]) - m.eye[2];
    const xc = R[0] * px + R[1] * py + R[2] * pz;
    const yc = R[3] * px + R[4] * py + R[5] * pz;
    const zc = R[6] * px + R[7] * py + R[8] * pz;
    if (zc < m.near) near++;
    // Half the view's extent at this depth, metres: z · tan(fov / 2), or the image's half size.
    const hx = m.orthographic ? m.cx / m.fx : zc * m.tanHalfFovX;
    const hy = m.orthographic ? m.cy / m.fy : zc * m.tanHalfFovY;
    if (xc < -hx) left++;
    if (xc > hx) right++;
    if (yc < -hy) top++;
    if (yc > hy) bottom++;
  }
  return near === 8 || left === 8 || right === 8 || top === 8 || bottom === 8;
}

/** Byte size and field offsets of WGSL `Camera` (checked against the WGSL by camera-layout.test.ts). */
export const CAMERA_LAYOUT = {
  size: 128,
  viewRotation: 0,
  eyeHigh: 64,
  near: 76,
  eyeLow: 80,
  far: 92,
  focal: 96,
  principal: 104,
  viewport: 112,
  tanHalfFov: 120,
} as const;

/**
 * Writes a camera model into `out` (a Float32Array of CAMERA_LAYOUT.size / 4) in the layout of the
 * WGSL `Camera` struct, splitting the eye into f32 high and low parts for camera-relative rendering.
 */
export function packCameraUniform(m: CameraModel, out: Float32Array<ArrayBuffer>): Float32Array<ArrayBuffer> {
  const r = m.rotation;
  out.fill(0);
  // mat4x4f is column-major: column j holds (r[0][j], r[1][j], r[2][j]).
  for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) out[j * 4 + i] = r[i * 3 + j];
  out[15] = 1;
  for (let k = 0; k < 3; k++) {
    const high = Math.fround(m.eye[k]);
    out[CAMERA_LAYOUT.eyeHigh / 4 + k] = high;
    out[CAMERA_LAYOUT.eyeLow / 4 + k] = m.eye[k] - high;
  }
  out[CAMERA_LAYOUT.near / 4] = m.near;
  out[CAMERA_LAYOUT.far / 4] = m.far;
  out.set([m.fx, m.fy, m.cx, m.cy, m.width, m.height, m.tanHalfFovX, m.tanHalfFovY], CAMERA_LAYOUT.focal / 4);
  return out;
}

/** World point → camera frame (x right, y down, z forward), f64. */
export function worldToCamera(m: CameraModel, p: ArrayLike<number>, out: Float64Array = new Float64Array(3)): Float64Array {
  const x = p[0] - m.eye[0];
  const y = p[1] - m.eye[1];
  const z = p[2] - m.eye[2];
  const r = m.rotation;
  out[0] = r[0] * x + r[1] * y + r[2] * z;
  out[1] = r[3] * x + r[4] * y + r[5] * z;
  out[2] = r[6] * x + r[7] * y + r[8] * z;
  return out;
}

/**
 * `camera` turned about its target, around its up axis, by `deg` degrees (Rodrigues' rotation;
 * positive turns counter-clockwise seen from the up side): the orbiting view of `bench:peers`,
 * `profile --orbit` and `render --frames`.
 */
export function orbitCamera(camera: PinholeCamera, deg: number): PinholeCamera {
  if (deg === 0) return { ...camera };
  const a = (deg * Math.PI) / 180;
  const k = camera.up.map((v) => v / Math.hypot(...camera.up)) as Vec3;
  const v = camera.eye.map((e, i) => e - camera.target[i]) as Vec3;
  const kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
  const cross: Vec3 = [k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]];
  const c = Math.cos(a);
  const s = Math.sin(a);
  const eye = v.map((vi, i) => camera.target[i] + vi * c + cross[i] * s + k[i] * kv * (1 - c)) as Vec3;
  return { ...camera, eye };
}
