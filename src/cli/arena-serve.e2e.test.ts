/**
 * End to end, as a user runs it: `npm run arena:serve -- --suite cityarena --port 0` generates the
 * suite's world, opens the first-person view in headless Chromium (SwiftShader without a GPU) and
 * prints its address; an agent enters a task, moves with `?image=1` and gets a rendered 640×480
 * JPEG of the street, asks for a PNG screenshot of another size and leaves; the Python client
 * (clients/python) drives a task of its own; SIGTERM stops the server cleanly with both attempts
 * recorded.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';
import { afterAll, describe, expect, it } from 'vitest';
import { lumaStd } from '../../test/image-stats';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'curbside-arena-serve-'));
let child: ChildProcess | null = null;
afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts arena:serve on a free port with `args`; resolves once it prints its address. */
async function startServe(args: string[]): Promise<{ proc: ChildProcess; base: string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; log: () => string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/arena-serve.ts'), ...args, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  let stderr = '';
  proc.stdout?.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => proc.on('exit', (code, signal) => r({ code, signal })));
  const base = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`arena:serve not ready after 150 s:\n${stderr}`)), 150_000);
    proc.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
      const m = /ready in [\d.]+ s at (http:\/\/127\.0\.0\.1:(\d+))/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`arena:serve exited (${code}) before it was ready:\n${stderr}`));
    });
  });
  return { proc, base, exited, log: () => stderr };
}

describe('npm run arena:serve', () => {
  it('serves the suite on a free port: task, move with an image, screenshot, records on SIGTERM', { timeout: 300_000 }, async () => {
    const out = join(dir, 'out');
    const { proc, base, exited, log: serveLog } = await startServe(['--suite', 'cityarena', '--out', out]);
    let stderr = serveLog();
    expect(Number(new URL(base).port)).toBeGreaterThan(0);
    expect(stderr).toMatch(/arena:serve: world 1 \(600 m\), 175 tasks, origin 47\.3769, 8\.5417; ready in/);

    const health = await (await fetch(`${base}/health`)).json();
    expect(health).toMatchObject({ ok: true, status: 'ready', tasks: 175, world: { seed: 1, size: 600 } });

    const enter = await fetch(`${base}/task/enter`, { method: 'POST', body: JSON.stringify({ id: 'vln-01' }) });
    expect(enter.status).toBe(200);
    expect(await enter.json()).toMatchObject({ ok: true, action: 'enter_task: vln-01', task: { id: 'vln-01', family: 'vln' } });

    const act = await fetch(`${base}/action?image=1`, { method: 'POST', body: JSON.stringify({ action: 'move', dir: 'forward', seconds: 1 }) });
    expect(act.status).toBe(200);
    const body = (await act.json()) as { ok: boolean; action: string; state: { lat: number; lon: number; stats_tracked_seconds: number; time: string }; image: string };
    expect(body.ok).toBe(true);
    expect(body.action).toMatch(/^move: forward for 1s/);
    expect(body.state.stats_tracked_seconds).toBe(1);
    expect(body.state.time).toBe('13:00:01');
    expect(Math.abs(body.state.lat - 47.3769)).toBeLessThan(0.01);
    expect(body.image).toMatch(/^data:image\/jpeg;base64,/);
    const view = jpeg.decode(Buffer.from(body.image.slice(body.image.indexOf(',') + 1), 'base64'), { useTArray: true });
    expect([view.width, view.height]).toEqual([640, 480]);
    expect(lumaStd(view.data)).toBeGreaterThan(5);

    const shot = await fetch(`${base}/screenshot?format=png&width=320&height=240`);
    expect([shot.status, shot.headers.get('content-type')]).toEqual([200, 'image/png']);
    const png = PNG.sync.read(Buffer.from(await shot.arrayBuffer()));
    expect([png.width, png.height]).toEqual([320, 240]);
    expect(lumaStd(png.data)).toBeGreaterThan(5);

    // Leave the task, then UrbanGround-style Python drives a task of its own (clients/python, stdlib only).
    expect((await fetch(`${base}/task/exit`, { method: 'POST' })).status).toBe(200);
    const py = spawnSync('python3', [join(ROOT, 'clients/python/examples/smoke.py'), base], { encoding: 'utf8', timeout: 120_000 });
    expect(py.status, `clients/python/examples/smoke.py failed:\n${py.stdout}\n${py.stderr}`).toBe(0);
    const smoke = JSON.parse(py.stdout.trim().split('\n').pop() as string);
    expect(smoke).toMatchObject({ ok: true, screenshot: { format: 'png', width: 320, height: 240 }, bad_request: { status: 400 } });

    proc.kill('SIGTERM');
    const end = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 60_000))]);
    stderr = serveLog();
    expect(end, `arena:serve did not exit within 60 s of SIGTERM:\n${stderr}`).toEqual({ code: 0, signal: null });
    expect(stderr).toMatch(/arena:serve: stopping/);
    const log = join(out, 'serve-records.jsonl');
    expect(existsSync(log)).toBe(true);
    const records = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ task: 'vln-01', type: null, status: 'exited' });
    expect(records[1]).toMatchObject({ task: 'vln-01', status: 'exited', driver: 'curbside-smoke' });
    expect(records[0].steps.map((s: { action: string }) => s.action)).toEqual([body.action]);
    expect(records[0].state).toEqual(body.state);
  });

  it('serves a real place exported by arena:export: Monaco\'s tasks at their real WGS84 positions, a rendered street', { timeout: 300_000 }, async () => {
    const exported = join(dir, 'monaco-export');
    const ex = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/arena-export.ts'), '--suite', 'monaco-casino-urbanground', '--conditions', 'none', '--out', exported], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(ex.status, ex.stderr).toBe(0);
    expect(ex.stdout).toMatch(/273 UrbanGround tasks .* scenes\/cities\/monaco-casino\.json \(centre 43\.7396,7\.4278 size 800\) at 43\.7396, 7\.4278/);
    const doc = JSON.parse(readFileSync(join(exported, 'task', 'SN-short-navigation-01.json'), 'utf8'));
    expect(Math.abs(doc.startPoint.lat - 43.7396)).toBeLessThan(0.004);
    expect(Math.abs(doc.startPoint.lon - 7.4278)).toBeLessThan(0.006);
    const { proc, base, exited, log } = await startServe(['--tasks', exported, '--out', join(dir, 'monaco-out')]);
    expect(log()).toMatch(/arena:serve: scenes\/cities\/monaco-casino\.json \(centre 43\.7396,7\.4278 size 800\), 273 tasks, origin 43\.7396, 7\.4278; ready in/);
    const health = await (await fetch(`${base}/health`)).json();
    expect(health).toMatchObject({ tasks: 273, world: { osm: { file: 'scenes/cities/monaco-casino.json', selection: { kind: 'centre', size: 800 } } }, georeference: { lat: 43.7396, lon: 7.4278, height: 0 } });
    expect(health.world.osm.attribution).toMatch(/OpenStreetMap contributors/);
    expect((await fetch(`${base}/task/enter`, { method: 'POST', body: JSON.stringify({ id: doc.id }) })).status).toBe(200);
    const act = (await (await fetch(`${base}/action?image=1`, { method: 'POST', body: JSON.stringify({ action: 'move', dir: 'forward', seconds: 1 }) })).json()) as { state: { lat: number; lon: number; surface: string }; image: string };
    // Where the task's UrbanGround file put the start, one second's walk on.
    expect(Math.hypot((act.state.lat - doc.startPoint.lat) * 111_000, (act.state.lon - doc.startPoint.lon) * 111_000 * Math.cos((43.74 * Math.PI) / 180))).toBeLessThan(3);
    const view = jpeg.decode(Buffer.from(act.image.slice(act.image.indexOf(',') + 1), 'base64'), { useTArray: true });
    expect([view.width, view.height]).toEqual([640, 480]);
    expect(lumaStd(view.data)).toBeGreaterThan(5);
    proc.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
  });
});
