/**
 * The arena page (`arena.html`; `npm run dev`, then http://localhost:5173/arena.html, or "arena" in
 * the demo's panel): play a task of the checked-in `cityarena` suite yourself. You see what an agent
 * sees (its first-person view, the task's map and reference image, the step's text: instruction,
 * steps left, notices, branches, camera angles; never a coordinate), act with the keyboard
 * (arena-keys.ts) and type the answer. The episode runs by the agents' rules and is scored by the
 * same functions (src/arena/episode.ts); its record, in the format of `npm run arena`'s
 * `episodes.jsonl` with agent `human`, can be downloaded.
 *
 * URL options: `?task=ID` starts that task; `w`, `h` set the view size (default 640×480; smaller is
 * faster on software renderers). Scripted use (tests): `window.curbsideArena`.
 */
import cityArenaUrl from '../../../scenes/arena/cityarena.json?url';
import monacoSuiteUrl from '../../../scenes/arena/monaco-casino.json?url';
import { pageRealPlace } from '../real-places';
import { actionText, type ArenaAction } from '../../arena/actions';
import { ArenaEpisode, type ArenaObservation, type EpisodeStatus } from '../../arena/episode';
import { taskWorld, type TaskWorld } from '../../arena/generate/context';
import { parseTaskFile, taskFileWorld, taskWorldLabel, type ArenaTask, type ArenaTaskFile } from '../../arena/task';
import { acquireDevice, GpuUnavailableError } from '../../gpu/device';
import { download } from '../capture';
import { el, showBanner } from '../ui';
import { keyAction, KEY_HELP } from './arena-keys';
import { drawArenaMap, locationMapSpec, taskMapSpec } from './arena-map';
import { humanRecord, recordLine, type HumanRecord } from './arena-record';
import { ARENA_VIEW, ArenaViewRenderer, poseOf, type ViewPose } from './arena-view';

/** What tests read from the page. */
export interface ArenaPageState {
  taskId: string | null;
  /** Valid actions taken. */
  step: number;
  stepsLeft: number;
  status: EpisodeStatus | null;
  score: number | null;
  viewYawDeg: number;
  pitchDeg: number;
  /** First-person frames drawn so far (all tasks). */
  renders: number;
  /** Whether a render is running or waiting. */
  rendering: boolean;
}

/** `window.curbsideArena`. */
export interface ArenaHandle {
  /** Settles once the suite, the world and the first task (with its first view) are loaded. */
  ready: Promise<void>;
  error: string | null;
  state(): ArenaPageState;
  /** Starts task `id` afresh; resolves once its first view is drawn. */
  choose(id: string): Promise<void>;
  /** Applies an action as its key would (for scripts; ignored once the episode has ended). */
  act(action: ArenaAction): void;
  /** The record of the ended episode, else null. */
  record(): HumanRecord | null;
  /** Resolves when no render is running or waiting. */
  idle(): Promise<void>;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);
const sizeParam = (k: string, fallback: number) => {
  const v = Number(params.get(k));
  return Number.isInteger(v) && v >= 64 && v <= 2048 ? v : fallback;
};
const viewSize = { width: sizeParam('w', ARENA_VIEW.width), height: sizeParam('h', ARENA_VIEW.height), fovYDeg: ARENA_VIEW.fovYDeg };

/** The suites the page plays (`?suite=NAME`), by name: their task files, bundled. */
const PAGE_SUITES: Readonly<Record<string, string>> = { cityarena: cityArenaUrl, 'monaco-casino': monacoSuiteUrl };
const suiteName = params.get('suite') ?? 'cityarena';

const suitePicker = $<HTMLSelectElement>('suite');
const picker = $<HTMLSelectElement>('task');
const restartButton = $<HTMLButtonElement>('restart');
const instructionBox = $('instruction');
const observationBox = $('observation');
const resultBox = $('result');
const answerInput = $<HTMLInputElement>('answer');
const answerButton = $<HTMLButtonElement>('answer-button');
const downloadButton = $<HTMLButtonElement>('download');
const viewCanvas = $<HTMLCanvasElement>('view');
const mapCanvas = $<HTMLCanvasElement>('map');
const referenceCanvas = $<HTMLCanvasElement>('reference');
const statusLine = $('status');
$('keys').replaceChildren(...KEY_HELP.map((k) => el('div', {}, k)));

let file: ArenaTaskFile | null = null;
let tw: TaskWorld | null = null;
let renderer: ArenaViewRenderer | null = null;
let episode: ArenaEpisode | null = null;
let renders = 0;
/** Human think time of the episode, ms, and when the current observation was last brought up to date. */
let thinkMs = 0;
let shownAt = 0;
let lastActionAt = 0;
const references = new Map<string, Uint8ClampedArray>();

const setStatus = (m: string) => (statusLine.textContent = m);
const fail = (e: unknown) => {
  const m = (e as Error).message ?? String(e);
  handle.error = m;
  setStatus(m);
  showBanner(m);
};

function put(canvas: HTMLCanvasElement, rgba: Uint8ClampedArray, width: number, height: number): void {
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')?.putImageData(new ImageData(new Uint8ClampedArray(rgba), width, height), 0, 0);
}

// --- GPU work: one queue, step renders coalesced to the latest pose --------------------------------

let gpuQueue: Promise<void> = Promise.resolve();
let pendingPose: { pose: ViewPose; ep: ArenaEpisode } | null = null;
let queued = 0;
const idleWaiters: (() => void)[] = [];

function enqueue<T>(work: () => Promise<T>): Promise<T> {
  queued++;
  const run = gpuQueue.then(work);
  gpuQueue = run.then(
    () => undefined,
    () => undefined,
  ).finally(() => {
    queued--;
    if (queued === 0 && !pendingPose) for (const w of idleWaiters.splice(0)) w();
  });
  return run;
}

/** Draws the current episode's first-person view (after the renders already queued; coalesced). */
function requestView(): Promise<void> {
  if (!episode) return Promise.resolve();
  const first = pendingPose === null;
  pendingPose = { pose: poseOf(episode.cameraPose()), ep: episode };
  if (!first) return gpuQueue;
  return enqueue(async () => {
    const job = pendingPose;
    pendingPose = null;
    if (!job || !renderer || job.ep !== episode) return;
    try {
      const px = await renderer.render(job.pose);
      if (job.ep !== episode) return;
      put(viewCanvas, px, renderer.width, renderer.height);
      renders++;
      shownAt = performance.now();
    } catch (e) {
      fail(new Error(`render: ${(e as Error).message}`));
      if (!job.ep.outcome) job.ep.fail('env_error', `render: ${(e as Error).message}`);
      showObservation();
    }
  });
}

/** Draws the task's reference image: its map (markers, grid), or the landmark's view rendered once per task. */
function showReference(task: ArenaTask): Promise<void> {
  const fig = $('reference-figure');
  const spec = taskMapSpec(task);
  fig.hidden = !spec && !task.referenceView;
  if (spec && tw) {
    const img = drawArenaMap(tw.world, tw.inventory, spec);
    put(referenceCanvas, img.data, img.width, img.height);
    return Promise.resolve();
  }
  if (!task.referenceView) return Promise.resolve();
  const rv = task.referenceView;
  return enqueue(async () => {
    if (!renderer) return;
    let px = references.get(task.id);
    if (!px) {
      px = await renderer.render({ eye: rv.eye, target: rv.target });
      references.set(task.id, px);
    }
    if (episode?.task === task) put(referenceCanvas, px, renderer.width, renderer.height);
  });
}

/** Draws the step's current-location map (the 200 m around the agent with its marker), where the task grants location. */
function showMap(): void {
  const fig = $('map-figure');
  if (!episode || !tw) return;
  const pose = episode.cameraPose();
  const spec = locationMapSpec(episode.task, { position: [pose.eye[0], pose.eye[1]], yaw: pose.yaw });
  fig.hidden = !spec;
  if (!spec) return;
  const img = drawArenaMap(tw.world, tw.inventory, spec);
  put(mapCanvas, img.data, img.width, img.height);
}

// --- the text of a step and the end -----------------------------------------------------------------

function observationText(obs: ArenaObservation): string {
  const lines = [`Step ${obs.step + 1} of ${obs.step + obs.stepsLeft} · ${obs.stepsLeft} step${obs.stepsLeft === 1 ? '' : 's'} left`];
  for (const n of obs.notices) lines.push(`Notice: ${n}`);
  if (obs.branches.length) {
    lines.push('Junction. Branches (angle left of your path):');
    for (const b of obs.branches) lines.push(`  ${b.token ?? '(no key: turn towards it, walk)'} ${b.kind} ${b.angleDeg}°`);
  } else lines.push('No branches here.');
  lines.push(`Camera: ${obs.viewYawDeg}° left of your path, ${obs.pitchDeg}° up`);
  return lines.join('\n');
}

function showObservation(): void {
  if (!episode) return;
  const out = episode.outcome;
  const obs = episode.observation();
  observationBox.textContent = out ? `Episode over after ${out.steps} step${out.steps === 1 ? '' : 's'}.` : observationText(obs);
  const last = episode.steps[episode.steps.length - 1];
  observationBox.dataset.step = String(obs.step);
  if (last) observationBox.textContent += `\nLast action: ${last.action}${last.valid ? '' : ' (refused)'}`;
  answerInput.disabled = answerButton.disabled = !!out;
  downloadButton.disabled = !out;
  if (!out) {
    resultBox.hidden = true;
    return;
  }
  const t = episode.task.truth;
  const lines = [`Ended: ${out.status}`, `Score: ${out.score.toFixed(2)}`];
  if (out.answer !== null) lines.push(`Your answer: ${out.answer || '(empty)'}`);
  if (out.distanceToGoal !== null) lines.push(`Distance to the goal: ${out.distanceToGoal.toFixed(1)} m (within ${t.scoring === 'coordinate_match' ? t.epsilon : '?'} m scores)`);
  if (t.scoring === 'exact_match') lines.push(`Truth: x:${t.cell.x} y:${t.cell.y}`);
  else if (t.scoring === 'fuzzy_match') lines.push(`Truth: ${t.name}`);
  else if (t.scoring === 'mra') lines.push(`Truth: ${t.count}`);
  lines.push(`Walked ${out.walked.toFixed(0)} m in ${out.steps} steps${out.error ? `; ${out.error}` : ''}`);
  resultBox.textContent = lines.join('\n');
  resultBox.dataset.status = out.status;
  resultBox.hidden = false;
}

/** Applies an action to the running episode: text, map and view follow. */
function act(action: ArenaAction): void {
  if (!episode || episode.outcome) return;
  const now = performance.now();
  thinkMs += Math.max(0, now - Math.max(shownAt, lastActionAt));
  lastActionAt = now;
  const before = episode.cameraPose();
  const outcome = episode.act(action, '');
  showObservation();
  setStatus(`${actionText(action)}${outcome ? ` — ${outcome.status}` : ''}`);
  const after = episode.cameraPose();
  const turnedOrMoved = after.eye[0] !== before.eye[0] || after.eye[1] !== before.eye[1] || after.yaw !== before.yaw;
  if (turnedOrMoved && episode.task.grantsLocation) showMap();
  if (turnedOrMoved || after.pitch !== before.pitch) void requestView();
}

function answer(): void {
  if (!episode || episode.outcome) return;
  act({ kind: 'answer', text: answerInput.value.trim() });
  answerInput.blur();
}

// --- tasks ---------------------------------------------------------------------------------------

function fillPicker(f: ArenaTaskFile): void {
  const groups = new Map<string, HTMLOptGroupElement>();
  for (const t of f.tasks) {
    let g = groups.get(t.family);
    if (!g) {
      g = el('optgroup', { label: t.family });
      groups.set(t.family, g);
      picker.append(g);
    }
    g.append(el('option', { value: t.id }, `${t.id} (${t.difficulty})`));
  }
}

async function choose(id: string): Promise<void> {
  if (!file || !tw) throw new Error('the arena is still loading');
  const task = file.tasks.find((t) => t.id === id);
  if (!task) throw new Error(`no task '${id}' in suite ${file.suite}`);
  picker.value = id;
  episode = new ArenaEpisode(tw.world, task, tw.names);
  thinkMs = 0;
  shownAt = lastActionAt = performance.now();
  answerInput.value = '';
  instructionBox.textContent = task.instruction;
  showObservation();
  showMap();
  setStatus(`${task.id}: ${task.family}, ${task.difficulty}`);
  const url = new URL(location.href);
  url.searchParams.set('task', id);
  history.replaceState(null, '', url);
  void showReference(task);
  await requestView();
}

function currentRecord(): HumanRecord | null {
  return episode?.outcome ? humanRecord(episode, thinkMs) : null;
}

const handle: ArenaHandle = {
  ready: Promise.resolve(),
  error: null,
  state: () => {
    const obs = episode?.observation();
    return {
      taskId: episode?.task.id ?? null, step: obs?.step ?? 0, stepsLeft: obs?.stepsLeft ?? 0, status: episode?.outcome?.status ?? null,
      score: episode?.outcome?.score ?? null, viewYawDeg: obs?.viewYawDeg ?? 0, pitchDeg: obs?.pitchDeg ?? 0, renders, rendering: queued > 0 || pendingPose !== null,
    };
  },
  choose,
  act,
  record: currentRecord,
  idle: () => (queued === 0 && !pendingPose ? Promise.resolve() : new Promise((r) => idleWaiters.push(r))),
};
(window as unknown as { curbsideArena: ArenaHandle }).curbsideArena = handle;

// --- wiring ----------------------------------------------------------------------------------------

const typing = (t: EventTarget | null) => t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement;
window.addEventListener('keydown', (e) => {
  if (typing(e.target) || !episode) return;
  if (e.code === 'Enter' && !e.ctrlKey && !e.altKey && !e.metaKey) {
    if (!episode.outcome) {
      e.preventDefault();
      answerInput.focus();
    }
    return;
  }
  const action = keyAction(e);
  if (!action) return;
  e.preventDefault();
  if (!e.repeat) act(action);
});
answerInput.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') answer();
  else if (e.key === 'Escape') answerInput.blur();
});
answerButton.onclick = answer;
picker.onchange = () => {
  picker.blur();
  choose(picker.value).catch(fail);
};
restartButton.onclick = () => {
  restartButton.blur();
  if (episode) choose(episode.task.id).catch(fail);
};
downloadButton.onclick = () => {
  const r = currentRecord();
  if (r) download(new Blob([recordLine(r)], { type: 'application/json' }), `${file?.suite ?? 'arena'}-${r.task}-human.json`);
};
mapCanvas.onclick = () => mapCanvas.classList.toggle('large');

/** Loads the suite, the world and the renderer, then the first task. */
async function load(): Promise<void> {
  const suiteUrl = PAGE_SUITES[suiteName];
  if (!suiteUrl) throw new Error(`?suite=${suiteName}: not a suite of this page (${Object.keys(PAGE_SUITES).join(', ')})`);
  suitePicker.value = suiteName;
  suitePicker.onchange = () => {
    const u = new URL(location.href);
    u.searchParams.set('suite', suitePicker.value);
    u.searchParams.delete('task');
    location.href = u.toString();
  };
  setStatus('loading the suite…');
  const path = `scenes/arena/${suiteName}.json`;
  const res = await fetch(suiteUrl);
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  file = parseTaskFile(path, await res.text());
  fillPicker(file);
  const ref = file.world;
  if (ref.kind === 'osm') await pageRealPlace(ref, path, setStatus);
  else setStatus(`generating ${taskWorldLabel(ref)}…`);
  await new Promise((r) => setTimeout(r, 0));
  tw = taskWorld(taskFileWorld(ref));
  viewCanvas.width = viewSize.width;
  viewCanvas.height = viewSize.height;
  try {
    const acquired = await acquireDevice();
    acquired.lost.then((m) => fail(new Error(`GPU device lost: ${m}`)));
    renderer = await ArenaViewRenderer.create(acquired, tw.world, viewSize);
  } catch (e) {
    if (!(e instanceof GpuUnavailableError)) throw e;
    const u = $('unsupported');
    u.replaceChildren(el('h2', {}, 'No first-person view: WebGPU is unavailable'), el('p', { id: 'unsupported-reason' }, e.message), el('p', {}, 'The map, the text and the answer still work.'));
    u.hidden = false;
  }
  const wanted = params.get('task');
  await choose(wanted && file.tasks.some((t) => t.id === wanted) ? wanted : file.tasks[0].id);
  const credit = file.attribution ? ` Map data ${file.attribution}` : '';
  setStatus(`${file.suite}: ${file.tasks.length} tasks in ${taskWorldLabel(file.world)}. Pick one, play with the keys, type your answer.${credit}`);
}

handle.ready = load().catch((e) => {
  fail(e);
  throw e;
});
handle.ready.catch(() => undefined); // reported in the banner and `error`; a script awaiting `ready` sees it reject
