/**
 * Node side of `npm run render`'s frames, shared by captures (`render.ts`) and worlds
 * (`render-world.ts`): the output names (one PNG, or `OUT-000.png`, `OUT-001.png`, … with
 * `--frames N`), the loop over an open view session of the headless page (renderer created once,
 * each frame turned `--orbit DEG` further about the target) and the opaque PNG writer.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { PNG } from 'pngjs';
import type { ViewFrameResult } from '../gpu/view-session';
import type { PlacedPedestrian } from '../sensors/street-view';
import type { Harness } from '../tools/browser-harness';
import { CliError } from '../core/user-error';

/** Degrees the camera turns about its target per frame with `--frames` and no `--orbit` (as `bench:peers`). */
export const DEFAULT_ORBIT_DEG = 0.5;

/**
 * The PNG paths of a render: `out` itself without `frames`, else `frames` paths `NAME-000.png`,
 * `NAME-001.png`, … (`out` is `NAME.png`; more digits when `frames` > 1000).
 */
export function frameOutputs(out: string, frames?: number): string[] {
  if (frames === undefined) return [out];
  const stem = out.replace(/\.png$/i, '');
  const digits = Math.max(3, String(frames - 1).length);
  return Array.from({ length: frames }, (_, i) => `${stem}-${String(i).padStart(digits, '0')}.png`);
}

/** Parses `x,y[,heading]` (metres, radians) for `--pedestrian-at`, collecting repeated uses. */
export function parsePedestrianAt(value: string, previous: PlacedPedestrian[] = []): PlacedPedestrian[] {
  const parts = value.split(',').map((s) => (s.trim() === '' ? Number.NaN : Number(s)));
  if (parts.length < 2 || parts.length > 3 || parts.some((v) => !Number.isFinite(v))) {
    throw new InvalidArgumentError(`expected x,y or x,y,heading (metres, radians), got '${value}'`);
  }
  const [x, y, heading] = parts;
  return [...previous, heading === undefined ? { x, y } : { x, y, heading }];
}

/** Writes RGBA8 pixels as an opaque PNG (alpha set to 255: a capture is composited over black), making its folder. */
export async function writePng(out: string, width: number, height: number, rgbaBase64: string): Promise<void> {
  const png = new PNG({ width, height });
  png.data = Buffer.from(rgbaBase64, 'base64');
  for (let i = 3; i < png.data.length; i += 4) png.data[i] = 255;
  try {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, PNG.sync.write(png));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`--out ${out}: cannot write it (${code === 'EISDIR' ? 'it is a folder; give a file name' : code ?? (e as Error).message})`);
  }
}

/**
 * Renders frame i of the open view `session` turned `i × orbitDeg` degrees about its target and
 * writes it to `outs[i]`, for every output in order; calls `done` after each frame is written (to
 * print progress). Closes the session afterwards, also on an error.
 */
export async function renderFrames(h: Harness, session: number, outs: readonly string[], orbitDeg: number, done: (frame: ViewFrameResult, out: string, index: number) => void): Promise<void> {
  try {
    for (let i = 0; i < outs.length; i++) {
      const frame = await h.call('renderViewFrame', { session, orbitDeg: i * orbitDeg });
      await writePng(outs[i], frame.width, frame.height, frame.rgbaBase64);
      done(frame, outs[i], i);
    }
  } finally {
    await h.call('closeView', { session }).catch(() => undefined);
  }
}

/** `OUT` for one frame, `OUT (i/N)` in a sequence: the start of a frame's progress line. */
export function frameLabel(out: string, index: number, count: number): string {
  return count > 1 ? `${out} (${index + 1}/${count})` : out;
}
