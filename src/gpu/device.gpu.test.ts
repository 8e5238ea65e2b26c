import { describe, expect, it } from 'vitest';
import { describeAdapter } from './device';
import { getTestDevice, withDevice } from '../../test/gpu-fixture';

describe('acquireDevice', () => {
  it('gets a device with the adapter limits rather than the defaults', async () => {
    const acquired = await getTestDevice();
    // WebGPU's default maxStorageBufferBindingSize is 128 MiB; SwiftShader and real GPUs offer more.
    expect(acquired.device.limits.maxStorageBufferBindingSize).toBeGreaterThan(128 * 1024 * 1024);
    expect(describeAdapter(acquired).length).toBeGreaterThan(0);
  });

  it('runs a compute shader and reads the result back', async () => {
    await withDevice(async (device) => {
      const module = device.createShaderModule({
        code: `@group(0) @binding(0) var<storage, read_write> data: array<u32>;
               @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
                 if (id.x < arrayLength(&data)) { data[id.x] = id.x * 2u; } }`,
      });
      const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module } });
      const buf = device.createBuffer({ size: 400, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
      const read = device.createBuffer({ size: 400, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const enc = device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: buf } }] }));
      pass.dispatchWorkgroups(2);
      pass.end();
      enc.copyBufferToBuffer(buf, 0, read, 0, 400);
      device.queue.submit([enc.finish()]);
      await read.mapAsync(GPUMapMode.READ);
      const out = new Uint32Array(read.getMappedRange().slice(0));
      expect(out[99]).toBe(198);
      buf.destroy();
      read.destroy();
    });
  });
});
