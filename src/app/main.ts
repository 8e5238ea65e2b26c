/**
 * The live demo's app shell (`npm run dev`, page `index.html`): device and canvas set-up, the
 * control panel's wiring, keyboard and mouse input, file drops, the animation loop and the test
 * hooks (`window.curbsideDemo`). Simulation glue lives in session.ts, rendering in demo-renderer.ts,
 * ONNX policies (the example model, or a dropped model + manifest) in onnx-driver.ts.
 *
 * Starting an episode pauses stepping (the frame loop keeps drawing) and waits for the control step
 * in flight, so an ONNX model shared between episodes is never reset or released mid-step.
 *
 * URL query options (for tests, the profiler and slow software renderers): `w`, `h` render size in
 * pixels; `maxSplats`, `viewDistance` (m) for the splat background; `suite`, `scenario`, `walkers`,
 * `seed`, `policy`, `camera`, `bodies` (0/1), `hour` (0–24), `weather` (clear, fog, rain). The hash `#episode=…` replays a recording.
 */
import { GpuUnavailableError, acquireDevice, describeAdapter } from '../gpu/device';
import type { Scenario } from '../sim/scenario';
import { CAMERA_MODES, clampOrbit, defaultOrbit, type CameraMode, type OrbitControl } from './cameras';
import { CanvasRecorder, canvasPng, download } from './capture';
import { scenarioFileText } from '../bench/custom-scenario';
import { DemoRenderer } from './demo-renderer';
import { parseDroppedFiles } from './dropped-file';
import { isSogFileSet, loadSogFiles } from '../splats/load-source';
import type { SplatCloud } from '../splats/splat-cloud';
import { episodeActions, episodeFromHash, episodeToHash, type EpisodeFile } from './episode-file';
import { drawMinimap, hudText, type HudStats } from './hud';
import { clockHours, conditionsShading, type Weather } from '../world/conditions';
import type { EpisodePolicy } from '../sim/episode-contracts';
import type { OnnxPolicy } from '../policy/onnx-policy';
import type { PolicyManifest } from '../policy/manifest';
import { CameraPolicy, PICKER_ONNX_URLS, loadOnnxFromBytes, loadOnnxFromUrls } from './onnx-driver';
import { DROPPED_ONNX_KIND, isOnnxKind, makePolicy, ReplayPolicy, type TeleopKeys } from './policies';
import { FREE_ROAM_ID, freeRoamScenario, loadSuite, withAmbientWalkers, type SuiteName } from './scenarios';
import { DemoSession } from './session';
import { DELIVERY_ROBOT, type RobotSpec } from '../robot/robot-spec';
import { robotSpec } from '../robot/embodiments';
import { buildPanel, setOption, setScenarioOptions, showBanner, showUnsupported } from './ui';

const q = new URLSearchParams(location.search);
/** The embodiment (`?robot=wheeled|dog|humanoid`, default wheeled; an unknown value shows an error and keeps the wheeled robot). */
let robot: RobotSpec = DELIVERY_ROBOT;
let robotError: string | null = null;
try {
  robot = robotSpec(q.get('robot') ?? 'wheeled');
} catch (e) {
  robotError = `?robot=: ${(e as Error).message}; showing the wheeled robot`;
}
const num = (k: string, d: number) => (q.has(k) && Number.isFinite(Number(q.get(k))) ? Number(q.get(k)) : d);
const canvas = document.getElementById('canvas') as HTMLCanvasElement;
const hud = document.getElementById('hud') as HTMLPreElement;
const minimap = (document.getElementById('minimap') as HTMLCanvasElement).getContext('2d')!;
const panel = buildPanel(document.getElementById('panel')!);
const keys: TeleopKeys = { forward: false, back: false, left: false, right: false };
const hooks: Record<string, unknown> = { ready: false, frames: 0, error: null };
(window as unknown as { curbsideDemo: Record<string, unknown> }).curbsideDemo = hooks;
hooks.embodiment = robot.name;

let session: DemoSession | null = null;
let mapImage: ImageData | null = null;
let orbit: OrbitControl = defaultOrbit(0);
let paused = false;
let recorder: CanvasRecorder | null = null;
let dropped: Scenario[] = [];
let screenshotWanted = false;
/** ONNX models by picker value (loading or loaded); shared by the episodes that use them. */
const onnxModels = new Map<string, Promise<OnnxPolicy>>();
/** A policy manifest dropped alone, waiting for its model. */
let pendingManifest: { name: string; manifest: PolicyManifest } | null = null;
/** Episode starts in progress (stepping pauses meanwhile) and the control steps in flight. */
let starting = 0;
let ticking: Promise<unknown> = Promise.resolve();
const stats: HudStats = { fps: 0, frameMs: 0, passes: null, splats: 0, splatsInView: 0, adapter: '', timestamps: false };

for (const k of ['suite', 'policy', 'camera', 'weather'] as const) if (q.has(k)) panel[k].value = q.get(k)!;
if (q.has('walkers')) panel.walkers.value = q.get('walkers')!;
if (q.has('seed')) panel.seed.value = q.get('seed')!;
if (q.has('bodies')) panel.bodies.checked = q.get('bodies') !== '0';
if (q.has('hour')) panel.hour.value = q.get('hour')!;

async function scenarioList(): Promise<Scenario[]> {
  const suite = panel.suite.value;
  if (suite === 'city') return [freeRoamScenario(0)];
  if (suite === 'dropped') return dropped;
  // A real place's suite builds its world first (seconds): say so where the HUD stands.
  const all = await loadSuite(suite as SuiteName, (line) => void (document.getElementById('hud')!.textContent = line));
  const b = panel.behaviour.value;
  return b === 'any' ? all : all.filter((s) => s.category === b || s.pedestrians.some((p) => p.behaviour === b));
}

async function refreshScenarios(selected?: string): Promise<void> {
  const list = await scenarioList();
  setScenarioOptions(panel.scenario, list.slice(0, 300).map((s) => s.id), selected);
}

async function main(): Promise<void> {
  let acquired: Awaited<ReturnType<typeof acquireDevice>>;
  try {
    acquired = await acquireDevice({ optionalFeatures: ['timestamp-query'] });
  } catch (e) {
    const msg = e instanceof GpuUnavailableError ? e.message : `WebGPU failed to start: ${(e as Error).message}`;
    showUnsupported(msg);
    hooks.error = msg;
    return;
  }
  const device = acquired.device;
  acquired.lost.then((msg) => showBanner(msg));
  if (robotError) showBanner(robotError);
  // The embodiment is the page's: another one reloads the page with its `?robot=`.
  panel.robot.value = robot.name;
  panel.robot.onchange = () => {
    const url = new URL(location.href);
    url.searchParams.set('robot', panel.robot.value);
    location.assign(url);
  };
  stats.adapter = describeAdapter(acquired);
  stats.timestamps = acquired.features.has('timestamp-query');
  const width = num('w', 640), height = num('h', 480);
  canvas.width = width;
  canvas.height = height;
  const format = navigator.gpu.getPreferredCanvasFormat();
  const context = canvas.getContext('webgpu')!;
  context.configure({ device, format, alphaMode: 'opaque' });
  const renderer = await DemoRenderer.create(device, format, width, height);
  const applyLighting = () => {
    const h = Number(panel.hour.value);
    const time = `${String(Math.floor(h)).padStart(2, '0')}:${String(Math.round((h % 1) * 60)).padStart(2, '0')}`;
    panel.hourLabel.textContent = time;
    renderer.setConditions(conditionsShading({ time, weather: panel.weather.value as Weather }));
  };
  applyLighting();
  const splatOptions = { maxSplats: num('maxSplats', 300_000), viewDistance: num('viewDistance', 45) };

  /** The ONNX model of picker value `kind`, loaded on first use. */
  function onnxModel(kind: string): Promise<OnnxPolicy> {
    let p = onnxModels.get(kind);
    if (!p) {
      const urls = PICKER_ONNX_URLS[kind];
      if (!urls) throw new Error('no ONNX model dropped yet: drop a model .onnx together with its .json manifest');
      p = loadOnnxFromUrls(device, urls.model, urls.manifest, robot);
      onnxModels.set(kind, p);
      p.catch(() => onnxModels.delete(kind));
    }
    return p;
  }

  async function makeSelectedPolicy(): Promise<EpisodePolicy> {
    const kind = panel.policy.value;
    if (isOnnxKind(kind)) return new CameraPolicy(device, await onnxModel(kind));
    return makePolicy(kind, keys, robot);
  }

  async function start(scenario: Scenario, seed: number, replay?: EpisodeFile): Promise<void> {
    // An episode of another embodiment replays on its own robot: the page reloads with its ?robot=.
    if (replay && (replay.robot ?? 'wheeled') !== robot.name) {
      const url = new URL(location.href);
      url.searchParams.set('robot', replay.robot ?? 'wheeled');
      url.hash = episodeToHash(replay);
      location.assign(url);
      return;
    }
    starting++;
    try {
      await ticking;
      const policy = replay ? new ReplayPolicy(episodeActions(replay), replay.rateHz, replay.policy) : await makeSelectedPolicy();
      const s = new DemoSession(scenario, seed, policy, splatOptions, robot);
      try {
        if (policy instanceof CameraPolicy) await policy.attach(s.episode);
        await s.start();
        await renderer.prepare(s.crowd.count);
        await renderer.setSplats(s.splatUpdate(), scenario.id);
        // A scenario's conditions set the view's time of day and weather (the robot camera has them already).
        if (scenario.conditions) {
          panel.hour.value = String(clockHours(scenario.conditions.time));
          panel.weather.value = scenario.conditions.weather;
          applyLighting();
        }
      } catch (e) {
        if (policy instanceof CameraPolicy) policy.dispose();
        throw e;
      }
      const old = session;
      session = s;
      if (old && old.episode.policy instanceof CameraPolicy) old.episode.policy.dispose();
    } finally {
      starting--;
    }
    const s = session!;
    stats.splats = renderer.splatCount;
    stats.splatsInView = s.city.fullCount;
    orbit = defaultOrbit(s.episode.state.yaw);
    mapImage = new ImageData(new Uint8ClampedArray(s.map.data), s.map.width, s.map.height);
  }

  async function startSelected(): Promise<void> {
    const list = await scenarioList();
    const base = list.find((s) => s.id === panel.scenario.value) ?? list[0];
    if (!base) throw new Error('no scenario to run (the dropped list is empty?)');
    const walkers = Math.max(0, Math.min(500, Math.round(Number(panel.walkers.value) || 0)));
    const seed = panel.seed.value === '' ? base.seed : Number(panel.seed.value);
    const scenario = base.id === FREE_ROAM_ID ? freeRoamScenario(walkers, seed) : withAmbientWalkers(base, walkers);
    history.replaceState(null, '', location.pathname + location.search);
    await start(scenario, seed);
  }

  const guarded = (f: () => Promise<void>) => () => f().catch((e: Error) => showBanner(e.message));
  panel.suite.onchange = guarded(async () => { await refreshScenarios(); await startSelected(); });
  panel.behaviour.onchange = guarded(async () => { await refreshScenarios(); await startSelected(); });
  panel.scenario.onchange = guarded(startSelected);
  panel.policy.onchange = guarded(startSelected);
  panel.restart.onclick = guarded(startSelected);
  panel.walkers.onchange = guarded(startSelected);
  panel.hour.oninput = applyLighting;
  panel.weather.onchange = applyLighting;
  panel.pause.onclick = () => { paused = !paused; panel.pause.textContent = paused ? 'Resume' : 'Pause'; };
  panel.replay.onclick = guarded(async () => { if (session) { const r = session.recording(); await start(r.scenario, r.seed, r); } });
  panel.saveEpisode.onclick = () => session && download(new Blob([JSON.stringify(session.recording())], { type: 'application/json' }), `${session.scenario.id.replace(/\W+/g, '_')}.episode.json`);
  // The scenario being shown, as a file `npm run bench -- --suite FILE` runs (city free roam included).
  panel.saveScenario.onclick = () => session && download(new Blob([scenarioFileText(session.scenario)], { type: 'application/json' }), `${session.scenario.id.replace(/\W+/g, '_')}.scenario.json`);
  panel.copyLink.onclick = () => { if (session) { location.hash = episodeToHash(session.recording()); navigator.clipboard?.writeText(location.href).catch(() => undefined); } };
  panel.screenshot.onclick = () => { screenshotWanted = true; };
  panel.video.onclick = guarded(async () => {
    if (recorder) { download(await recorder.stop(), 'curbside.webm'); recorder = null; panel.video.textContent = 'Record video'; }
    else { recorder = new CanvasRecorder(canvas); panel.video.textContent = 'Stop video'; }
  });
  /** Loads a dropped model with its manifest, selects it and restarts; the previous dropped model is released. */
  const useDroppedModel = async (model: Uint8Array, modelFile: string, manifest: PolicyManifest, manifestFile: string) => {
    const onnx = await loadOnnxFromBytes(device, model, modelFile, manifest, manifestFile, robot);
    const previous = onnxModels.get(DROPPED_ONNX_KIND);
    onnxModels.set(DROPPED_ONNX_KIND, Promise.resolve(onnx));
    pendingManifest = null;
    setOption(panel.policy, DROPPED_ONNX_KIND, `ONNX: ${manifest.name} (${modelFile})`);
    panel.policyInfo.textContent = `Loaded ${modelFile} with ${manifestFile}.`;
    await startSelected();
    if (previous) {
      const old = await previous;
      if (old !== onnx) old.destroy();
    }
  };
  const showSplats = async (name: string, cloud: SplatCloud) => {
    await renderer.setSplats(cloud, name);
    stats.splats = stats.splatsInView = renderer.splatCount;
    panel.camera.value = 'orbit';
    showBanner(`${name}: ${cloud.count.toLocaleString('en')} splats shown in their own frame (not the world's); restart to return to the city.`);
  };
  const openFiles = async (files: readonly File[]) => {
    const entries = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
    if (isSogFileSet(entries)) {
      // SOG images are decoded on the GPU, so this capture format loads here rather than in parseDroppedFiles.
      const name = entries.find((f) => /\.sog$/i.test(f.name))?.name ?? 'meta.json';
      await showSplats(name, await loadSogFiles(entries, renderer.device));
      return;
    }
    const d = parseDroppedFiles(entries, pendingManifest);
    if (d.kind === 'policy') await useDroppedModel(d.model, d.name, d.manifest, d.manifestFile);
    else if (d.kind === 'policy-manifest') {
      pendingManifest = { name: d.name, manifest: d.manifest };
      panel.policyInfo.textContent = `${d.name}: manifest of '${d.manifest.name}' read; now drop its .onnx model.`;
    } else if (d.kind === 'policy-model') throw new Error(`${d.name}: an ONNX model needs its manifest: drop its .json with it, or before it`);
    else if (d.kind === 'episode') await start(d.episode.scenario, d.episode.seed, d.episode);
    else if (d.kind === 'scenarios') {
      dropped = d.scenarios;
      panel.suite.value = 'dropped';
      await refreshScenarios();
      await startSelected();
    } else {
      await showSplats(d.name, d.cloud);
    }
  };
  panel.openFile.onchange = () => { const f = [...(panel.openFile.files ?? [])]; if (f.length) openFiles(f).catch((e: Error) => showBanner(e.message)); };
  window.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dragging'); });
  window.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    const f = [...(e.dataTransfer?.files ?? [])];
    if (f.length) openFiles(f).catch((err: Error) => showBanner(err.message));
  });
  const keyMap: Record<string, keyof TeleopKeys> = { KeyW: 'forward', ArrowUp: 'forward', KeyS: 'back', ArrowDown: 'back', KeyA: 'left', ArrowLeft: 'left', KeyD: 'right', ArrowRight: 'right' };
  const onKey = (down: boolean) => (e: KeyboardEvent) => {
    if ((e.target as HTMLElement).tagName === 'INPUT' || (e.target as HTMLElement).tagName === 'SELECT') return;
    if (keyMap[e.code]) { keys[keyMap[e.code]] = down; e.preventDefault(); }
    if (down && e.code === 'KeyC') panel.camera.value = CAMERA_MODES[(CAMERA_MODES.indexOf(panel.camera.value as CameraMode) + 1) % CAMERA_MODES.length];
  };
  window.addEventListener('keydown', onKey(true));
  window.addEventListener('keyup', onKey(false));
  let drag: [number, number] | null = null;
  canvas.addEventListener('pointerdown', (e) => { drag = [e.clientX, e.clientY]; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener('pointerup', () => (drag = null));
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    orbit = clampOrbit({ ...orbit, azimuth: orbit.azimuth - (e.clientX - drag[0]) * 0.01, elevation: orbit.elevation + (e.clientY - drag[1]) * 0.01 });
    drag = [e.clientX, e.clientY];
  });
  canvas.addEventListener('wheel', (e) => { e.preventDefault(); orbit = clampOrbit({ ...orbit, distance: orbit.distance * Math.exp(e.deltaY * 0.001) }); }, { passive: false });

  const hashEpisode = episodeFromHash(location.hash);
  if (q.has('behaviour')) panel.behaviour.value = q.get('behaviour')!;
  await refreshScenarios(q.get('scenario') ?? undefined);
  if (hashEpisode) await start(hashEpisode.scenario, hashEpisode.seed, hashEpisode);
  else {
    try {
      await startSelected();
    } catch (e) {
      // A policy that fails to load must not take the page down: say so and drive by keyboard.
      if (!isOnnxKind(panel.policy.value)) throw e;
      showBanner((e as Error).message);
      panel.policy.value = 'teleop';
      await startSelected();
    }
  }

  hooks.state = () => session && { time: session.episode.metrics.time, robot: { ...session.episode.state }, end: session.episode.metrics.end, hud: hud.textContent };
  hooks.finalState = () => session?.episode.finalState();
  hooks.runToEnd = async () => { await session?.runToEnd(); return session?.episode.finalState(); };
  // Runs control steps (no rendering) until the episode time reaches `t` seconds or the episode ends.
  hooks.stepUntil = async (t: number) => {
    while (session && session.episode.metrics.time < t && session.episode.metrics.end === 'running') {
      // A step of the frame loop in flight: wait for it.
      if (!(await session.episode.advance())) await new Promise((r) => setTimeout(r, 5));
    }
    return session?.episode.metrics.time;
  };
  hooks.recordingHash = () => session && episodeToHash(session.recording());
  hooks.pedestrianCount = () => session?.crowd.count ?? 0;
  hooks.policy = () => session?.episode.policy.name;
  hooks.selectPolicy = (kind: string) => { panel.policy.value = kind; panel.policy.dispatchEvent(new Event('change')); };

  let last = performance.now(), fpsWindow: number[] = [];
  const loop = async () => {
    const now = performance.now();
    const dt = Math.min(0.5, (now - last) / 1000);
    last = now;
    const s = session!;
    try {
      if (starting === 0) {
        const step = s.tick(dt, paused ? 0 : Number(panel.speed.value));
        ticking = step.catch(() => undefined);
        await step;
      }
      const cloud = s.splatUpdate();
      if (cloud) { await renderer.setSplats(cloud, s.scenario.id); stats.splats = renderer.splatCount; stats.splatsInView = s.city.fullCount; }
      const frame = s.frame(panel.camera.value as CameraMode, orbit, width, height, panel.bodies.checked, paused ? 0 : dt);
      const policy = s.episode.policy;
      frame.inset = policy instanceof CameraPolicy ? policy.frame : null;
      const t0 = performance.now();
      renderer.render(frame, context.getCurrentTexture());
      if (screenshotWanted) { screenshotWanted = false; canvasPng(canvas).then((b) => download(b, 'curbside.png'), (e: Error) => showBanner(e.message)); }
      await device.queue.onSubmittedWorkDone();
      stats.frameMs = performance.now() - t0;
      stats.passes = (await renderer.readPassTimes()) ?? stats.passes;
      fpsWindow = [...fpsWindow.filter((t) => now - t < 2000), now];
      stats.fps = fpsWindow.length > 1 ? ((fpsWindow.length - 1) * 1000) / (now - fpsWindow[0]) : 0;
      hud.textContent = hudText(s, stats, paused, !!recorder);
      document.getElementById('minimap')!.classList.toggle('large', panel.camera.value === 'top-down');
      if (mapImage) drawMinimap(minimap, s, mapImage);
      hooks.frames = (hooks.frames as number) + 1;
    } catch (e) {
      showBanner((e as Error).message);
    }
    requestAnimationFrame(() => void loop());
  };
  hooks.ready = true;
  requestAnimationFrame(() => void loop());
}

main().catch((e: Error) => {
  hooks.error = e.message;
  showBanner(e.message);
});
