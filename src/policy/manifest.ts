/**
 * The policy manifest: the JSON file beside a model (`model.onnx` + `model.json`) that states the
 * contract of the product brief ("Policy contract (ONNX)"): image size, frames of context and their
 * spacing, normalisation, goal type, output kind, control rate, tensor names, an optional diffusion
 * noise input, optional closure-notice and map inputs, and the camera mount the model was trained with.
 *
 * Validated with zod; every error names the file and the field (`model.json: image.width: …`).
 */
import { z } from 'zod';
import { UserError } from '../core/user-error';

/** Identifier of this manifest format; a manifest must carry it in `format`. */
export const MANIFEST_FORMAT = 'curbside-policy/1';

/**
 * Camera mount used when a manifest gives none. SidewalkBench (seeds/002) does not publish its
 * mount; these are Curbside's assumed values for a delivery robot of its class (camera 0.8 m above
 * the ground, level, 60° vertical field of view).
 */
export const DEFAULT_CAMERA_MOUNT = { height: 0.8, pitchDeg: 0, fovYDeg: 60 } as const;

/** Largest number of context frames accepted (bounds the GPU ring buffer). */
export const MAX_CONTEXT_FRAMES = 32;

const positiveInt = z.number().int().positive();
const finite = z.number().finite();
const rgb = z.tuple([finite, finite, finite]);

const cameraSchema = z
  .object({
    /** Height of the optical centre above the ground, metres. */
    height: finite.positive().default(DEFAULT_CAMERA_MOUNT.height),
    /** Downward pitch of the optical axis, degrees (0 = level, positive looks down). */
    pitchDeg: finite.min(-90).max(90).default(DEFAULT_CAMERA_MOUNT.pitchDeg),
    /** Vertical field of view, degrees, in (0, 180). */
    fovYDeg: finite.gt(0).lt(180).default(DEFAULT_CAMERA_MOUNT.fovYDeg),
  })
  .strict();

const tensorName = z.string().min(1);

const goalSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }).strict(),
  /** Goal point in the robot frame (x forward, y left), metres, fed as [B, 2] float32. */
  z.object({ type: z.literal('point'), input: tensorName }).strict(),
  /** Goal image of the observation's size and normalisation, fed as [B, 3, H, W] float32. */
  z.object({ type: z.literal('image'), input: tensorName }).strict(),
]);

const outputSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('waypoints'),
      name: tensorName,
      /** K: waypoints per prediction. */
      count: positiveInt,
      /** D: 2 (x, y) or 4 (x, y, cos ψ, sin ψ), robot frame. */
      dims: z.union([z.literal(2), z.literal(4)]),
      /** Multiplies x and y to give metres (after `normalized`). */
      scale: finite.positive().default(1),
      /** ViNT/NoMaD `normalize: True`: x, y are in units of maxV / rateHz (see pd-controller.ts). */
      normalized: z.boolean().default(false),
      /** Index of the waypoint the PD controller follows (ViNT/NoMaD deploy 2). */
      waypointIndex: z.number().int().nonnegative().default(2),
    })
    .strict()
    .refine((o) => o.waypointIndex < o.count, { message: 'must be below count', path: ['waypointIndex'] }),
  /** (v, ω) in m/s and rad/s as [B, 2]. */
  z.object({ kind: z.literal('cmd'), name: tensorName }).strict(),
]);

/** zod schema of a policy manifest (exported for tooling; use {@link parsePolicyManifest}). */
export const policyManifestSchema = z
  .object({
    format: z.literal(MANIFEST_FORMAT),
    /** Free-form model name for logs and reports. */
    name: z.string().min(1),
    /** Control rate, Hz: the policy is queried once per control step. */
    rateHz: finite.positive(),
    image: z
      .object({
        width: positiveInt.max(4096),
        height: positiveInt.max(4096),
        /** `center`: crop the frame to the model's aspect ratio before resizing (ViNT's transform). */
        crop: z.enum(['none', 'center']).default('none'),
      })
      .strict(),
    context: z
      .object({
        /** T: frames per observation, oldest first, the newest being the current frame. */
        frames: positiveInt.max(MAX_CONTEXT_FRAMES),
        /** Time between consecutive context frames, seconds (a whole number of control steps). */
        spacing: finite.positive(),
      })
      .strict(),
    normalization: z
      .object({
        mean: rgb,
        std: rgb.refine((s) => s.every((v) => v > 0), { message: 'every std must be > 0' }),
        /** `curbside`: the observation pass applies (x − mean)/std; `graph`: the model does, Curbside feeds [0, 1]. */
        appliedBy: z.enum(['curbside', 'graph']),
      })
      .strict(),
    inputs: z
      .object({
        /** Name of the image-context input. */
        observation: tensorName,
        /** `BTCHW`: [B, T, 3, H, W]; `BCHW`: [B, 3T, H, W] (ViNT/NoMaD concatenate context along channels). Same memory. */
        layout: z.enum(['BTCHW', 'BCHW']).default('BTCHW'),
      })
      .strict(),
    goal: goalSchema.default({ type: 'none' }),
    output: outputSchema,
    /** Diffusion policies: the noise input and its per-environment shape (batch is prepended). */
    noise: z.object({ input: tensorName, shape: z.array(positiveInt).min(1).max(6) }).strict().optional(),
    camera: cameraSchema.default(DEFAULT_CAMERA_MOUNT),
    /**
     * Closure notices as an input (src/policy/closure-input.ts): [B, K, 5] float32, K = `segments`
     * rows of (valid, x0, y0, x1, y1) in the robot frame, metres; non-zero only on the step a notice arrives.
     */
    closures: z.object({ input: tensorName, segments: positiveInt.max(64).default(8) }).strict().optional(),
    /**
     * A map observation as an input (src/sensors/map-observation.ts): [B, 3, H, W] float32 RGB in
     * [0, 1], a top-down map around the robot at `metresPerPixel`, no route drawn.
     */
    map: z
      .object({
        input: tensorName,
        width: positiveInt.max(512),
        height: positiveInt.max(512),
        metresPerPixel: finite.positive().max(10),
        orientation: z.enum(['north-up', 'heading-up']).default('heading-up'),
        marker: z.boolean().default(true),
        labels: z.boolean().default(true),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const steps = m.context.spacing * m.rateHz;
    if (m.context.frames > 1 && Math.abs(steps - Math.round(steps)) > 1e-6 * Math.max(1, steps)) {
      ctx.addIssue({
        code: 'custom',
        path: ['context', 'spacing'],
        message: `${m.context.spacing} s at ${m.rateHz} Hz is ${steps} control steps; it must be a whole number`,
      });
    }
    if (m.context.frames > 1 && Math.round(steps) < 1) {
      ctx.addIssue({ code: 'custom', path: ['context', 'spacing'], message: 'must be at least one control step (1/rateHz)' });
    }
    const names = [m.inputs.observation, m.goal.type !== 'none' ? m.goal.input : undefined, m.noise?.input, m.closures?.input, m.map?.input].filter(Boolean);
    if (new Set(names).size !== names.length) {
      ctx.addIssue({ code: 'custom', path: ['inputs'], message: `input names must be distinct, got ${names.join(', ')}` });
    }
  });

/** A validated manifest, defaults filled in. Units: SI unless the field name says otherwise. */
export type PolicyManifest = z.output<typeof policyManifestSchema>;

/** Thrown for a manifest that does not parse or validate; the message is `file: field: problem`. */
export class ManifestError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

/**
 * Parses and validates a manifest.
 *
 * @param source JSON text or an already parsed value.
 * @param file Names the manifest in errors (e.g. `assets/policies/single-frame/model.json`).
 * @throws ManifestError `file: field: problem` (one line per problem) for invalid JSON, unknown or
 *   missing fields, out-of-range values, a context spacing that is not a whole number of control
 *   steps, or a waypoint index ≥ count.
 */
export function parsePolicyManifest(source: string | unknown, file: string): PolicyManifest {
  let value: unknown = source;
  if (typeof source === 'string') {
    try {
      value = JSON.parse(source);
    } catch (e) {
      throw new ManifestError(`${file}: invalid JSON: ${(e as Error).message}`);
    }
  }
  const result = policyManifestSchema.safeParse(value);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${file}: ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
    throw new ManifestError(lines.join('\n'));
  }
  return result.data;
}

/** Control steps between consecutive context frames: round(spacing × rateHz), at least 1. */
export function contextStride(m: PolicyManifest): number {
  return Math.max(1, Math.round(m.context.spacing * m.rateHz));
}

/** Ring slots needed to hold T frames spaced `contextStride` steps apart: (T − 1)·stride + 1. */
export function ringSlots(m: PolicyManifest): number {
  return (m.context.frames - 1) * contextStride(m) + 1;
}

/**
 * Per-environment dims of the observation input (batch excluded): [T, 3, H, W] for `BTCHW`,
 * [3T, H, W] for `BCHW`.
 */
export function observationDims(m: PolicyManifest): number[] {
  const { width: w, height: h } = m.image;
  const t = m.context.frames;
  return m.inputs.layout === 'BTCHW' ? [t, 3, h, w] : [3 * t, h, w];
}

/** Per-environment dims of the map input (manifest `map`), [3, H, W]; null without one. */
export function mapDims(m: PolicyManifest): [number, number, number] | null {
  return m.map ? [3, m.map.height, m.map.width] : null;
}

/**
 * The step's map observations for a policy whose manifest has `map`: `maps` itself when it holds
 * B·3·H·W floats.
 *
 * @throws Error `NAME: map input needs maps of N floats ([B, 3, H, W]), got …` otherwise.
 */
export function requireMaps(m: PolicyManifest, maps: Float32Array | undefined, batch: number): Float32Array {
  const [c, h, w] = mapDims(m) ?? [0, 0, 0];
  const n = batch * c * h * w;
  if (!maps || maps.length !== n) throw new Error(`${m.name}: map input needs maps of ${n} floats ([${batch}, ${c}, ${h}, ${w}]), got ${maps?.length ?? 'none'}`);
  return maps;
}
