/**
 * Chromium launch flags that give a working WebGPU adapter on SwiftShader (CPU Vulkan) on a
 * machine without a GPU. See `../shared/GPU-TESTING.md`: without `--use-angle=swiftshader` the
 * adapter request fails, and without the background-networking flags Chromium keeps dialling out.
 */
export const CHROMIUM_PATH = process.env.CURBSIDE_CHROMIUM ?? '/usr/bin/chromium';

export const SWIFTSHADER_FLAGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--enable-unsafe-swiftshader',
  '--use-angle=swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Flags for a workstation with a real GPU (used with `--gpu` on the CLI tools). */
export const HARDWARE_GPU_FLAGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
