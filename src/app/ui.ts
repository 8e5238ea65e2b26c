/**
 * The demo's control panel: builds the DOM controls once and exposes them to main.ts. DOM only;
 * no simulation or GPU code.
 */
import { WEATHERS } from '../world/conditions';
import { BEHAVIOURS } from '../sim/scenario';
import { CAMERA_MODES } from './cameras';
import { POLICY_KINDS, POLICY_LABELS } from './policies';
import { SUITE_NAMES } from './scenarios';
import { ROBOT_NAMES } from '../robot/embodiments';

/** The panel's controls. */
export interface Panel {
  suite: HTMLSelectElement;
  behaviour: HTMLSelectElement;
  scenario: HTMLSelectElement;
  walkers: HTMLInputElement;
  seed: HTMLInputElement;
  /** The embodiment (robot/embodiments.ts: ROBOT_NAMES); the page's `?robot=` parameter. */
  robot: HTMLSelectElement;
  policy: HTMLSelectElement;
  /** One line about dropped policy files (a manifest waiting for its model, the model loaded). */
  policyInfo: HTMLDivElement;
  camera: HTMLSelectElement;
  bodies: HTMLInputElement;
  hour: HTMLInputElement;
  hourLabel: HTMLSpanElement;
  /** Weather of the main view (src/world/conditions.ts: WEATHERS). */
  weather: HTMLSelectElement;
  speed: HTMLSelectElement;
  restart: HTMLButtonElement;
  pause: HTMLButtonElement;
  replay: HTMLButtonElement;
  saveEpisode: HTMLButtonElement;
  saveScenario: HTMLButtonElement;
  copyLink: HTMLButtonElement;
  screenshot: HTMLButtonElement;
  video: HTMLButtonElement;
  openFile: HTMLInputElement;
}

/** A new element with attributes and optional text content. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function select(options: readonly string[], id: string, labels: Record<string, string> = {}): HTMLSelectElement {
  const s = el('select', { id });
  for (const o of options) s.append(el('option', { value: o }, labels[o] ?? o));
  return s;
}

/** Adds (or relabels) the picker option `value` and selects it. */
export function setOption(s: HTMLSelectElement, value: string, label: string): void {
  let o = [...s.options].find((x) => x.value === value);
  if (!o) {
    o = el('option', { value });
    s.append(o);
  }
  o.textContent = label;
  s.value = value;
}

function labelled(text: string, control: HTMLElement): HTMLLabelElement {
  const l = el('label', {}, text);
  l.append(control);
  return l;
}

/** Fills the scenario list (value = scenario id). */
export function setScenarioOptions(s: HTMLSelectElement, ids: readonly string[], selected?: string): void {
  s.replaceChildren(...ids.map((id) => el('option', { value: id }, id)));
  if (selected && ids.includes(selected)) s.value = selected;
}

/** Builds the panel inside `root`. */
export function buildPanel(root: HTMLElement): Panel {
  const p: Panel = {
    suite: select(['city', ...SUITE_NAMES, 'dropped'], 'suite'),
    behaviour: select(['any', ...BEHAVIOURS], 'behaviour'),
    scenario: select([], 'scenario'),
    walkers: el('input', { id: 'walkers', type: 'number', min: '0', max: '500', step: '1', value: '10' }),
    seed: el('input', { id: 'seed', type: 'number', min: '0', step: '1', value: '' }),
    robot: select(ROBOT_NAMES, 'robot', { wheeled: 'wheeled (delivery robot)', dog: 'dog (quadruped)', humanoid: 'humanoid' }),
    policy: select(POLICY_KINDS, 'policy', POLICY_LABELS),
    policyInfo: el('div', { id: 'policy-info', class: 'hint' }),
    camera: select(CAMERA_MODES, 'camera'),
    bodies: el('input', { id: 'bodies', type: 'checkbox' }),
    hour: el('input', { id: 'hour', type: 'range', min: '0', max: '24', step: '0.25', value: '14' }),
    hourLabel: el('span', {}, '14:00'),
    weather: select(WEATHERS, 'weather'),
    speed: select(['1', '2', '4', '0.5'], 'speed'),
    restart: el('button', { id: 'restart' }, 'Restart'),
    pause: el('button', { id: 'pause', class: 'secondary' }, 'Pause'),
    replay: el('button', { id: 'replay', class: 'secondary' }, 'Replay'),
    saveEpisode: el('button', { id: 'save-episode', class: 'secondary' }, 'Save episode'),
    saveScenario: el('button', { id: 'save-scenario', class: 'secondary' }, 'Save scenario'),
    copyLink: el('button', { id: 'copy-link', class: 'secondary' }, 'Link'),
    screenshot: el('button', { id: 'screenshot', class: 'secondary' }, 'Screenshot'),
    video: el('button', { id: 'video', class: 'secondary' }, 'Record video'),
    openFile: el('input', { id: 'open-file', type: 'file', multiple: '', accept: '.json,.onnx,.ply,.splat,.spz,.glb,.gltf,.bin' }),
  };
  p.bodies.checked = true;
  p.seed.placeholder = 'scenario seed';
  const hourRow = labelled('Time of day ', p.hour);
  hourRow.firstChild!.after(p.hourLabel);
  root.append(
    el('h1', {}, 'Curbside'),
    el('h2', {}, 'Scenario'),
    labelled('Suite', p.suite),
    labelled('Behaviour', p.behaviour),
    labelled('Scenario', p.scenario),
    labelled('Ambient walkers', p.walkers),
    labelled('Seed', p.seed),
    el('h2', {}, 'Robot'),
    labelled('Embodiment', p.robot),
    labelled('Policy', p.policy),
    p.policyInfo,
    el('div', { class: 'hint' }, 'Teleop: W/↑ drive, A/← D/→ turn, S/↓ stop. ONNX: drop model.onnx with its model.json.'),
    el('h2', {}, 'View'),
    labelled('Camera', p.camera),
    el('div', { class: 'hint' }, 'Orbit: drag to rotate, wheel to zoom. C cycles cameras.'),
    labelled('Skinned pedestrians ', p.bodies),
    hourRow,
    labelled('Weather', p.weather),
    labelled('Sim speed', p.speed),
    el('h2', {}, 'Episode'),
    p.restart, p.pause, p.replay,
    el('div'),
    p.saveEpisode, p.saveScenario, p.copyLink,
    el('h2', {}, 'Capture'),
    p.screenshot, p.video,
    el('h2', {}, 'Files'),
    p.openFile,
    el('div', { class: 'hint' }, 'Or drop a scenario / suite / episode .json, a splat .ply/.splat/.spz/.glb/.gltf (with its .bin files), or an ONNX policy (.onnx + its .json manifest, together or manifest first) onto the view.'),
    el('h2', {}, 'Your own street'),
  );
  const edit = el('a', { id: 'edit-scene', href: '/editor.html' }, 'edit scene');
  edit.style.color = '#7fb0ff';
  root.append(edit, el('div', { class: 'hint' }, 'Level a capture, draw its sidewalks, crosswalks and obstacles, save scenes/NAME.json.'));
  const arena = el('a', { id: 'arena-link', href: '/arena.html' }, 'arena');
  arena.style.color = '#7fb0ff';
  root.append(arena, el('div', { class: 'hint' }, 'Play an agent task of the cityarena suite yourself: see what agents see, answer, download the scored record.'));
  return p;
}

/** Shows an error banner with a dismiss button (the page keeps working). */
export function showBanner(message: string): void {
  const b = document.getElementById('banner')!;
  const close = el('button', {}, 'dismiss');
  close.onclick = () => (b.hidden = true);
  b.replaceChildren(close, document.createTextNode(message));
  b.hidden = false;
}

/** Replaces the 3D view with what is missing and how to enable it. */
export function showUnsupported(message: string): void {
  const u = document.getElementById('unsupported')!;
  const help = el('p');
  help.innerHTML =
    'Chrome/Chromium 113+ has WebGPU on by default (served over https or localhost). On Linux start it with ' +
    '<code>--enable-unsafe-webgpu --enable-features=Vulkan</code>; without a GPU add ' +
    '<code>--use-webgpu-adapter=swiftshader --use-angle=swiftshader --enable-unsafe-swiftshader</code>. ' +
    'chrome://gpu shows what this browser supports.';
  u.replaceChildren(el('h2', {}, 'WebGPU is needed for the Curbside demo'), el('p', { id: 'unsupported-reason' }, message), help);
  u.hidden = false;
}
