/**
 * Rigged glTF 2.0 / GLB characters (read with `@gltf-transform/core`) as {@link BodyModel}s, plus
 * their animation clips as SMPL-convention poses.
 *
 * glTF skinning (spec §3.7.3): v = Σ_i w_i · W_{k_i} · IBM_{k_i} · v_mesh, W = joint world matrix.
 * Conversion to the SMPL form (T̄, J, θ) used by the reference and the GPU:
 * - Rest pose = the **bind pose** the inverse bind matrices define (not the node rest pose). With
 *   M0 = W_root^rest · IBM_root (mesh space → world at the first root's bind), T̄ = C · M0 · v_mesh,
 *   J_k = C · M0 · IBM_k⁻¹ · origin, then both put on the ground; C = {@link Y_UP_TO_BODY} (glTF
 *   is Y up, +Z forward, +X left).
 * - A pose: D_k = C · rot(W_k · IBM_k · M0⁻¹) · Cᵀ (joint k's world rotation since bind),
 *   θ_k = log(D_parentᵀ D_k) (roots: log D_k), trans = posed root position − J_root.
 *   This reproduces glTF skinning exactly when the posed joints keep their bind local offsets
 *   (animation changes rotations and root translations only, as in typical character clips);
 *   animated translations of non-root joints and scales are not represented.
 * - Skin joints are reordered so parents precede children; joints whose parent is not a skin joint
 *   are roots. The 4 strongest of JOINTS_0/WEIGHTS_0 (and _1) are kept. No shape space (B = 0).
 * CUBICSPLINE samplers are sampled at their key values with linear interpolation (tangents ignored).
 */
import { WebIO, type Document, type Node } from '@gltf-transform/core';
import {
  Y_UP_TO_BODY, groundOffset, similarityMatrix, strongestInfluences, type BodyModel,
} from './body-model';
import { axisAngleOf, composeTrs, invertAffine, multiply4, rotationOf, slerp, times3, transposeTimes3, timesTranspose3 } from './gltf-math';

/** One animation clip. */
export interface GltfClip {
  name: string;
  /** Seconds. */
  duration: number;
}

/** A loaded glTF character: the body model and its clips. */
export interface GltfCharacter {
  model: BodyModel;
  clips: GltfClip[];
  /**
   * Pose of clip `clip` at `time` seconds (clamped to the clip), SMPL convention.
   *
   * @returns `pose` J×3 axis-angle (radians, body frame) and `trans` (metres, body frame).
   * @throws RangeError for an unknown clip index.
   */
  samplePose(clip: number, time: number): { pose: Float64Array; trans: Float64Array };
  /** glTF-spec skinning (§3.7.3) of clip `clip` at `time`, in the body frame: V×3 metres (for tests). */
  skinWithGltfFormula(clip: number, time: number): Float64Array;
}

/**
 * Loads a `.glb` (or `.gltf` JSON with embedded data URIs): the first node that has both a mesh and
 * a skin.
 *
 * @throws Error `file: problem` when no skinned mesh exists, a primitive is not triangles, lacks
 *   POSITION/JOINTS_0/WEIGHTS_0, or the skin has more than 256 joints.
 */
export async function loadGltfCharacter(bytes: Uint8Array, file = 'model.glb'): Promise<GltfCharacter> {
  const io = new WebIO();
  let doc: Document;
  const isGlb = bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46; // 'glTF'
  try {
    doc = isGlb ? await io.readBinary(bytes) : await io.readJSON({ json: JSON.parse(new TextDecoder().decode(bytes)), resources: {} });
  } catch (e) {
    throw new Error(`${file}: unreadable glTF: ${(e as Error).message}`);
  }
  const root = doc.getRoot();
  const node = root.listNodes().find((n) => n.getMesh() && n.getSkin());
  if (!node) throw new Error(`${file}: no node with both a mesh and a skin`);
  const skin = node.getSkin()!;
  const skinJoints = skin.listJoints();
  if (skinJoints.length > 256) throw new Error(`${file}: skin has ${skinJoints.length} joints, at most 256 supported`);

  // Parents before children: order skin joints by depth in the node tree.
  const depth = (n: Node) => { let d = 0; for (let p = n.getParentNode(); p; p = p.getParentNode()) d++; return d; };
  const order = skinJoints.map((_, i) => i).sort((a, b) => depth(skinJoints[a]) - depth(skinJoints[b]) || a - b);
  const newIndex = new Int32Array(skinJoints.length);
  order.forEach((old, k) => (newIndex[old] = k));
  const joints = order.map((i) => skinJoints[i]);
  const J = joints.length;
  const parents = Int32Array.from(joints, (j) => {
    for (let p = j.getParentNode(); p; p = p.getParentNode()) {
      const i = joints.indexOf(p);
      if (i >= 0) return i;
    }
    return -1;
  });
  const ibmAccessor = skin.getInverseBindMatrices();
  const ibmRaw = ibmAccessor?.getArray();
  const ibm = order.map((old) => (ibmRaw ? Float64Array.from(ibmRaw.subarray(16 * old, 16 * old + 16)) : composeTrs([0, 0, 0], [0, 0, 0, 1], [1, 1, 1])));

  // Mesh: all triangle primitives merged.
  const positions: number[] = [], uvs: number[] = [], faces: number[] = [];
  const influences: [number, number][][] = [];
  for (const prim of node.getMesh()!.listPrimitives()) {
    if (prim.getMode() !== 4) throw new Error(`${file}: primitive mode ${prim.getMode()} is not TRIANGLES`);
    const pos = prim.getAttribute('POSITION'), j0 = prim.getAttribute('JOINTS_0'), w0 = prim.getAttribute('WEIGHTS_0');
    if (!pos || !j0 || !w0) throw new Error(`${file}: primitive lacks POSITION, JOINTS_0 or WEIGHTS_0`);
    const base = positions.length / 3;
    const count = pos.getCount();
    const uv = prim.getAttribute('TEXCOORD_0');
    const sets = [[j0, w0], [prim.getAttribute('JOINTS_1'), prim.getAttribute('WEIGHTS_1')]].filter(([a, b]) => a && b);
    for (let v = 0; v < count; v++) {
      positions.push(...pos.getElement(v, []));
      uvs.push(...(uv ? uv.getElement(v, []) : [0, 0]));
      const list: [number, number][] = [];
      for (const [ja, wa] of sets) {
        const js = [...ja!.getElement(v, [])], ws = [...wa!.getElement(v, [])];
        js.forEach((j, i) => list.push([newIndex[j], ws[i]]));
      }
      influences.push(list);
    }
    const idx = prim.getIndices();
    if (idx) for (let i = 0; i < idx.getCount(); i++) faces.push(base + idx.getScalar(i));
    else for (let i = 0; i < count; i++) faces.push(base + i);
  }
  const V = positions.length / 3;
  const { skinIndices, skinWeights } = strongestInfluences(V, (v) => influences[v]);

  // World matrices of every node for a given clip/time (undefined = rest pose).
  const animations = root.listAnimations();
  const worldMatrices = (clip?: number, time = 0): Map<Node, Float64Array> => {
    const local = new Map<Node, { t: number[]; r: number[]; s: number[] }>();
    for (const n of root.listNodes()) local.set(n, { t: [...n.getTranslation()], r: [...n.getRotation()], s: [...n.getScale()] });
    if (clip !== undefined) {
      for (const ch of animations[clip].listChannels()) {
        const target = ch.getTargetNode(), path = ch.getTargetPath(), sampler = ch.getSampler();
        if (!target || !sampler || (path !== 'translation' && path !== 'rotation' && path !== 'scale')) continue;
        const input = sampler.getInput()!.getArray()!, output = sampler.getOutput()!.getArray()!;
        const width = path === 'rotation' ? 4 : 3;
        const cubic = sampler.getInterpolation() === 'CUBICSPLINE';
        const key = (i: number) => {
          const o = cubic ? (3 * i + 1) * width : i * width;
          return Array.from(output.subarray(o, o + width) as ArrayLike<number>, Number);
        };
        let i = 0;
        while (i + 1 < input.length && input[i + 1] <= time) i++;
        const t0 = input[i], t1 = input[Math.min(i + 1, input.length - 1)];
        const u = sampler.getInterpolation() === 'STEP' || t1 <= t0 ? 0 : Math.min(1, Math.max(0, (time - t0) / (t1 - t0)));
        const a = key(i), b = key(Math.min(i + 1, input.length - 1));
        const value = path === 'rotation' ? slerp(a, b, u) : a.map((x, c) => x + u * (b[c] - x));
        local.get(target)![path === 'translation' ? 't' : path === 'rotation' ? 'r' : 's'] = value;
      }
    }
    const world = new Map<Node, Float64Array>();
    const get = (n: Node): Float64Array => {
      let m = world.get(n);
      if (m) return m;
      const l = local.get(n)!;
      const own = composeTrs(l.t, l.r, l.s);
      const p = n.getParentNode();
      m = p ? multiply4(get(p), own) : own;
      world.set(n, m);
      return m;
    };
    for (const n of root.listNodes()) get(n);
    return world;
  };

  const C = Y_UP_TO_BODY;
  const toBody = (x: number, y: number, z: number) => [C[0] * x + C[1] * y + C[2] * z, C[3] * x + C[4] * y + C[5] * z, C[6] * x + C[7] * y + C[8] * z];
  /** glTF formula (§3.7.3) at a pose, rotated to the body frame (no ground translation). */
  const gltfSkin = (world: Map<Node, Float64Array>): Float64Array => {
    const mats = joints.map((j, k) => multiply4(world.get(j)!, ibm[k]));
    const out = new Float64Array(V * 3);
    for (let v = 0; v < V; v++) {
      const p = [0, 0, 0];
      for (let i = 0; i < 4; i++) {
        const w = skinWeights[4 * v + i];
        if (w === 0) continue;
        const m = mats[skinIndices[4 * v + i]];
        const [x, y, z] = [positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]];
        for (let r = 0; r < 3; r++) p[r] += w * (m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]);
      }
      out.set(toBody(p[0], p[1], p[2]), 3 * v);
    }
    return out;
  };
  // Bind pose as the rest pose: M0 maps mesh space to world as the first root's bind does; joint k's
  // bind position is M0 · IBM_k⁻¹ · origin, and S_k = W_k · IBM_k · M0⁻¹ maps T̄ = M0 v to the pose.
  const rest = worldMatrices();
  const M0 = multiply4(rest.get(joints[0])!, ibm[0]);
  const M0inv = invertAffine(M0);
  const jointRest = new Float64Array(J * 3);
  joints.forEach((_, k) => {
    const m = multiply4(M0, invertAffine(ibm[k]));
    jointRest.set(toBody(m[12], m[13], m[14]), 3 * k);
  });
  const bindMesh = new Float64Array(V * 3);
  for (let v = 0; v < V; v++) {
    const [x, y, z] = [positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]];
    bindMesh.set(toBody(
      M0[0] * x + M0[4] * y + M0[8] * z + M0[12], M0[1] * x + M0[5] * y + M0[9] * z + M0[13], M0[2] * x + M0[6] * y + M0[10] * z + M0[14],
    ), 3 * v);
  }
  const t = groundOffset(bindMesh, jointRest.subarray(0, 3));
  const template = new Float32Array(V * 3);
  for (let i = 0; i < V * 3; i++) template[i] = bindMesh[i] + t[i % 3];
  const jointTemplate = new Float32Array(J * 3);
  for (let i = 0; i < J * 3; i++) jointTemplate[i] = jointRest[i] + t[i % 3];
  const Cm = C as number[];
  /** D_k = C rot(W_k IBM_k M0⁻¹) Cᵀ: joint k's world rotation since the bind pose, body frame. */
  const deltaRotation = (world: Map<Node, Float64Array>, k: number) =>
    timesTranspose3(times3(Cm, rotationOf(multiply4(multiply4(world.get(joints[k])!, ibm[k]), M0inv))), Cm);

  const model: BodyModel = {
    name: `gltf:${file}`,
    source: 'gltf',
    vertexCount: V,
    jointCount: J,
    parents,
    jointNames: joints.map((j, k) => j.getName() || `joint${k}`),
    template,
    faces: Uint32Array.from(faces),
    uvs: Float32Array.from(uvs),
    jointTemplate,
    skinIndices,
    skinWeights,
    shapeCount: 0,
    shapeNames: [],
    shapeDirs: new Float32Array(0),
    jointShapeDirs: new Float32Array(0),
    sourceToBody: similarityMatrix(C, 1, t),
  };
  const checkClip = (clip: number) => {
    if (!(clip >= 0 && clip < animations.length)) throw new RangeError(`${file}: clip ${clip} not in [0, ${animations.length})`);
  };
  return {
    model,
    clips: animations.map((a, i) => ({
      name: a.getName() || `clip${i}`,
      duration: Math.max(0, ...a.listSamplers().map((s) => { const x = s.getInput()?.getArray(); return x ? x[x.length - 1] : 0; })),
    })),
    samplePose(clip, time) {
      checkClip(clip);
      const world = worldMatrices(clip, time);
      const delta = joints.map((_, k) => deltaRotation(world, k));
      const pose = new Float64Array(J * 3);
      for (let k = 0; k < J; k++) {
        const p = parents[k];
        pose.set(axisAngleOf(p < 0 ? delta[k] : transposeTimes3(delta[p], delta[k])), 3 * k);
      }
      // The posed root sits at W_root · origin (S_root maps its bind position there).
      const m = world.get(joints[0])!;
      const r = toBody(m[12], m[13], m[14]);
      const trans = Float64Array.from([0, 1, 2], (i) => r[i] + t[i] - jointTemplate[i]);
      return { pose, trans };
    },
    skinWithGltfFormula(clip, time) {
      checkClip(clip);
      const out = gltfSkin(worldMatrices(clip, time));
      for (let i = 0; i < out.length; i++) out[i] += t[i % 3];
      return out;
    },
  };
}

/** The body model of a glTF character (see {@link loadGltfCharacter}). */
export async function loadGltfBody(bytes: Uint8Array, file = 'model.glb'): Promise<BodyModel> {
  return (await loadGltfCharacter(bytes, file)).model;
}
