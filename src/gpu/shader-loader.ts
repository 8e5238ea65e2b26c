/**
 * Builds shader modules from the WGSL files in `shaders/`.
 *
 * The one sanctioned string operation on shader source: structs shared by several passes live once
 * in a small WGSL file (e.g. `shaders/splats/splat-types.wgsl`) that is prepended here. Tuning values
 * are WGSL `override` constants set through the pipeline's `constants`, never text substitution.
 */

/**
 * Creates a shader module from `source` with the given shared WGSL files prepended, and fails with
 * the compiler's messages (file label, line, text) instead of a later opaque pipeline error.
 *
 * @param label Names the module in validation errors, e.g. `splats/preprocess.wgsl`.
 * @throws Error when compilation reports errors.
 */
export async function createShaderModule(
  device: GPUDevice,
  label: string,
  source: string,
  prelude: string[] = [],
): Promise<GPUShaderModule> {
  const code = [...prelude, source].join('\n');
  const module = device.createShaderModule({ label, code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length > 0) {
    const lines = errors.map((m) => `${label}:${m.lineNum}:${m.linePos}: ${m.message}`);
    throw new Error(`WGSL compilation failed:\n${lines.join('\n')}`);
  }
  return module;
}
