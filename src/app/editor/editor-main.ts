/**
 * The scene editor page (`editor.html`; `npm run dev`, then http://localhost:5173/editor.html, or
 * "edit scene" in the demo's panel): open or drop a capture, level it (ground fit by RANSAC with an
 * up-axis hint, or three clicks on the ground; scale, yaw, local origin, georeferenced offset),
 * draw sidewalk, crosswalk, road and obstacle polygons with holes and named points on an
 * orthographic top-down render, check them, and save `NAME.json` (a scene file, version 2) for
 * `scenes/`; save a scenario between a named start and goal. Opening a scene file (with its capture)
 * edits it again.
 *
 * Scripted use (tests): `window.curbsideEditor` exposes readiness, errors, the draft, the status
 * line and `clientPoint(x, y)` (page coordinates of a world point).
 */
import type { Box, Vec2 } from '../../core/geometry2d';
import { GpuUnavailableError, acquireDevice } from '../../gpu/device';
import { loadSplatFile, splatBounds } from '../../splats/formats';
import { fitGroundPlane } from '../../splats/ground-plane';
import type { SplatCloud } from '../../splats/splat-cloud';
import { parseSceneFile, sceneTransform, sceneWorld, transformSplatCloud } from '../../world/bake/scene-file';
import { customScenario, scenarioFileText } from '../../bench/custom-scenario';
import { SCENE_BEHAVIOURS } from '../../bench/scene-suite';
import type { Behaviour } from '../../sim/scenario';
import { download } from '../capture';
import { el, showBanner, showUnsupported } from '../ui';
import { EditorCanvas, type EditorTool } from './editor-canvas';
import { applyTransform, groundPointAt, invertTransform, levellingOf, levellingTransform, planeThroughPoints, remapAnnotations, UP_AXES, type Levelling, type UpAxis } from './levelling';
import { DEFAULT_OCCUPANCY, obstacleProposals, occupancyGrid } from '../../world/scan-occupancy';
import { draftToSceneFile, emptyDraft, SCAN_OBSTACLE_LABEL, SceneDraftHistory, sceneFileText, sceneFileToDraft, validateDraft, type DraftProblem, type DraftTransform, type SceneDraft } from './scene-draft';
import { TopDownView } from './top-down-view';

/** What tests read from the page. */
export interface EditorHandle {
  ready: boolean;
  error: string | null;
  /** Top-down renders finished so far. */
  renders: number;
  status: string;
  draft(): SceneDraft;
  problems(): DraftProblem[];
  clientPoint(x: number, y: number): [number, number];
  /** The text the last save produced (also downloaded as NAME.json). */
  saved: string | null;
  /** The text of the last saved scenario. */
  savedScenario: string | null;
}

const handle: EditorHandle = { ready: false, error: null, renders: 0, status: '', draft: () => history.draft, problems: () => [], clientPoint: () => [0, 0], saved: null, savedScenario: null };
(window as unknown as { curbsideEditor: EditorHandle }).curbsideEditor = handle;

const history = new SceneDraftHistory(emptyDraft('my-street', 'capture.ply'));
let capture: { name: string; cloud: SplatCloud } | null = null;
let world: SplatCloud | null = null;
let captureBox: Box | undefined;
let builtTransform = '';
let levelling: Levelling | null = null;
let view: TopDownView | null = null;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const statusLine = $('status');
const problemList = $('problems');
const setStatus = (m: string) => {
  handle.status = m;
  statusLine.textContent = m;
};
const fail = (e: unknown) => {
  const m = (e as Error).message ?? String(e);
  handle.error = m;
  setStatus(m);
  showBanner(m);
};

const num = (id: string, fallback: number) => {
  const v = Number(($(id) as HTMLInputElement).value);
  return Number.isFinite(v) ? v : fallback;
};
const toolInput = () => (document.querySelector('input[name=tool]:checked') as HTMLInputElement | null)?.value as EditorTool ?? 'select';

const canvas = new EditorCanvas($('map'), {
  history,
  tool: toolInput,
  grid: () => Math.max(0, num('grid', 0)),
  obstacleHeight: () => Math.max(0.05, num('obstacle-height', 1)),
  newPoint: () => {
    const typed = ($('point-name') as HTMLInputElement).value.trim();
    const kind = ($('point-kind') as HTMLSelectElement).value as 'start' | 'goal' | 'landmark';
    const used = new Set(history.draft.points.map((p) => p.name));
    let name = typed || `${kind} 1`;
    for (let k = 2; used.has(name); k++) name = `${typed || kind} ${k}`;
    return { name, kind };
  },
  changed: () => refreshLists(),
  viewChanged: () => scheduleRender(),
  setOrigin: (p) => {
    if (!levelling) return;
    levelling = { ...levelling, plane: { ...levelling.plane, centroid: invertTransform(history.draft.transform, [p[0], p[1], 0]) } };
    applyLevelling(`origin moved to (${p[0].toFixed(2)}, ${p[1].toFixed(2)}); annotations kept on the scan`);
  },
  groundPoints: (ps) => relevelThrough(ps),
  status: setStatus,
});
handle.clientPoint = (x, y) => canvas.clientPoint(x, y);
handle.problems = () => validateDraft(history.draft, captureBox);

let worldUpload: Promise<void> = Promise.resolve();

/**
 * Re-transforms the capture when the draft's transform differs from the one it was built with (a
 * change or an undo); resolves when the upload (this call's or one in flight) is done.
 */
function syncWorld(): Promise<void> {
  if (!capture || !view) return worldUpload;
  const key = JSON.stringify(history.draft.transform);
  if (key === builtTransform) return worldUpload;
  builtTransform = key;
  world = transformSplatCloud(capture.cloud, sceneTransform({ transform: history.draft.transform }));
  const b = splatBounds(world, 0.001, 0.999);
  captureBox = [b.min[0] - 1, b.min[1] - 1, b.max[0] + 1, b.max[1] + 1];
  const cloud = world, name = capture.name, v = view;
  worldUpload = worldUpload.then(() => v.setCloud(cloud, name));
  return worldUpload;
}

let renderTimer = 0;
let rendering = Promise.resolve();
function scheduleRender(): void {
  clearTimeout(renderTimer);
  renderTimer = window.setTimeout(() => {
    rendering = rendering.then(renderNow).catch(fail);
  }, 60);
}

async function renderNow(): Promise<void> {
  if (!capture || !view) return canvas.draw();
  await syncWorld();
  const { width, height } = canvas.canvas;
  const pixels = await view.render(canvas.view, width, height);
  canvas.image = new ImageData(pixels, width, height);
  handle.renders++;
  canvas.draw();
}

/** Fits the view to the capture's extent. */
function frameCapture(): void {
  if (!captureBox) return;
  const [x0, y0, x1, y1] = captureBox;
  const { width, height } = canvas.canvas;
  canvas.view = { centre: [(x0 + x1) / 2, (y0 + y1) / 2], metresPerPixel: Math.max((x1 - x0) / width, (y1 - y0) / height) * 1.05 };
}

/** Applies the current levelling as the draft's transform, carrying the annotations along. */
function applyLevelling(message: string): void {
  if (!levelling) return;
  const next: DraftTransform = levellingTransform(levelling);
  const before = history.draft.transform;
  const [cx, cy] = canvas.view.centre;
  history.edit((d) => {
    remapAnnotations(d, before, next);
    d.transform = next;
  });
  // Keep the same spot of the scan in the middle of the view.
  const [vx, vy] = applyTransform(next, invertTransform(before, [cx, cy, history.draft.groundHeight]));
  canvas.view.centre = [vx, vy];
  writeLevellingInputs();
  setStatus(message);
  refreshLists();
  scheduleRender();
}

function fitGround(): void {
  if (!capture) {
    setStatus('open a capture first');
    return;
  }
  const axis = ($('up-axis') as HTMLSelectElement).value as UpAxis;
  const hint = UP_AXES[axis];
  const g = fitGroundPlane(capture.cloud, hint ? { upHint: hint } : {});
  levelling = { plane: g, scale: num('scale', 1), yawDeg: num('yaw', 0) };
  applyLevelling(`ground fit: normal (${g.normal.map((v) => v.toFixed(3)).join(', ')}), ${(100 * g.inlierFraction).toFixed(0)} % of opaque splats within ${g.inlierDistance.toPrecision(2)}, rms ${g.rms.toPrecision(2)} (capture units)`);
}

function relevelThrough(ps: Vec2[]): void {
  if (!world || !levelling) return;
  const picked = ps.map((p) => groundPointAt(world!, p[0], p[1], 12 * canvas.view.metresPerPixel));
  const missing = picked.findIndex((p) => !p);
  if (missing >= 0) {
    setStatus(`ground point ${missing + 1}: no opaque splats under it; pick open ground`);
    return;
  }
  const t = history.draft.transform;
  const inCapture = picked.map((p) => invertTransform(t, p!));
  const up = invertTransform({ ...t, translation: [0, 0, 0] }, [0, 0, 1]);
  const plane = planeThroughPoints(inCapture[0], inCapture[1], inCapture[2], up);
  // Keep the origin: project the current one onto the new plane.
  const o = levelling.plane.centroid;
  const n = plane.normal;
  const d = (o[0] - plane.centroid[0]) * n[0] + (o[1] - plane.centroid[1]) * n[1] + (o[2] - plane.centroid[2]) * n[2];
  levelling = { ...levelling, plane: { normal: n, centroid: [o[0] - d * n[0], o[1] - d * n[1], o[2] - d * n[2]] } };
  applyLevelling('levelled through the three picked ground points');
}

/** Replaces the obstacles from the scan with the proposals of the levelled capture's occupancy grid. */
function obstaclesFromScan(): void {
  if (!world || !captureBox) {
    setStatus('open a capture first');
    return;
  }
  const cell = Math.max(0.05, num('occupancy-cell', DEFAULT_OCCUPANCY.cell));
  const options = { ...DEFAULT_OCCUPANCY, cell };
  const d0 = history.draft;
  const proposals = obstacleProposals(occupancyGrid(world, captureBox, d0.groundHeight, options), options);
  history.edit((d) => {
    d.polygons = d.polygons.filter((p) => !(p.kind === 'obstacle' && p.label === SCAN_OBSTACLE_LABEL));
    for (const p of proposals) d.polygons.push({ kind: 'obstacle', outer: p.polygon, holes: [], height: Math.round(p.height * 100) / 100, label: SCAN_OBSTACLE_LABEL });
    const { minArea: _a, maxHullRatio: _r, ...recorded } = options;
    d.occupancy = recorded;
  });
  setStatus(`${proposals.length} obstacles from the scan (${cell} m cells, opaque splats ${options.minHeight}–${options.maxHeight} m above the ground); delete the ones you do not want`);
  refreshLists();
}

function writeLevellingInputs(): void {
  if (!levelling) return;
  ($('scale') as HTMLInputElement).value = String(levelling.scale);
  ($('yaw') as HTMLInputElement).value = String(Math.round(levelling.yawDeg * 1000) / 1000);
}

function refreshLists(): void {
  const d = history.draft;
  ($('scene-name') as HTMLInputElement).value = d.name;
  ($('capture-path') as HTMLInputElement).value = d.capture;
  const problems = validateDraft(d, captureBox);
  problemList.replaceChildren(...problems.map((p) => el('li', { class: p.severity }, `${p.where}: ${p.message}`)));
  const counts = ['sidewalk', 'crosswalk', 'road', 'obstacle'].map((k) => `${d.polygons.filter((p) => p.kind === k).length} ${k}`);
  $('summary').textContent = `${counts.join(', ')}, ${d.points.length} points`;
  refreshScenarioPoints();
  canvas.draw();
}

async function openCapture(file: File): Promise<void> {
  setStatus(`loading ${file.name}…`);
  const cloud = loadSplatFile(file.name, new Uint8Array(await file.arrayBuffer()));
  capture = { name: file.name, cloud };
  builtTransform = '';
  $('capture-info').textContent = `${file.name}: ${cloud.count.toLocaleString()} splats, SH degree ${cloud.shDegree}`;
  if (history.draft.capture.replace(/^.*\//, '') === file.name) {
    // The capture of the scene file opened before: keep its transform and annotations.
    levelling = levellingOf(history.draft.transform);
  } else {
    history.reset(emptyDraft(file.name.replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '-'), file.name));
    levelling = levellingOf(history.draft.transform);
    try {
      fitGround();
    } catch (e) {
      // Shown, not fatal: the capture stays as stored, and the 3-point tool or another up axis can level it.
      const m = `${file.name}: ${(e as Error).message}; pick another up axis or level it with the 3-point tool`;
      setStatus(m);
      showBanner(m);
    }
    history.reset(history.draft); // the first undo should not undo the levelling of a fresh capture
  }
  await syncWorld();
  frameCapture();
  writeLevellingInputs();
  refreshLists();
  scheduleRender();
  if (handle.status.startsWith('loading')) setStatus(`opened ${file.name} (${cloud.count.toLocaleString()} splats) with the scene's transform`);
}

async function openScene(file: File): Promise<void> {
  const scene = parseSceneFile(await file.text(), file.name);
  history.reset(sceneFileToDraft(scene));
  levelling = capture ? levellingOf(history.draft.transform) : null;
  if (history.draft.georeference) {
    const [e, n, u] = history.draft.georeference.offset;
    ($('geo-e') as HTMLInputElement).value = String(e);
    ($('geo-n') as HTMLInputElement).value = String(n);
    ($('geo-u') as HTMLInputElement).value = String(u);
    ($('geo-crs') as HTMLInputElement).value = history.draft.georeference.crs ?? '';
  }
  const wanted = scene.capture.replace(/^.*\//, '');
  if (!capture || capture.name !== wanted) setStatus(`opened ${file.name}; now open its capture ${scene.capture}`);
  else {
    builtTransform = '';
    await syncWorld();
    frameCapture();
    setStatus(`opened ${file.name}`);
  }
  writeLevellingInputs();
  refreshLists();
  scheduleRender();
}

async function openFiles(files: readonly File[]): Promise<void> {
  const json = files.filter((f) => f.name.toLowerCase().endsWith('.json'));
  const splats = files.filter((f) => !f.name.toLowerCase().endsWith('.json'));
  for (const f of json) await openScene(f);
  for (const f of splats) await openCapture(f);
}

function save(): void {
  history.edit((d) => {
    const e = num('geo-e', NaN), n = num('geo-n', NaN), u = num('geo-u', 0);
    const crs = ($('geo-crs') as HTMLInputElement).value.trim();
    if (Number.isFinite(e) && Number.isFinite(n) && (e !== 0 || n !== 0)) d.georeference = { offset: [e, n, u], ...(crs ? { crs } : {}) };
    else delete d.georeference;
  });
  refreshLists();
  const errors = validateDraft(history.draft, captureBox).filter((p) => p.severity === 'error');
  if (errors.length) {
    setStatus(`not saved: ${errors.length} problem${errors.length > 1 ? 's' : ''} (listed below)`);
    return;
  }
  const text = sceneFileText(history.draft);
  parseSceneFile(text, `${history.draft.name}.json`); // the file must read back
  handle.saved = text;
  download(new Blob([text], { type: 'application/json' }), `${history.draft.name}.json`);
  setStatus(`saved ${history.draft.name}.json: put it in scenes/ (capture path "${history.draft.capture}" is relative to it)`);
}

/** Fills the scenario's from / to lists with the named start and goal points. */
function refreshScenarioPoints(): void {
  const fill = (id: string, kind: 'start' | 'goal') => {
    const sel = $(id) as HTMLSelectElement;
    const keep = sel.value;
    const names = history.draft.points.filter((p) => p.kind === kind).map((p) => p.name);
    sel.replaceChildren(...names.map((n) => el('option', { value: n }, n)));
    if (names.includes(keep)) sel.value = keep;
  };
  fill('scenario-from', 'start');
  fill('scenario-to', 'goal');
}

/** Saves a scenario from the chosen start point to the chosen goal (the route over the drawn walkable area). */
function saveScenario(): void {
  const d = history.draft;
  const from = d.points.find((p) => p.kind === 'start' && p.name === ($('scenario-from') as HTMLSelectElement).value);
  const to = d.points.find((p) => p.kind === 'goal' && p.name === ($('scenario-to') as HTMLSelectElement).value);
  if (!from || !to) {
    setStatus('name a start and a goal point first (tool "named point")');
    return;
  }
  const behaviour = (($('scenario-behaviour') as HTMLSelectElement).value || undefined) as Behaviour | undefined;
  const seed = Math.max(0, Math.floor(num('scenario-seed', 0)));
  const notes: string[] = [];
  const { scenario } = customScenario({ world: sceneWorld(draftToSceneFile(d)), worldRef: { kind: 'scene', path: `scenes/${d.name}.json` }, from: from.position, to: to.position, behaviour, seed }, notes);
  const text = scenarioFileText(scenario);
  handle.savedScenario = text;
  const slug = (n: string) => n.replace(/[^\w.-]+/g, '-');
  download(new Blob([text], { type: 'application/json' }), `${d.name}-${slug(from.name)}-${slug(to.name)}.json`);
  setStatus(`saved scenario ${scenario.id} (${scenario.pedestrians.length} pedestrians)${notes.length ? `; ${notes.join('; ')}` : ''}`);
}

function undoRedo(redo: boolean): void {
  if (redo ? history.redo() : history.undo()) {
    levelling = capture ? levellingOf(history.draft.transform) : levelling;
    writeLevellingInputs();
    refreshLists();
    scheduleRender();
  }
}

function wire(): void {
  $('open-capture').addEventListener('change', (e) => openFiles([...((e.target as HTMLInputElement).files ?? [])]).catch(fail));
  $('open-scene').addEventListener('change', (e) => openFiles([...((e.target as HTMLInputElement).files ?? [])]).catch(fail));
  $('fit-ground').addEventListener('click', () => { try { fitGround(); } catch (e) { fail(e); } });
  for (const id of ['scale', 'yaw']) {
    $(id).addEventListener('change', () => {
      if (!levelling) return;
      levelling = { ...levelling, scale: Math.max(1e-6, num('scale', levelling.scale)), yawDeg: num('yaw', levelling.yawDeg) };
      applyLevelling(`scale ${levelling.scale}, yaw ${levelling.yawDeg}°`);
    });
  }
  // Name and capture path are typed text: they change the draft directly (no undo step per key).
  $('scene-name').addEventListener('input', (e) => { history.draft.name = (e.target as HTMLInputElement).value.trim(); });
  $('capture-path').addEventListener('input', (e) => { history.draft.capture = (e.target as HTMLInputElement).value.trim(); });
  ($('scenario-behaviour') as HTMLSelectElement).append(...SCENE_BEHAVIOURS.map((b) => el('option', { value: b }, b)));
  $('save-scenario').addEventListener('click', () => { try { saveScenario(); } catch (e) { fail(e); } });
  $('scan-obstacles').addEventListener('click', () => { try { obstaclesFromScan(); } catch (e) { fail(e); } });
  $('undo').addEventListener('click', () => undoRedo(false));
  $('redo').addEventListener('click', () => undoRedo(true));
  $('delete').addEventListener('click', () => canvas.deleteSelected());
  $('save').addEventListener('click', () => { try { save(); } catch (e) { fail(e); } });
  $('frame').addEventListener('click', () => { frameCapture(); scheduleRender(); });
  document.querySelectorAll('input[name=tool]').forEach((r) => r.addEventListener('change', () => canvas.cancelRing(false)));
  window.addEventListener('keydown', (e) => {
    if ((e.target as HTMLElement).tagName === 'INPUT' && (e.target as HTMLInputElement).type !== 'radio') return;
    if (e.key === 'Enter') canvas.finishRing();
    else if (e.key === 'Escape') canvas.cancelRing(false);
    else if (e.key === 'Backspace') canvas.cancelRing(true);
    else if (e.key === 'Delete') canvas.deleteSelected();
    else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') undoRedo(e.shiftKey);
  });
  const main = $('map-view');
  main.addEventListener('dragover', (e) => e.preventDefault());
  main.addEventListener('drop', (e) => {
    e.preventDefault();
    openFiles([...(e.dataTransfer?.files ?? [])]).catch(fail);
  });
  const resize = () => {
    canvas.canvas.width = Math.max(64, Math.floor(main.clientWidth));
    canvas.canvas.height = Math.max(64, Math.floor(main.clientHeight));
    scheduleRender();
  };
  window.addEventListener('resize', resize);
  resize();
}

async function start(): Promise<void> {
  wire();
  try {
    const acquired = await acquireDevice();
    view = await TopDownView.create(acquired.device);
  } catch (e) {
    showUnsupported(e instanceof GpuUnavailableError ? e.message : `WebGPU failed to start: ${(e as Error).message}`);
    handle.error = (e as Error).message;
    return;
  }
  refreshLists();
  setStatus('open or drop a capture (.ply, .splat, .spz, .glb), or a scene .json with its capture');
  handle.ready = true;
}

start().catch(fail);
