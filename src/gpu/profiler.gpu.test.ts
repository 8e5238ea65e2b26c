import { describe, expect, it } from 'vitest';
import { GpuProfiler } from './profiler';
import { withDevice } from '../../test/gpu-fixture';

describe('GpuProfiler', () => {
  it('times named passes with timestamp queries and reports the gap between them', async () => {
    await withDevice(async (device) => {
      // SwiftShader exposes timestamp-query; the fixture requests it when available.
      expect(device.features.has('timestamp-query')).toBe(true);
      const profiler = new GpuProfiler(device, 4);
      const module = device.createShaderModule({
        code: `@group(0) @binding(0) var<storage, read_write> data: array<f32>;
               @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
                 var x = f32(id.x);
                 for (var k = 0; k < 2000; k++) { x = sin(x) + 1.0; }
                 data[id.x] = x; }`,
      });
      const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module } });
      const buf = device.createBuffer({ size: 4 * 64 * 64, usage: GPUBufferUsage.STORAGE });
      const bindGroup = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: buf } }] });
      profiler.beginFrame();
      const encoder = device.createCommandEncoder();
      for (const name of ['first', 'second']) {
        const pass = encoder.beginComputePass({ timestampWrites: profiler.span(name) });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroup);
        pass.dispatchWorkgroups(64);
        pass.end();
      }
      profiler.resolve(encoder);
      device.queue.submit([encoder.finish()]);
      const times = await profiler.read();
      expect(times).not.toBeNull();
      expect([...times!.keys()].filter((k) => !k.includes('→'))).toEqual(['first', 'second']);
      // 4,096 threads × 2,000 sin() on a CPU rasteriser take well over zero time.
      expect(times!.get('first')!).toBeGreaterThan(0);
      expect(times!.get('second')!).toBeGreaterThan(0);
      expect(await profiler.read()).toBeNull(); // nothing pending after a read
      // submitTimed: resolve, submit, wait and read in one call; the wall time covers the GPU spans.
      profiler.beginFrame();
      const timed = device.createCommandEncoder();
      const pass = timed.beginComputePass({ timestampWrites: profiler.span('timed') });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      pass.dispatchWorkgroups(64);
      pass.end();
      const { wallMs, spans } = await profiler.submitTimed(timed);
      expect([...spans!.keys()]).toEqual(['timed']);
      expect(spans!.get('timed')!).toBeGreaterThan(0);
      expect(wallMs).toBeGreaterThanOrEqual(spans!.get('timed')! * 0.5);
      profiler.destroy();
      buf.destroy();
    });
  });
});
