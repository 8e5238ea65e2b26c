
import { createRng, type Rng } from '../../core/random';
import { MANIFEST_FORMAT, } from '../manifest';
import { GraphBuilder } from './onnx-graph';

const W = 32;
const H = 24;
const K = 5;
const FEATURES = 4;
const IMAGENET = { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] };

function uniform(rng: Rng, n: number, scale: number): number[] {
  return Array.from({ length: n }, () => rng.range(-scale, scale));
}

/** Conv → ReLU → GAP → Flatten on an NCHW input of `channels`; returns the [B, 4] feature name. */
function trunk(g: GraphBuilder, x: string, channels: number, rng: Rng): string {
  const weight = g.constFloat([FEATURES, channels, 3, 3], uniform(rng, FEATURES * channels * 9, 1 / Math.sqrt(channels * 9)), 'conv_w');
  const bias = g.constFloat([FEATURES], uniform(rng, FEATURES, 0.1), 'conv_b');
  const conv = g.node('Conv', [x, weight, bias], { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] });
  const relu = g.node('Relu', [conv]);
  const pooled = g.node('GlobalAveragePool', [relu]);
  return g.node('Flatten', [pooled], { axis: 1 });
}

/** Gemm bias for K waypoints of D dims: x = (0.3 + 0.15k)·xScale (0.3–0.9 m), y = 0, heading (1, 0). */
function waypointBias(dims: number, xScale = 1): number[] {
  const out: number[] = [];
  for (let k = 0; k < K; k++) out.push((0.3 + 0.15 * k) * xScale, 0, ...(dims === 4 ? [1, 0] : []));
  return out;
}

/** The output of the examples that predict K metric waypoints, following the third (`waypointIndex` 2). */
const WAYPOINTS_K2 = { kind: 'waypoints', name: 'waypoints', count: K, dims: 2, waypointIndex: 2 } as const;

/**
 * The manifest fields every single-frame example shares, in manifest key order: name, rate, the
 * W × H image, one context frame every control step, ImageNet normalisation applied by Curbside, and
 * the observation input `obs`.
 */
function singleFrameManifest(name: string, rateHz: number): Record<string, unknown> {
  return { name, rateHz, image: { width: W, height: H }, context: { frames: 1, spacing: 1 / rateHz }, normalization: { ...IMAGENET, appliedBy: 'curbside' }, inputs: { observation: 'obs' } };
}

interface Example {
  name: string;
  manifest: Record<string, unknown>;
  model: Uint8Array;
}

function singleFrame(seed: number): Example {
  const rng = createRng(seed);
  const g = new GraphBuilder('single_frame');
  const obs = g.input('obs', ['B', 1, 3, H, W]);
  const x = g.node('Reshape', [obs, g.constInt64([-1, 3, H, W])]);
  const feat = trunk(g, x, 3, rng);
  const gemm = g.node('Gemm', [feat, g.constFloat([FEATURES, K * 2], uniform(rng, FEATURES * K * 2, 0.05)), g.constFloat([K * 2], waypointBias(2))]);
  g.output('waypoints', g.node('Reshape', [gemm, g.constInt64([-1, K, 2])]), ['B', K, 2]);
  return {
    name: 'single-frame',
    model: g.build('Curbside example: single frame → 5 waypoints (robot frame, metres).'),
    manifest: {
      ...singleFrameManifest('example single-frame', 2),
      goal: { type: 'none' },
      output: WAYPOINTS_K2,
    },
  };
}

function context3(seed: number): Example {
  const rng = createRng(seed);
  const T = 3;
  const g = new GraphBuilder('context3');
  const obs = g.input('obs', ['B', 3 * T, H, W]);
  // Normalisation inside the graph: (x − mean)/std with the RGB stats repeated for each frame.
  const mean = g.constFloat([1, 3 * T, 1, 1], Array.from({ length: 3 * T }, (_, i) => IMAGENET.mean[i % 3]), 'mean');
  const std = g.constFloat([1, 3 * T, 1, 1], Array.from({ length: 3 * T }, (_, i) => IMAGENET.std[i % 3]), 'std');
  const x = g.node('Div', [g.node('Sub', [obs, mean]), std]);
  // Per-frame encoder (as ViNT encodes each context frame separately): [B, 3T, H, W] → [B·T, 3, H, W]
  // → trunk → [B·T, 4] → [B, 4T]. A 9-channel Conv would also do, but onnxruntime-web 1.30's WebGPU
  // EP computes Conv with 6 or 9 input channels wrongly on SwiftShader (docs/guide/policies.md).
  const perFrame = trunk(g, g.node('Reshape', [x, g.constInt64([-1, 3, H, W])]), 3, rng);
  const feat = g.node('Reshape', [perFrame, g.constInt64([-1, T * FEATURES])]);
  // normalized waypoints: metres = value × maxV / rateHz = value × 0.375 m at 1.5 m/s and 4 Hz.
  const gemm = g.node('Gemm', [feat, g.constFloat([T * FEATURES, K * 4], uniform(rng, T * FEATURES * K * 4, 0.05)), g.constFloat([K * 4], waypointBias(4, 1 / 0.375))]);
  g.output('waypoints', g.node('Reshape', [gemm, g.constInt64([-1, K, 4])]), ['B', K, 4]);
  return {
    name: 'context3',
    model: g.build('Curbside example: 3 context frames 0.5 s apart (channel-stacked) → 5 normalized waypoints with heading.'),
    manifest: {
      name: 'example context3',
      rateHz: 4,
      image: { width: W, height: H, crop: 'center' },
      context: { frames: T, spacing: 0.5 },
      normalization: { ...IMAGENET, appliedBy: 'graph' },
      inputs: { observation: 'obs', layout: 'BCHW' },
      goal: { type: 'none' },
      output: { kind: 'waypoints', name: 'waypoints', count: K, dims: 4, normalized: true, waypointIndex: 0 },
    },
  };
}

function pointGoal(seed: number): Example {
  const rng = createRng(seed);
  const g = new GraphBuilder('point_goal');
  const obs = g.input('obs', ['B', 1, 3, H, W]);
  const goal = g.input('goal', ['B', 2]);
  const feat = trunk(g, g.node('Reshape', [obs, g.constInt64([-1, 3, H, W])]), 3, rng);
  const joined = g.node('Concat', [feat, goal], { axis: 1 });
  // Goal rows: waypoint k moves by 0.005(k+1)·(gx, gy), so a goal on the left bends the path left.
  const weights = uniform(rng, (FEATURES + 2) * K * 2, 0.05);
  for (let k = 0; k < K; k++) {
    weights[FEATURES * K * 2 + 2 * k] = 0.005 * (k + 1); // gx → x_k
    weights[FEATURES * K * 2 + 2 * k + 1] = 0;
    weights[(FEATURES + 1) * K * 2 + 2 * k] = 0;
    weights[(FEATURES + 1) * K * 2 + 2 * k + 1] = 0.005 * (k + 1); // gy → y_k
  }
  const gemm = g.node('Gemm', [joined, g.constFloat([FEATURES + 2, K * 2], weights), g.constFloat([K * 2], waypointBias(2))]);
  g.output('waypoints', g.node('Reshape', [gemm, g.constInt64([-1, K, 2])]), ['B', K, 2]);
  return {
    name: 'point-goal',
    model: g.build('Curbside example: single frame + goal point (robot frame, metres) → 5 waypoints.'),
    manifest: {
      ...singleFrameManifest('example point-goal', 2),
      goal: { type: 'point', input: 'goal' },
      output: WAYPOINTS_K2,
    },
  };
}

function cmd(seed: number): Example {
  const rng = createRng(seed);
  const g = new GraphBuilder('cmd');
  const obs = g.input('obs', ['B', 1, 3, H, W]);
  const feat = trunk(g, g.node('Reshape', [obs, g.constInt64([-1, 3, H, W])]), 3, rng);
  const out = g.node('Gemm', [feat, g.constFloat([FEATURES, 2], uniform(rng, FEATURES * 2, 0.05)), g.constFloat([2], [0.8, 0.1])]);
  g.output('cmd', out, ['B', 2]);
  return {
    name: 'cmd',
    model: g.build('Curbside example: single frame → (v, ω) in m/s and rad/s.'),
    manifest: {
      ...singleFrameManifest('example cmd', 5),
      output: { kind: 'cmd', name: 'cmd' },
    },
  };
}

function diffusion(seed: number): Example {
  const rng = createRng(seed);
  const g = new GraphBuilder('diffusion');
  const obs = g.input('obs', ['B', 1, 3, H, W]);
  const noise = g.input('noise', ['B', K, 2]);
  const feat = trunk(g, g.node('Reshape', [obs, g.constInt64([-1, 3, H, W])]), 3, rng);
  const gemm = g.node('Gemm', [feat, g.constFloat([FEATURES, K * 2], uniform(rng, FEATURES * K * 2, 0.05)), g.constFloat([K * 2], waypointBias(2))]);
  const mean = g.node('Reshape', [gemm, g.constInt64([-1, K, 2])]);
  // A stand-in for a denoiser: the sample is the mean plus 0.05 × the supplied noise.
  const sample = g.node('Add', [mean, g.node('Mul', [noise, g.constFloat([1], [0.05], 'noise_scale')])]);
  g.output('waypoints', sample, ['B', K, 2]);
  return {
    name: 'diffusion',
    model: g.build('Curbside example: single frame + noise [B, 5, 2] → 5 waypoints (diffusion-policy contract).'),
    manifest: {
      ...singleFrameManifest('example diffusion', 2),
      output: WAYPOINTS_K2,
      noise: { input: 'noise', shape: [K, 2] },
    },
  };
}

function imageGoal(seed: number): Example {
  const rng = createRng(seed);
  const g = new GraphBuilder('image_goal');
  const obs = g.input('obs', ['B', 1, 3, H, W]);
  const goal = g.input('goal_image', ['B', 3, H, W]);
  // One encoder for both images (shared weights, as ViNT encodes observation and goal alike), then
  // the head sees [obs features, goal features − obs features].
  const pair = g.node('Concat', [g.node('Reshape', [obs, g.constInt64([-1, 3, H, W])]), goal], { axis: 0 });
  const feats = trunk(g, pair, 3, rng); // [2B, 4]: observations first, then goals
  const both = g.node('Reshape', [feats, g.constInt64([2, -1, FEATURES])]);
  const obsFeat = g.node('Gather', [both, g.constInt64Scalar(0)], { axis: 0 });
  const goalFeat = g.node('Gather', [both, g.constInt64Scalar(1)], { axis: 0 });
  const joined = g.node('Concat', [obsFeat, g.node('Sub', [goalFeat, obsFeat])], { axis: 1 });
  const gemm = g.node('Gemm', [joined, g.constFloat([2 * FEATURES, K * 2], uniform(rng, 2 * FEATURES * K * 2, 0.05)), g.constFloat([K * 2], waypointBias(2))]);
  g.output('waypoints', g.node('Reshape', [gemm, g.constInt64([-1, K, 2])]), ['B', K, 2]);
  return {
    name: 'image-goal',
    model: g.build('Curbside example: single frame + goal image → 5 waypoints (robot frame, metres).'),
    manifest: {
      ...singleFrameManifest('example image-goal', 2),
      goal: { type: 'image', input: 'goal_image' },
      output: WAYPOINTS_K2,
    },
  };
}

/** Rows of the `urban` example's closure-notice input (manifest `closures.segments`). */
const CLOSURE_SEGMENTS = 8;
/** Side of the `urban` example's map input, pixels (manifest `map.width`, `map.height`). */
const MAP_PX = 16;

function urban(seed: number): Example {
  const rng = createRng(seed);
  const g = new GraphBuilder('urban');
  const obs = g.input('obs', ['B', 1, 3, H, W]);
  const notice = g.input('closures', ['B', CLOSURE_SEGMENTS, 5]);
  const map = g.input('map', ['B', 3, MAP_PX, MAP_PX]);
  const feat = trunk(g, g.node('Reshape', [obs, g.constInt64([-1, 3, H, W])]), 3, rng);
  const mapMean = g.node('Flatten', [g.node('GlobalAveragePool', [map])], { axis: 1 });
  const joined = g.node('Concat', [feat, g.node('Reshape', [notice, g.constInt64([-1, CLOSURE_SEGMENTS * 5])]), mapMean], { axis: 1 });
  // Notice rows: each valid flag (column 0 of a segment row) takes 0.2 m/s off v; coordinates are
  // ignored. Map rows: the map's mean red adds 0.5 × it to v, green and blue nothing.
  const weights = [
    ...uniform(rng, FEATURES * 2, 0.05),
    ...Array.from({ length: CLOSURE_SEGMENTS * 5 * 2 }, (_, i) => (i % 10 === 0 ? -0.2 : 0)),
    0.5, 0, 0, 0, 0, 0,
  ];
  const rows = FEATURES + CLOSURE_SEGMENTS * 5 + 3;
  g.output('cmd', g.node('Gemm', [joined, g.constFloat([rows, 2], weights), g.constFloat([2], [0.8, 0.1])]), ['B', 2]);
  return {
    name: 'urban',
    model: g.build('Curbside example: single frame + closure notice [B, 8, 5] + map [B, 3, 16, 16] → (v, ω); each noticed segment slows v by 0.2 m/s, the map\'s mean red adds half of it.'),
    manifest: {
      ...singleFrameManifest('example urban', 5),
      output: { kind: 'cmd', name: 'cmd' },
      closures: { input: 'closures', segments: CLOSURE_SEGMENTS },
      map: { input: 'map', width: MAP_PX, height: MAP_PX, metresPerPixel: 1, orientation: 'heading-up', marker: true, labels: false },
    },
  };
}

/** Builds every example (deterministic) without writing. */
export function buildExamples(): Example[] {
  return [singleFrame(1), context3(2), pointGoal(3), cmd(4), diffusion(5), imageGoal(6), urban(7)].map((e) => ({
    ...e,
    manifest: { format: MANIFEST_FORMAT, ...e.manifest },
  }));
}
