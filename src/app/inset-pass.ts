/**
 * Draws a small texture (the robot-eye frame an ONNX policy sees: OFFSCREEN_COLOR_FORMAT, display-encoded,
 * opaque) into a corner rectangle of the canvas texture, over what the present pass wrote, with a
 * thin border. One full-screen triangle under a viewport; bilinear sampling.
 *
 * Owns: the sampler; the bind group is rebuilt when the source texture changes.
 */

const INSET_WGSL = /* wgsl */ `
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;

struct VOut { @builtin(position) pos: vec4f, @location(0) uv: vec2f }

@vertex
fn vertexMain(@builtin(vertex_index) vi: u32) -> VOut {
  let p = vec2f(f32((vi << 1u) & 2u), f32(vi & 2u));
  var o: VOut;
  o.pos = vec4f(p * 2.0 - 1.0, 0.0, 1.0);
  o.uv = vec2f(p.x, 1.0 - p.y);
  return o;
}

@fragment
fn fragmentMain(v: VOut) -> @location(0) vec4f {
  let c = textureSampleLevel(src, samp, v.uv, 0.0);
  let edge = min(min(v.uv.x, 1.0 - v.uv.x), min(v.uv.y, 1.0 - v.uv.y));
  if (edge < 0.015) { return vec4f(0.95, 0.55, 0.1, 1.0); }
  return vec4f(clamp(c.rgb, vec3f(0.0), vec3f(1.0)), 1.0);
}
`;

/** Draws an inset picture into a corner of the canvas (see the module doc). */
export class InsetPass {
  private readonly sampler: GPUSampler;
  private bindGroup: GPUBindGroup | null = null;
  private bound: GPUTexture | null = null;

  private constructor(private readonly device: GPUDevice, private readonly pipeline: GPURenderPipeline) {
    this.sampler = device.createSampler({ label: 'InsetPass.sampler', magFilter: 'linear', minFilter: 'linear' });
  }

  /** @throws Error when the WGSL fails to compile. */
  static async create(device: GPUDevice, canvasFormat: GPUTextureFormat): Promise<InsetPass> {
    const module = device.createShaderModule({ label: 'InsetPass.shader', code: INSET_WGSL });
    const pipeline = await device.createRenderPipelineAsync({
      label: 'InsetPass.pipeline',
      layout: 'auto',
      vertex: { module, entryPoint: 'vertexMain' },
      fragment: { module, entryPoint: 'fragmentMain', targets: [{ format: canvasFormat }] },
      primitive: { topology: 'triangle-list' },
    });
    return new InsetPass(device, pipeline);
  }

  /**
   * Records drawing `source` into the bottom-left corner of `target` (`targetSize` pixels), scaled
   * to a quarter of the target's width at most, aspect kept. Records only.
   */
  encode(encoder: GPUCommandEncoder, source: GPUTexture, target: GPUTextureView, targetSize: [number, number]): void {
    if (this.bound !== source) {
      this.bindGroup = this.device.createBindGroup({
        label: 'InsetPass.bindGroup',
        layout: this.pipeline.getBindGroupLayout(0),
        entries: [{ binding: 0, resource: source.createView() }, { binding: 1, resource: this.sampler }],
      });
      this.bound = source;
    }
    const [tw, th] = targetSize;
    const w = Math.max(16, Math.min(Math.round(tw / 4), 256));
    const h = Math.max(12, Math.round((w * source.height) / source.width));
    const margin = Math.max(4, Math.round(tw / 80));
    if (w + margin > tw || h + margin > th) return;
    const pass = encoder.beginRenderPass({ label: 'InsetPass', colorAttachments: [{ view: target, loadOp: 'load', storeOp: 'store' }] });
    pass.setViewport(margin, th - h - margin, w, h, 0, 1);
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.bindGroup!);
    pass.draw(3);
    pass.end();
  }

  destroy(): void {
    this.bindGroup = null;
    this.bound = null;
  }
}
