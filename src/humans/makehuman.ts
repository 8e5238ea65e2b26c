/**
 * Loads MakeHuman's CC0 body (hm08 base mesh, `game_engine` rig and weights, macro targets) from
 * `../shared/data/humans/makehuman/` into a {@link BodyModel} on SMPL's 24-joint tree.
 *
 * - Mesh: body vertices 0–13379 only (group `body`), each quad split into (0, 1, 2) and (0, 2, 3);
 *   per-vertex UV = the `vt` of the first face corner that uses the vertex (seams share one UV).
 * - Frame: OBJ decimetres, Y up, +Z forward, +X left → body frame metres by 0.1·C, C =
 *   {@link Y_UP_TO_BODY}, then onto the ground (feet z = 0, pelvis above the origin).
 * - Joint rule (no regressor): joint k = head of its mapped bone, the mean of that bone's `joint-*`
 *   cube vertices (rig format in the data README); the same mean of each target's offsets gives
 *   `jointShapeDirs`, so joints follow the shape exactly.
 * - Skin weights: `weights.game_engine.json`, each bone's weights added onto its SMPL joint
 *   ({@link MAKEHUMAN_BONE_TO_SMPL}), 4 strongest kept and renormalised.
 * - Shape space: one component per macro target file (offsets × 0.1·C); β come from the macro
 *   sliders through `makeHumanBetas` (MakeHuman's product rule). No pose blend shapes.
 * - Rest pose: MakeHuman's A-pose (arms ≈ 45° down), not SMPL's T-pose.
 */
import { gunzipSync } from 'fflate';
import {
  SMPL_JOINT_NAMES, SMPL_PARENTS, Y_UP_TO_BODY, groundOffset, similarityMatrix, strongestInfluences,
  type BodyModel,
} from './body-model';
import { macroTargetNames } from './makehuman-macros';
import { groupVertices, parseMakeHumanObj } from './makehuman-obj';

/** Number of skin vertices in hm08 (group `body`, OBJ vertices 0–13379). */
export const MAKEHUMAN_BODY_VERTEX_COUNT = 13380;

/**
 * `game_engine` bone → SMPL joint. The first bone listed for a joint gives its position (its head);
 * the others only add their skin weights. `Root` carries no weights.
 *
 * | SMPL joint | bones |
 * |---|---|
 * | 0 pelvis | pelvis, Root |
 * | 1/2 left/right hip | thigh_l / thigh_r |
 * | 3, 6, 9 spine1–3 | spine_01, spine_02, spine_03 |
 * | 4/5 knee | calf_l / calf_r |
 * | 7/8 ankle | foot_l / foot_r |
 * | 10/11 foot | ball_l / ball_r |
 * | 12 neck, 15 head | neck_01, head |
 * | 13/14 collar | clavicle_l / clavicle_r |
 * | 16/17 shoulder | upperarm_l / upperarm_r |
 * | 18/19 elbow | lowerarm_l / lowerarm_r |
 * | 20/21 wrist | hand_l, thumb_01–03_l / hand_r, thumb_01–03_r |
 * | 22/23 hand | middle_01_l (position), index, middle, ring, pinky _01–03_l / same _r |
 */
export const MAKEHUMAN_BONE_TO_SMPL: Readonly<Record<string, number>> = (() => {
  const map: Record<string, number> = { pelvis: 0, Root: 0, spine_01: 3, spine_02: 6, spine_03: 9, neck_01: 12, head: 15 };
  for (const [s, o] of [['l', 0], ['r', 1]] as const) {
    Object.assign(map, {
      [`thigh_${s}`]: 1 + o, [`calf_${s}`]: 4 + o, [`foot_${s}`]: 7 + o, [`ball_${s}`]: 10 + o,
      [`clavicle_${s}`]: 13 + o, [`upperarm_${s}`]: 16 + o, [`lowerarm_${s}`]: 18 + o, [`hand_${s}`]: 20 + o,
    });
    for (let i = 1; i <= 3; i++) {
      map[`thumb_0${i}_${s}`] = 20 + o;
      for (const finger of ['index', 'middle', 'ring', 'pinky']) map[`${finger}_0${i}_${s}`] = 22 + o;
    }
  }
  return map;
})();

/** The bone whose head is each SMPL joint's position. */
const POSITION_BONE = [
  'pelvis', 'thigh_l', 'thigh_r', 'spine_01', 'calf_l', 'calf_r', 'spine_02', 'foot_l', 'foot_r', 'spine_03',
  'ball_l', 'ball_r', 'neck_01', 'clavicle_l', 'clavicle_r', 'head', 'upperarm_l', 'upperarm_r', 'lowerarm_l',
  'lowerarm_r', 'hand_l', 'hand_r', 'middle_01_l', 'middle_01_r',
];

/** Reads a file under the MakeHuman folder, e.g. `3dobjs/base.obj`. */
export type MakeHumanReader = (relPath: string) => Uint8Array | Promise<Uint8Array>;

/** Options of {@link loadMakeHuman}. */
export interface MakeHumanLoadOptions {
  /** Which macro targets to load (names as in `macroTargetNames()`); default all 240 (empty ones are skipped). */
  targets?: (name: string) => boolean;
}

interface RigBone {
  parent: string;
  head: { strategy: string; cube_name?: string; vertex_indices?: number[]; vertex_index?: number };
}

/**
 * Loads the MakeHuman body.
 *
 * @param read file reader rooted at `humans/makehuman/` (node: `readFileSync`; browser: fetch).
 * @throws Error `file: problem` when a file is missing or malformed, the body group does not have
 *   13,380 vertices, a weighted bone has no SMPL mapping, or a target line is unparsable.
 */
export async function loadMakeHuman(read: MakeHumanReader, options: MakeHumanLoadOptions = {}): Promise<BodyModel> {
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  const obj = parseMakeHumanObj(text(await read('3dobjs/base.obj')));
  const rig = JSON.parse(text(await read('rigs/standard/rig.game_engine.json'))) as Record<string, RigBone>;
  const weightsJson = JSON.parse(text(await read('rigs/standard/weights.game_engine.json'))) as {
    weights: Record<string, [number, number][]>;
  };
  const V = MAKEHUMAN_BODY_VERTEX_COUNT;
  const body = obj.groups.get('body');
  const bodyVerts = groupVertices(obj, 'body');
  if (!body || bodyVerts.length !== V || bodyVerts[V - 1] !== V - 1) {
    throw new Error(`base.obj: group 'body' uses ${bodyVerts.length} vertices, expected 0–${V - 1}`);
  }
  const C = Y_UP_TO_BODY;
  const toBody = (x: number, y: number, z: number, out: Float32Array | Float64Array, o: number) => {
    out[o] = 0.1 * (C[0] * x + C[1] * y + C[2] * z);
    out[o + 1] = 0.1 * (C[3] * x + C[4] * y + C[5] * z);
    out[o + 2] = 0.1 * (C[6] * x + C[7] * y + C[8] * z);
  };
  // Joint rule: each SMPL joint = mean of a vertex set (over all OBJ vertices, helpers included).
  const jointVertexSets = POSITION_BONE.map((bone) => {
    const head = rig[bone]?.head;
    if (!head) throw new Error(`rig.game_engine.json: bone '${bone}' missing`);
    if (head.strategy === 'CUBE') return groupVertices(obj, head.cube_name!);
    if (head.strategy === 'MEAN') return head.vertex_indices!;
    if (head.strategy === 'VERTEX') return [head.vertex_index!];
    throw new Error(`rig.game_engine.json: bone '${bone}': unknown head strategy '${head.strategy}'`);
  });
  const jointMean = (data: ArrayLike<number>, k: number, out: Float32Array, o: number) => {
    const set = jointVertexSets[k];
    const s = [0, 0, 0];
    for (const v of set) for (let c = 0; c < 3; c++) s[c] += data[3 * v + c];
    toBody(s[0] / set.length, s[1] / set.length, s[2] / set.length, out, o);
  };
  const J = 24;
  const template = new Float32Array(V * 3);
  for (let v = 0; v < V; v++) toBody(obj.positions[3 * v], obj.positions[3 * v + 1], obj.positions[3 * v + 2], template, 3 * v);
  const jointTemplate = new Float32Array(J * 3);
  for (let k = 0; k < J; k++) jointMean(obj.positions, k, jointTemplate, 3 * k);
  const t = groundOffset(template, jointTemplate);
  for (let i = 0; i < V * 3; i++) template[i] += t[i % 3];
  for (let i = 0; i < J * 3; i++) jointTemplate[i] += t[i % 3];

  const faces: number[] = [];
  const uvs = new Float32Array(V * 2).fill(-1);
  for (const f of body) {
    faces.push(f[0], f[1], f[2], f[0], f[2], f[3]);
    for (let i = 0; i < 4; i++) {
      if (uvs[2 * f[i]] < 0 && f[4 + i] >= 0) {
        uvs[2 * f[i]] = obj.texcoords[2 * f[4 + i]];
        uvs[2 * f[i] + 1] = obj.texcoords[2 * f[4 + i] + 1];
      }
    }
  }

  const perVertex: Map<number, number>[] = Array.from({ length: V }, () => new Map());
  for (const [bone, list] of Object.entries(weightsJson.weights)) {
    const joint = MAKEHUMAN_BONE_TO_SMPL[bone];
    if (list.length === 0) continue;
    if (joint === undefined) throw new Error(`weights.game_engine.json: bone '${bone}' has no SMPL joint mapping`);
    for (const [v, w] of list) if (v < V) perVertex[v].set(joint, (perVertex[v].get(joint) ?? 0) + w);
  }
  const { skinIndices, skinWeights } = strongestInfluences(V, (v) => perVertex[v].entries());

  const wanted = macroTargetNames().filter(options.targets ?? (() => true));
  const dirs: Float32Array[] = [];
  const jointDirs: Float32Array[] = [];
  const shapeNames: string[] = [];
  const nAll = obj.positions.length / 3;
  for (const name of wanted) {
    const path = `targets/macrodetails/${name}.target.gz`;
    const offsets = parseTarget(gunzipSync(await read(path)), nAll, path);
    if (!offsets) continue; // empty target: the base shape
    const d = new Float32Array(V * 3);
    for (let v = 0; v < V; v++) toBody(offsets[3 * v], offsets[3 * v + 1], offsets[3 * v + 2], d, 3 * v);
    const jd = new Float32Array(J * 3);
    for (let k = 0; k < J; k++) jointMean(offsets, k, jd, 3 * k);
    dirs.push(d);
    jointDirs.push(jd);
    shapeNames.push(name);
  }
  const B = dirs.length;
  const shapeDirs = new Float32Array(B * V * 3);
  const jointShapeDirs = new Float32Array(B * J * 3);
  dirs.forEach((d, b) => shapeDirs.set(d, b * V * 3));
  jointDirs.forEach((d, b) => jointShapeDirs.set(d, b * J * 3));
  return {
    name: 'makehuman',
    source: 'makehuman',
    vertexCount: V,
    jointCount: J,
    parents: Int32Array.from(SMPL_PARENTS),
    jointNames: [...SMPL_JOINT_NAMES],
    template,
    faces: Uint32Array.from(faces),
    uvs,
    jointTemplate,
    skinIndices,
    skinWeights,
    shapeCount: B,
    shapeNames,
    shapeDirs,
    jointShapeDirs,
    sourceToBody: similarityMatrix(C, 0.1, t),
  };
}

/**
 * Parses a MakeHuman target (text lines `index dx dy dz`, OBJ frame, decimetres).
 *
 * @returns N×3 offsets (unlisted vertices 0), or undefined for an empty target.
 * @throws Error `file:line: problem` on a malformed line or an index ≥ N.
 */
export function parseTarget(bytes: Uint8Array, vertexCount: number, file: string): Float64Array | undefined {
  const lines = new TextDecoder().decode(bytes).split('\n');
  let out: Float64Array | undefined;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    if (line === '' || line.startsWith('#')) continue;
    const p = line.split(/\s+/);
    const v = Number(p[0]);
    if (p.length !== 4 || !Number.isInteger(v) || v < 0 || v >= vertexCount || p.slice(1).some((x) => !Number.isFinite(+x))) {
      throw new Error(`${file}:${n + 1}: expected 'index dx dy dz' with index < ${vertexCount}, got '${line}'`);
    }
    out ??= new Float64Array(vertexCount * 3);
    out[3 * v] = +p[1];
    out[3 * v + 1] = +p[2];
    out[3 * v + 2] = +p[3];
  }
  return out;
}
