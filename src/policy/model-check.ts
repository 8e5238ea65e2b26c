/**
 * Checks a model's declared inputs and outputs against its manifest before the first run, so a
 * model that does not fit the contract is refused with the mismatch named, instead of failing in
 * onnxruntime with an opaque shape error mid-episode.
 */
import { CLOSURE_ROW } from './closure-input';
import { mapDims, observationDims, type PolicyManifest } from './manifest';
import { UserError } from '../core/user-error';

/** One tensor as a model declares it (onnxruntime's `InferenceSession.ValueMetadata`, reduced). */
export interface DeclaredTensor {
  name: string;
  /** False for sequences/maps, which no contract tensor may be. */
  isTensor: boolean;
  /** Element type (`float32`, …) when a tensor. */
  type?: string;
  /** Dims: numbers for fixed sizes, strings for symbolic ones (`batch`); empty when unknown rank. */
  shape?: ReadonlyArray<number | string>;
}

/** A tensor the manifest says the model has; `null` dims are free (batch when not fixed). */
export interface ExpectedTensor {
  /** Manifest field that names the tensor, for error messages (`inputs.observation`). */
  field: string;
  name: string;
  dims: ReadonlyArray<number | null>;
}

/** Thrown when a model does not match its manifest; the message names the model file and the mismatch. */
export class ModelMismatchError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'ModelMismatchError';
  }
}

/**
 * The inputs a manifest implies, batch dim first. Batch is `batch` when given (then a model with a
 * fixed batch must match it), otherwise free.
 *
 * Observation: [B, T, 3, H, W] (`BTCHW`) or [B, 3T, H, W] (`BCHW`); point goal [B, 2] (robot frame,
 * metres); image goal [B, 3, H, W]; noise [B, …noise.shape]; closure notices [B, K, 5]; map [B, 3, H, W].
 */
export function expectedInputs(m: PolicyManifest, batch?: number): ExpectedTensor[] {
  const b = batch ?? null;
  const out: ExpectedTensor[] = [{ field: 'inputs.observation', name: m.inputs.observation, dims: [b, ...observationDims(m)] }];
  if (m.goal.type === 'point') out.push({ field: 'goal.input', name: m.goal.input, dims: [b, 2] });
  if (m.goal.type === 'image') out.push({ field: 'goal.input', name: m.goal.input, dims: [b, 3, m.image.height, m.image.width] });
  if (m.noise) out.push({ field: 'noise.input', name: m.noise.input, dims: [b, ...m.noise.shape] });
  if (m.closures) out.push({ field: 'closures.input', name: m.closures.input, dims: [b, m.closures.segments, CLOSURE_ROW] });
  const map = mapDims(m);
  if (m.map && map) out.push({ field: 'map.input', name: m.map.input, dims: [b, ...map] });
  return out;
}

/** The output a manifest implies: waypoints [B, K, D] or cmd [B, 2]. */
export function expectedOutput(m: PolicyManifest, batch?: number): ExpectedTensor {
  const b = batch ?? null;
  return m.output.kind === 'waypoints'
    ? { field: 'output.name', name: m.output.name, dims: [b, m.output.count, m.output.dims] }
    : { field: 'output.name', name: m.output.name, dims: [b, 2] };
}

function checkTensor(file: string, role: 'input' | 'output', want: ExpectedTensor, got: DeclaredTensor): string | undefined {
  const where = `${file}: ${role} '${want.name}' (manifest ${want.field})`;
  if (!got.isTensor) return `${where}: is not a tensor`;
  if (got.type !== undefined && got.type !== 'float32') return `${where}: type ${got.type}, expected float32`;
  const shape = got.shape ?? [];
  if (shape.length === 0) return undefined; // rank unknown to the model: checked by onnxruntime at run time
  if (shape.length !== want.dims.length) {
    return `${where}: rank ${shape.length} [${shape.join(', ')}], manifest implies rank ${want.dims.length} [${want.dims.map((d) => d ?? 'B').join(', ')}]`;
  }
  for (let i = 0; i < shape.length; i++) {
    const g = shape[i];
    const w = want.dims[i];
    if (typeof g === 'number' && g >= 0 && w !== null && g !== w) {
      return `${where}: dim ${i} is ${g}, manifest implies ${w} (shape [${shape.join(', ')}] vs [${want.dims.map((d) => d ?? 'B').join(', ')}])`;
    }
  }
  return undefined;
}

/**
 * Checks a model's declared inputs/outputs against the manifest: every manifest input exists with
 * the implied rank and fixed dims, the model has no input the manifest does not feed, and the
 * manifest's output exists with the implied rank and dims. Symbolic dims match anything.
 *
 * @param file Names the model in errors (e.g. `assets/policies/point-goal/model.onnx`).
 * @param batch Environments per run; a model with a fixed batch dim must equal it.
 * @throws ModelMismatchError listing every mismatch, one per line.
 */
export function checkModelAgainstManifest(
  file: string,
  m: PolicyManifest,
  inputs: readonly DeclaredTensor[],
  outputs: readonly DeclaredTensor[],
  batch?: number,
): void {
  const problems: string[] = [];
  const wantIn = expectedInputs(m, batch);
  for (const want of wantIn) {
    const got = inputs.find((t) => t.name === want.name);
    if (!got) {
      problems.push(`${file}: no input '${want.name}' (manifest ${want.field}); the model's inputs are ${inputs.map((t) => `'${t.name}'`).join(', ')}`);
      continue;
    }
    const p = checkTensor(file, 'input', want, got);
    if (p) problems.push(p);
  }
  for (const got of inputs) {
    if (!wantIn.some((w) => w.name === got.name)) problems.push(`${file}: input '${got.name}' is not fed by the manifest (not the observation, goal, noise, closures or map input)`);
  }
  const wantOut = expectedOutput(m, batch);
  const gotOut = outputs.find((t) => t.name === wantOut.name);
  if (!gotOut) {
    problems.push(`${file}: no output '${wantOut.name}' (manifest output.name); the model's outputs are ${outputs.map((t) => `'${t.name}'`).join(', ')}`);
  } else {
    const p = checkTensor(file, 'output', wantOut, gotOut);
    if (p) problems.push(p);
  }
  if (problems.length > 0) throw new ModelMismatchError(problems.join('\n'));
}
