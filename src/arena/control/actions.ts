/**
 * UrbanGround's action vocabulary (`docs/CONTROLS_AND_API.md` of `UrbanGround/UrbanGround`, "First-person
 * actions", "Map actions" and "Environment actions"; their released client limits moves to 0.05–2 s) as typed actions,
 * validated with zod (a bad action names its field), and the map view those actions drive: a
 * north-up top-down map with a focus point, a span and a selected point. The control session
 * (session.ts) executes them and the HTTP server (http.ts) serves them; the free walker
 * (free-walker.ts) executes the first-person ones.
 */
import { z } from 'zod';
import type { Vec2 } from '../../world/geometry';
import { type FreeWalker, MAX_MOVE_SECONDS, type BodyDisc, type MoveResult, SUBSTEP } from '../free-walker';

const seconds = z.number().min(0.05).max(MAX_MOVE_SECONDS);
const dir = z.enum(['forward', 'backward', 'left', 'right']);
/** Degrees per second of turning during a move (positive: right / up). */
const rate = z.number().min(-720).max(720);
const none = <T extends string>(name: T) => z.object({ action: z.literal(name) });

/** UrbanGround's weathers (`set_weather`). */
export const URBANGROUND_WEATHERS = ['sunny', 'partly_cloudy', 'cloudy', 'overcast', 'rainy', 'thunderstorm'] as const;

const UrbanGroundActionSchema = z.discriminatedUnion('action', [
  /** Optional turning while moving (`yaw_rate`, `pitch_rate`, degrees per second) and a jump (at `jump_at` seconds). */
  z.object({ action: z.literal('move'), dir, seconds, yaw_rate: rate.optional(), pitch_rate: rate.optional(), jump: z.boolean().optional(), jump_at: z.number().min(0).max(MAX_MOVE_SECONDS).optional() }),
  z.object({ action: z.literal('sprint'), dir, seconds, yaw_rate: rate.optional(), pitch_rate: rate.optional(), jump: z.boolean().optional(), jump_at: z.number().min(0).max(MAX_MOVE_SECONDS).optional() }),
  /** Degrees: positive yaw turns right, positive pitch looks up. */
  z.object({ action: z.literal('look'), yaw: z.number().min(-360).max(360).default(0), pitch: z.number().min(-180).max(180).default(0) }),
  none('jump'),
  none('open_map'),
  none('close_map'),
  /** Degrees; Curbside's map stays north-up and top-down (accepted, reported, not applied). */
  z.object({ action: z.literal('map_orbit'), yaw: z.number().min(-360).max(360).default(0), pitch: z.number().min(-180).max(180).default(0) }),
  /** Metres east and north. */
  z.object({ action: z.literal('map_pan'), east: z.number().min(-5000).max(5000).default(0), north: z.number().min(-5000).max(5000).default(0) }),
  /** Below 1 closer, above 1 farther. */
  z.object({ action: z.literal('map_zoom'), factor: z.number().positive().max(100) }),
  /** Normalised screen coordinates, y = 0 at the top. */
  z.object({ action: z.literal('map_select'), x: z.number().min(0).max(1), y: z.number().min(0).max(1) }),
  none('identify_location'),
  none('navigate'),
  none('clear_route'),
  none('map_teleport'),
  /** WGS84 degrees; `height` (or `alt`) is accepted and ignored: the avatar stands on the ground. */
  z.object({ action: z.literal('teleport'), lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180), height: z.number().optional(), alt: z.number().optional() }),
  none('show_network'),
  none('hide_network'),
  none('toggle_network'),
  none('where_am_i'),
  z.object({ action: z.literal('set_weather'), weather: z.enum(URBANGROUND_WEATHERS) }),
  z.object({ action: z.literal('set_time'), hour: z.number().int().min(0).max(23), minute: z.number().int().min(0).max(59).default(0) }),
  z.object({ action: z.literal('set_time_scale'), factor: z.number().min(0).max(1000) }),
  none('enable_pedestrians'),
  none('disable_pedestrians'),
  z.object({ action: z.literal('enter_task'), id: z.string().min(1).max(200) }),
  none('exit_task'),
  /** The runner's stop signal (not sent to `POST /action`). */
  z.object({ action: z.literal('terminate'), answer: z.string().optional() }),
]);

/** An UrbanGround action (see the module comment). */
export type UrbanGroundAction = z.infer<typeof UrbanGroundActionSchema>;

/** Every action name, in the order of the API document. */
export const URBANGROUND_ACTIONS: readonly string[] = UrbanGroundActionSchema.options.map((o) => o.shape.action.value);

/**
 * Parses an action object.
 *
 * @param o `runner: false` for the HTTP API, where `terminate` is not an action.
 * @returns the action, or the first problem as `field: message` naming the allowed values (e.g.
 * `seconds: Too big: expected number to be <=2`, `action: unknown action "fly" (expected one of move, sprint, …)`).
 */
export function parseUrbanGroundAction(json: unknown, o: { runner?: boolean } = {}): { ok: true; action: UrbanGroundAction } | { ok: false; error: string } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, error: 'body: expected a JSON object such as {"action":"move","dir":"forward","seconds":0.8}' };
  const name = (json as { action?: unknown }).action;
  // `terminate` is the runner's signal (an agent's), not an API action.
  const allowed = o.runner === false ? URBANGROUND_ACTIONS.filter((a) => a !== 'terminate') : URBANGROUND_ACTIONS;
  if (typeof name !== 'string' || !allowed.includes(name)) {
    const why = name === 'terminate' ? 'terminate is handled by the agent runner, not sent to POST /action' : name === undefined ? 'missing' : `unknown action ${JSON.stringify(name).slice(0, 60)}`;
    return { ok: false, error: `action: ${why} (expected one of ${allowed.join(', ')})` };
  }
  const r = UrbanGroundActionSchema.safeParse(json);
  if (r.success) return { ok: true, action: r.data };
  const i = r.error.issues[0];
  return { ok: false, error: `${i.path.length ? i.path.join('.') : 'action'}: ${i.message}` };
}

/** Span limits of the map view (half the side shown), metres. */
export const MAP_HALF_SPAN_MIN = 25;
export const MAP_HALF_SPAN_MAX = 2000;

/** The map view: open or not, its focus (metres), half the side it shows (metres), the selected point. */
export interface MapViewState {
  open: boolean;
  centre: Vec2;
  halfSpan: number;
  selected: Vec2 | null;
}

/** A closed map view focused on `at`, showing 200 m. */
export function initialMapView(at: Vec2): MapViewState {
  return { open: false, centre: [at[0], at[1]], halfSpan: 100, selected: null };
}

/**
 * Applies a map action to the view (open_map focuses the map on the avatar). Map actions other than
 * open_map need the map open.
 *
 * @returns the new view, or an error line (`map_pan: the map is not open`).
 */
export function applyMapAction(view: MapViewState, a: UrbanGroundAction, avatar: Vec2): { ok: true; view: MapViewState } | { ok: false; error: string } {
  switch (a.action) {
    case 'open_map': return { ok: true, view: { ...view, open: true, centre: [avatar[0], avatar[1]] } };
    case 'close_map': return { ok: true, view: { ...view, open: false } };
    case 'map_pan':
    case 'map_zoom':
    case 'map_select':
      if (!view.open) return { ok: false, error: `${a.action}: the map is not open (open_map first)` };
      if (a.action === 'map_pan') return { ok: true, view: { ...view, centre: [view.centre[0] + a.east, view.centre[1] + a.north] } };
      if (a.action === 'map_zoom') return { ok: true, view: { ...view, halfSpan: Math.min(MAP_HALF_SPAN_MAX, Math.max(MAP_HALF_SPAN_MIN, view.halfSpan * a.factor)) } };
      return { ok: true, view: { ...view, selected: [view.centre[0] + (2 * a.x - 1) * view.halfSpan, view.centre[1] + (1 - 2 * a.y) * view.halfSpan] } };
    default:
      return { ok: false, error: `${a.action}: not a map action` };
  }
}

/** A `move` or `sprint` action. */
export type MoveAction = Extract<UrbanGroundAction, { action: 'move' | 'sprint' }>;

/**
 * Walks (or sprints) the avatar for `a.seconds` among `pedestrians` (held where they are), turning
 * by `yaw_rate`/`pitch_rate` (degrees per second) in step with the motion when given.
 *
 * @returns the distance moved (metres) and what stopped it first, or null.
 * @throws RangeError for a duration outside the walker's range.
 */
export function moveAvatar(walker: FreeWalker, a: MoveAction, pedestrians: readonly BodyDisc[] = []): { distance: number; blockedBy: MoveResult['blockedBy'] } {
  const sprint = a.action === 'sprint';
  const turning = (a.yaw_rate ?? 0) !== 0 || (a.pitch_rate ?? 0) !== 0;
  if (!turning) {
    const { distance, blockedBy } = walker.move(a.dir, a.seconds, sprint, pedestrians);
    return { distance, blockedBy };
  }
  // Turn while moving: one integration step of motion, then that step's share of the turn.
  let distance = 0;
  let blockedBy: MoveResult['blockedBy'] = null;
  const steps = Math.round(a.seconds / SUBSTEP);
  for (let k = 0; k < steps; k++) {
    const dt = k === steps - 1 ? a.seconds - SUBSTEP * (steps - 1) : SUBSTEP;
    const r = walker.move(a.dir, dt, sprint, pedestrians);
    distance += r.distance;
    blockedBy ??= r.blockedBy;
    walker.look((a.yaw_rate ?? 0) * dt, (a.pitch_rate ?? 0) * dt);
  }
  return { distance, blockedBy };
}

/** The one-line label of a move (UrbanGround's `action` field), e.g. `move: forward for 0.8s (stopped by a prop after 0.35 m)`; `distance` in metres. */
export function moveLabel(a: MoveAction, distance: number, blockedBy: MoveResult['blockedBy']): string {
  const turning = (a.yaw_rate ?? 0) !== 0 || (a.pitch_rate ?? 0) !== 0;
  const turn = turning ? `, turning ${a.yaw_rate ?? 0}°/s` : '';
  return `${a.action}: ${a.dir} for ${a.seconds}s${turn}${blockedBy ? ` (stopped by a ${blockedBy} after ${distance.toFixed(2)} m)` : ''}`;
}

/**
 * Executes a first-person action on the avatar (`move`, `sprint`, `look`).
 *
 * @returns a one-line label of what was done (UrbanGround's `action` field), e.g. `move: forward for 0.8s`.
 * @throws RangeError for an action that is not first-person.
 */
export function applyFirstPersonAction(walker: FreeWalker, a: UrbanGroundAction, pedestrians: readonly BodyDisc[] = []): string {
  switch (a.action) {
    case 'move':
    case 'sprint': {
      const { distance, blockedBy } = moveAvatar(walker, a, pedestrians);
      return moveLabel(a, distance, blockedBy);
    }
    case 'look':
      walker.look(a.yaw, a.pitch);
      return `look: yaw ${a.yaw}°, pitch ${a.pitch}°`;
    default:
      throw new RangeError(`${a.action}: not a first-person action`);
  }
}
