/**
 * Builds shader modules from the WGSL files in `shaders/`, as `shader-manifest.ts` lists them.
 *
 * The one sanctioned string operation on shader source: structs shared by several passes live once
 * in a small WGSL file (e.g. `shaders/splats/splat-types.wgsl`) that is prepended here. Tuning values
 * are WGSL `override` constants set through the pipeline's `constants`, never text substitution.
 * Compiler messages name the file and line they are in, not the line of the concatenated source.
 */
import { kernelParts, type KernelPath, type WgslPart } from './shader-manifest';

/**
 * The file and 1-based line of 1-based line `lineNum` of `parts` joined with newlines (the source
 * {@link compileWgsl} hands the compiler); the last part's path past its end.
 */
export function locateWgslLine(parts: readonly WgslPart[], lineNum: number): { path: string; line: number } {
  let first = 1;
  for (const part of parts) {
    const lines = part.code.split('\n').length;
    if (lineNum < first + lines) return { path: part.path, line: lineNum - first + 1 };
    first += lines;
  }
  const last = parts[parts.length - 1];
  return { path: last.path, line: lineNum - first + last.code.split('\n').length + 1 };
}

/**
 * Compiles `parts` joined with newlines into one module labelled `label`, and fails with the
 * compiler's messages, each at the file and line it points into (`path:line:column: message`),
 * instead of a later opaque pipeline error.
 *
 * @throws Error when compilation reports errors.
 */
export async function compileWgsl(device: GPUDevice, label: string, parts: readonly WgslPart[]): Promise<GPUShaderModule> {
  const module = device.createShaderModule({ label, code: parts.map((p) => p.code).join('\n') });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length > 0) {
    const lines = errors.map((m) => {
      const at = locateWgslLine(parts, m.lineNum);
      return `shaders/${at.path}:${at.line}:${m.linePos}: ${m.message}`;
    });
    throw new Error(`WGSL compilation of ${label} failed:\n${lines.join('\n')}`);
  }
  return module;
}

/**
 * The shader module of `kernel` (e.g. `splats/preprocess.wgsl`) with its preludes from the manifest.
 *
 * @throws Error when compilation reports errors (see {@link compileWgsl}).
 */
export function createKernelModule(device: GPUDevice, kernel: KernelPath): Promise<GPUShaderModule> {
  return compileWgsl(device, kernel, kernelParts(kernel));
}
