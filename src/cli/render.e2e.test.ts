/**
 * End to end: `npm run render` as a user runs it (`npx tsx src/cli/render.ts`), on tiny images of
 * world 1 from a fixed camera: `--frames 2 --orbit DEG` writes two frames turned about the target
 * (one renderer for both), and `--pedestrian-at` stands a pedestrian where its world position
 * projects into the image: the frame differs from the same view with the pedestrian out of sight
 * only around that projection.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { cameraModel, orbitCamera, worldToCamera, type PinholeCamera, type Vec3 } from '../gpu/camera';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'curbside-render-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function render(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/render.ts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 280_000 });
}

function readPng(path: string): PNG {
  return PNG.sync.read(readFileSync(path));
}

// World 1's default view (a sidewalk at robot height), given explicitly so the test can project.
const W = 64;
const H = 48;
const camera: PinholeCamera = { eye: [-8.33, 0.72, 0.95], target: [-8.18, -9.28, 0.7], up: [0, 0, 1], fovYDeg: 60, width: W, height: H, near: 0.05, far: 100 };
const cameraArgs = ['--world', '1', `--eye=${camera.eye.join(',')}`, `--target=${camera.target.join(',')}`, '--up', '0,0,1', '--fov-y', '60', '--width', String(W), '--height', String(H)];
/** 5 m ahead of the eye along the view direction (ground plane). */
const dx = camera.target[0] - camera.eye[0];
const dy = camera.target[1] - camera.eye[1];
const at: [number, number] = [camera.eye[0] + (5 * dx) / Math.hypot(dx, dy), camera.eye[1] + (5 * dy) / Math.hypot(dx, dy)];
/** Behind the camera: drawn by the same robot-camera path, but out of sight. */
const behind: [number, number] = [camera.eye[0] - (3 * dx) / Math.hypot(dx, dy), camera.eye[1] - (3 * dy) / Math.hypot(dx, dy)];

/** Pixel (column, row) of a world point seen by `camera`. */
function project(p: Vec3): [number, number] {
  const m = cameraModel(camera);
  const c = worldToCamera(m, p);
  return [m.cx + (m.fx * c[0]) / c[2], m.cy + (m.fy * c[1]) / c[2]];
}

describe('npm run render: orbit frames and a placed pedestrian', () => {
  it('writes an orbit of 2 frames and places a pedestrian at a known spot', { timeout: 600_000 }, () => {
    const orbit = render([...cameraArgs, '--pedestrian-at', at.join(','), '--frames', '2', '--orbit', '15', '--out', join(dir, 'orbit.png')]);
    expect(orbit.status, orbit.stderr).toBe(0);
    expect(orbit.stderr).toBe('');
    const lines = orbit.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/orbit-000\.png \(1\/2\): 64×48, .* 1 pedestrian, eye -8\.33,0\.72,0\.95 target -8\.18,-9\.28,0\.70/);
    // Frame 2 is turned 15° about the target around Z (the eye printed to 2 decimals).
    const turned = orbitCamera(camera, 15).eye.map((v) => v.toFixed(2)).join(',');
    expect(lines[1]).toMatch(new RegExp(`orbit-001\\.png \\(2/2\\): .* eye ${turned.replace(/\./g, '\\.')} target -8\\.18,-9\\.28,0\\.70`));

    const f0 = readPng(join(dir, 'orbit-000.png'));
    const f1 = readPng(join(dir, 'orbit-001.png'));
    expect([f0.width, f0.height, f1.width, f1.height]).toEqual([W, H, W, H]);
    let sum = 0;
    for (let i = 0; i < f0.data.length; i++) if (i % 4 !== 3) sum += Math.abs(f0.data[i] - f1.data[i]);
    expect(sum / (W * H * 3), 'mean |frame 1 - frame 0| per channel').toBeGreaterThan(5);

    // The same first frame with --pedestrians 0 (accepted) and the pedestrian out of sight behind the camera.
    const ref = render([...cameraArgs, '--pedestrians', '0', '--pedestrian-at', behind.join(','), '--out', join(dir, 'ref.png')]);
    expect(ref.status, ref.stderr).toBe(0);
    expect(ref.stdout).toMatch(/ref\.png: 64×48, .* 1 pedestrian, eye -8\.33,0\.72,0\.95/);
    const r = readPng(join(dir, 'ref.png'));
    // Where the placed pedestrian projects: feet on the ground (z ≈ 0–0.2 m), head at ≈ 1.5–1.9 m.
    const [u, vFeet] = project([at[0], at[1], 0]);
    const [, vHead] = project([at[0], at[1], 1.9]);
    let changed = 0;
    let outside = 0;
    const box = { minX: W, minY: H, maxX: -1, maxY: -1 };
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const o = (y * W + x) * 4;
        const d = Math.max(Math.abs(f0.data[o] - r.data[o]), Math.abs(f0.data[o + 1] - r.data[o + 1]), Math.abs(f0.data[o + 2] - r.data[o + 2]));
        // Both frames render the same splats from the same camera: only the pedestrian differs.
        if (d <= 2) continue;
        changed++;
        Object.assign(box, { minX: Math.min(box.minX, x), minY: Math.min(box.minY, y), maxX: Math.max(box.maxX, x), maxY: Math.max(box.maxY, y) });
        if (Math.abs(x + 0.5 - u) > 6 || y + 0.5 < vHead - 3 || y + 0.5 > vFeet + 3) outside++;
      }
    }
    expect(changed, 'pixels the pedestrian changes').toBeGreaterThanOrEqual(15);
    expect(outside, `changed pixels away from the projection (column ${u.toFixed(1)}, rows ${vHead.toFixed(1)}–${vFeet.toFixed(1)}; changed box ${JSON.stringify(box)})`).toBe(0);
    // The changed pixels span the body: from near the head row to near the feet row, around the column.
    expect(box.minX).toBeLessThanOrEqual(u);
    expect(box.maxX + 1).toBeGreaterThanOrEqual(u);
    expect(box.maxY - box.minY + 1).toBeGreaterThan(0.6 * (vFeet - vHead));
  });
});
