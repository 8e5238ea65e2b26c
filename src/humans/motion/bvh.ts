/**
 * Biovision Hierarchy (BVH) parser: the HIERARCHY (joints, offsets, channel lists, End Sites) and
 * the MOTION block (frame count, frame time, one line of channel values per frame).
 *
 * Format: Biovision BVH as documented by Meredith & Maddock 2001 ("Motion capture file formats
 * explained", Univ. of Sheffield CS-01-11), §2: rotation channels are Euler angles in degrees,
 * composed in the order listed (`Zrotation Yrotation Xrotation` → R = R_z·R_y·R_x); a joint's
 * global transform is parent · T(offset + position channels) · R. Whitespace and CRLF are free.
 */
import { quatFromEuler, quatMul, quatRotate, type Quat } from './rotation';

/** One joint of a BVH skeleton. */
export interface BvhJoint {
  name: string;
  /** Index of the parent joint, −1 for the root. */
  parent: number;
  /** Offset from the parent joint in the file's units and axes. */
  offset: [number, number, number];
  /** Channel names in file order, e.g. `Xposition`, `Zrotation`. */
  channels: string[];
  /** Index of this joint's first channel in a frame's value list. */
  channelOffset: number;
  /** End Site offset when the joint has one (the tip of a leaf bone). */
  endSite?: [number, number, number];
}

/** A parsed BVH file. */
export interface BvhClip {
  joints: BvhJoint[];
  frameCount: number;
  /** Seconds per frame. */
  frameTime: number;
  /** Values per frame (sum of channel counts). */
  channelCount: number;
  /** frameCount × channelCount values, file units (degrees for rotations). */
  values: Float64Array;
}

/**
 * Parses BVH text.
 *
 * @param file name used in errors. @throws Error `file: line N: problem` for a malformed hierarchy,
 *   an unknown channel, a missing MOTION block or a frame with the wrong number of values.
 */
export function parseBvh(text: string, file: string): BvhClip {
  const lines = text.split(/\r?\n/);
  let li = 0;
  const fail = (msg: string): never => {
    throw new Error(`${file}: line ${li + 1}: ${msg}`);
  };
  const tokens: { t: string; line: number }[] = [];
  let motionLine = -1;
  for (; li < lines.length; li++) {
    const trimmed = lines[li].trim();
    if (trimmed === 'MOTION') {
      motionLine = li;
      break;
    }
    for (const t of trimmed.split(/\s+/)) if (t) tokens.push({ t, line: li });
  }
  if (motionLine < 0) fail('no MOTION block');
  let ti = 0;
  const next = (): string => {
    if (ti >= tokens.length) fail('unexpected end of HIERARCHY');
    li = tokens[ti].line;
    return tokens[ti++].t;
  };
  const num = () => {
    const v = Number(next());
    if (!Number.isFinite(v)) fail(`expected a number, got '${tokens[ti - 1].t}'`);
    return v;
  };
  if (next() !== 'HIERARCHY') fail('expected HIERARCHY');
  const joints: BvhJoint[] = [];
  let channelCount = 0;
  const VALID = new Set(['Xposition', 'Yposition', 'Zposition', 'Xrotation', 'Yrotation', 'Zrotation']);
  const parseJoint = (parent: number) => {
    const name = next();
    if (next() !== '{') fail(`joint ${name}: expected '{'`);
    const joint: BvhJoint = { name, parent, offset: [0, 0, 0], channels: [], channelOffset: channelCount };
    const index = joints.push(joint) - 1;
    for (;;) {
      const key = next();
      if (key === 'OFFSET') joint.offset = [num(), num(), num()];
      else if (key === 'CHANNELS') {
        const n = num();
        for (let i = 0; i < n; i++) {
          const c = next();
          if (!VALID.has(c)) fail(`joint ${name}: unknown channel '${c}'`);
          joint.channels.push(c);
        }
        joint.channelOffset = channelCount;
        channelCount += n;
      } else if (key === 'JOINT') parseJoint(index);
      else if (key === 'End') {
        next(); // "Site"
        if (next() !== '{' || next() !== 'OFFSET') fail(`joint ${name}: malformed End Site`);
        joint.endSite = [num(), num(), num()];
        if (next() !== '}') fail(`joint ${name}: End Site: expected '}'`);
      } else if (key === '}') return;
      else fail(`joint ${name}: unexpected '${key}'`);
    }
  };
  if (next() !== 'ROOT') fail('expected ROOT');
  parseJoint(-1);
  li = motionLine + 1;
  const header = (label: RegExp) => {
    while (li < lines.length && !lines[li].trim()) li++;
    const m = lines[li]?.match(label);
    if (!m) fail(`expected ${label.source}`);
    li++;
    return Number(m![1]);
  };
  const frameCount = header(/^\s*Frames:\s*(\d+)/);
  const frameTime = header(/^\s*Frame Time:\s*([0-9.eE+-]+)/);
  if (!(frameTime > 0)) fail(`Frame Time ${frameTime} is not positive`);
  const values = new Float64Array(frameCount * channelCount);
  let f = 0;
  for (; li < lines.length && f < frameCount; li++) {
    const t = lines[li].trim();
    if (!t) continue;
    const parts = t.split(/\s+/);
    if (parts.length !== channelCount) fail(`frame ${f}: ${parts.length} values, expected ${channelCount}`);
    for (let c = 0; c < channelCount; c++) values[f * channelCount + c] = Number(parts[c]);
    f++;
  }
  if (f !== frameCount) fail(`${f} frames, header says ${frameCount}`);
  return { joints, frameCount, frameTime, channelCount, values };
}

/** Rotation order letters of a joint's rotation channels, e.g. `ZYX`. */
export function rotationOrder(j: BvhJoint): string {
  return j.channels.filter((c) => c.endsWith('rotation')).map((c) => c[0]).join('');
}

/**
 * Global rotations and positions of every joint at frame `f`, in the file's axes and units.
 *
 * @returns `rotations` (one quaternion per joint) and `positions` (J×3).
 */
export function bvhGlobalPose(clip: BvhClip, f: number): { rotations: Quat[]; positions: Float64Array } {
  const J = clip.joints.length;
  const rotations: Quat[] = new Array(J);
  const positions = new Float64Array(J * 3);
  const row = f * clip.channelCount;
  for (let k = 0; k < J; k++) {
    const j = clip.joints[k];
    const pos = [...j.offset];
    const angles: number[] = [];
    j.channels.forEach((c, i) => {
      const v = clip.values[row + j.channelOffset + i];
      if (c.endsWith('position')) pos['XYZ'.indexOf(c[0])] += v;
      else angles.push(v);
    });
    const local = quatFromEuler(rotationOrder(j), angles);
    if (j.parent < 0) {
      rotations[k] = local;
      positions.set(pos, 3 * k);
    } else {
      const pr = rotations[j.parent];
      const p = quatRotate(pr, pos);
      rotations[k] = quatMul(pr, local);
      for (let i = 0; i < 3; i++) positions[3 * k + i] = positions[3 * j.parent + i] + p[i];
    }
  }
  return { rotations, positions };
}

/** Rest (all channels zero) joint positions, J×3, file units: the sum of offsets along each chain. */
export function bvhRestPositions(clip: BvhClip): Float64Array {
  const out = new Float64Array(clip.joints.length * 3);
  clip.joints.forEach((j, k) => {
    for (let i = 0; i < 3; i++) out[3 * k + i] = (j.parent >= 0 ? out[3 * j.parent + i] : 0) + j.offset[i];
  });
  return out;
}
