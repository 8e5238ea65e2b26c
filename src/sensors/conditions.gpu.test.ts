/**
 * Conditions on real WebGPU (SwiftShader): the rain pass against its TypeScript twin, and the robot
 * camera by day, at night, in fog and in rain (issue #16's tests: night darker, fog lowers far
 * contrast, pedestrians fogged as the splats are, the same episode shows the same rain).
 */
import { describe, expect, it } from 'vitest';
import { withDevice } from '../../test/gpu-fixture';
import { beginRenderPass } from '../gpu/gpu-stats';
import { readTexture } from '../gpu/readback';
import { OffscreenTarget } from '../splats/offscreen';
import { defaultWorldCamera } from '../world/bake/default-camera';
import { conditionsShading, CONDITION_PRESETS, FOG_VISIBILITY_M } from '../world/conditions';
import { generateWorld } from '../world/world';
import { rainStreakAlpha, RainPass } from './rain-streaks';
import { RobotCamera, type PedestrianView } from './robot-camera';
import { OFFSCREEN_COLOR_FORMAT } from '../splats/offscreen';

const luma = (px: Float32Array, p: number) => 0.2126 * px[p] + 0.7152 * px[p + 1] + 0.0722 * px[p + 2];
function lumaStats(px: Float32Array): { mean: number; std: number } {
  const n = px.length / 4;
  let s = 0, s2 = 0;
  for (let p = 0; p < px.length; p += 4) {
    const y = luma(px, p);
    s += y;
    s2 += y * y;
  }
  const mean = s / n;
  return { mean, std: Math.sqrt(Math.max(0, s2 / n - mean * mean)) };
}

describe('rain streaks', () => {
  it('blends the streaks rainStreakAlpha gives over the frame', () =>
    withDevice(async (device) => {
      const [W, H, time] = [80, 60, 0.37];
      const target = new OffscreenTarget(device, W, H);
      const rain = await RainPass.create(device, OFFSCREEN_COLOR_FORMAT);
      try {
        const encoder = device.createCommandEncoder();
        beginRenderPass(device, encoder, { colorAttachments: [{ view: target.color.createView(), loadOp: 'clear', clearValue: { r: 0, g: 0, b: 0, a: 1 }, storeOp: 'store' }] }).end();
        rain.encode(encoder, target.color.createView(), H, time, 1, [1, 1, 1]);
        device.queue.submit([encoder.finish()]);
        const px = await readTexture(device, target.color);
        let streaks = 0, off = 0;
        for (let y = 0; y < H; y++) {
          for (let x = 0; x < W; x++) {
            const want = rainStreakAlpha(x + 0.5, y + 0.5, H, time, 1);
            const got = px[(y * W + x) * 4];
            if (want > 0.02) streaks++;
            if (Math.abs(got - want) > 1.5 / 255) off++;
            // Alpha is kept: the frame stays opaque.
            expect(px[(y * W + x) * 4 + 3]).toBe(1);
          }
        }
        // f32 on the GPU vs f64 here: a pixel on a streak's end may fall on the other side.
        expect(off, 'pixels unlike the reference').toBeLessThanOrEqual(W * H * 0.005);
        expect(streaks, 'streak pixels').toBeGreaterThan(W * H * 0.03);
        expect(streaks).toBeLessThan(W * H * 0.3);
      } finally {
        rain.destroy();
        target.destroy();
      }
    }));

  it('is the same at the same time and moves with time', () => {
    const at = (t: number) => Array.from({ length: 40 * 30 }, (_, k) => rainStreakAlpha((k % 40) + 0.5, Math.floor(k / 40) + 0.5, 30, t, 1));
    expect(at(1.25)).toEqual(at(1.25));
    expect(at(1.25)).not.toEqual(at(1.45));
    expect(rainStreakAlpha(10.5, 10.5, 30, 1.25, 0)).toBe(0);
  });
});

describe('RobotCamera under conditions (64×48)', () => {
  it('is darker at night, flatter in fog, fogs pedestrians as splats, and rains the same in the same episode', () =>
    withDevice(async (device) => {
      const [W, H] = [64, 48];
      const world = generateWorld({ seed: 1 });
      const cam = defaultWorldCamera(world, { widthPx: W, heightPx: H });
      const yaw = Math.atan2(cam.target[1] - cam.eye[1], cam.target[0] - cam.eye[0]);
      const state = { x: cam.eye[0], y: cam.eye[1], yaw };
      const ped: PedestrianView = { x: state.x + 3 * Math.cos(yaw), y: state.y + 3 * Math.sin(yaw), heading: yaw + Math.PI, walkSpeed: 1.2, gesture: 'none' };
      const camera = await RobotCamera.create(device, { world, mount: { height: 0.8, pitchDeg: 0, fovYDeg: 60 }, width: W, height: H, viewDistance: 40, maxPedestrians: 1, seed: 3 });
      const view = async (preset: string | undefined, peds: PedestrianView[] = []) => {
        camera.setConditions(preset ? CONDITION_PRESETS[preset] : undefined);
        camera.resetPedestrians(3);
        await camera.render(state, peds, 0.5);
        return readTexture(device, camera.target.color);
      };
      try {
        const legacy = await view(undefined);
        const day = await view('day');
        const night = await view('night');
        const fog = await view('fog');
        expect(camera.conditions).toEqual(CONDITION_PRESETS.fog);
        const [d, n, f] = [lumaStats(day), lumaStats(night), lumaStats(fog)];
        expect(n.mean, 'night mean luminance vs day').toBeLessThan(0.5 * d.mean);
        expect(f.std, 'fog luminance spread vs day').toBeLessThan(0.7 * d.std);
        // Day splats are untinted: only the sky behind them differs from the default look.
        const skyPixels = (px: Float32Array) => Array.from({ length: W * H }, (_, p) => p).filter((p) => Math.abs(px[4 * p] - legacy[4 * p]) > 0.02);
        expect(skyPixels(day).length, 'pixels where day and the default look differ').toBeLessThan(W * H * 0.5);

        // A pedestrian 3 m ahead: where it covers the frame, the fogged colour is the clear one
        // blended towards the fog colour by exp(−σ d), d ≈ 3 m (its surface 2.6–3.4 m away).
        const dayPed = await view('day', [ped]);
        const fogPed = await view('fog', [ped]);
        const fogColor = conditionsShading(CONDITION_PRESETS.fog).splats.fogColor;
        const sigma = 3 / FOG_VISIBILITY_M;
        const ratios: number[] = [];
        for (let p = 0; p < W * H; p++) {
          if (Math.abs(dayPed[4 * p] - day[4 * p]) + Math.abs(dayPed[4 * p + 1] - day[4 * p + 1]) < 0.1) continue; // not the pedestrian
          for (let k = 0; k < 3; k++) {
            const span = dayPed[4 * p + k] - fogColor[k];
            if (Math.abs(span) > 0.15) ratios.push((fogPed[4 * p + k] - fogColor[k]) / span);
          }
        }
        expect(ratios.length, 'pedestrian pixels').toBeGreaterThan(20);
        ratios.sort((a, b) => a - b);
        const median = ratios[ratios.length >> 1];
        expect(median).toBeGreaterThan(Math.exp(-sigma * 3.6) - 0.03);
        expect(median).toBeLessThan(Math.exp(-sigma * 2.4) + 0.03);

        // Rain: streaks and wet ground change the frame; the same episode time gives the same frame.
        const rain1 = await view('rain');
        const rain2 = await view('rain');
        expect(rain2).toEqual(rain1);
        expect(lumaStats(rain1).mean).toBeLessThan(d.mean);
      } finally {
        camera.destroy();
      }
    }));
});
