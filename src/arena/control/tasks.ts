/**
 * Tasks the control API can enter: Curbside's own arena tasks (by their ids) and UrbanGround task
 * files (`task/<ID>.json` in their schema, `AgentEvaluation/tasks/base.py` of `UrbanGround/UrbanGround`:
 * a plain object, or one wrapped as `{"task": {…}}`, with `id`, numeric `type`, WGS84 points
 * `{lat, lon, height, yaw, label}` and the fields of its kind). Both become a {@link ControlTask}:
 * a start on the world's ground, labelled end points and the closure count.
 *
 * UrbanGround's id prefixes and numeric types (their `registry.py`): LQ 7 landmark QA, OQ 8
 * orientation QA, SQ 9 spatial (active-exploration) QA, SN 0 short navigation, LN 2 long
 * navigation, IN 10 instruction navigation, CN 11 constrained navigation, II 12 implicit intent,
 * DCR 12 dynamic closure replanning, SF 5 time-window scheduling, MP 13 multi-stop routes, PS 3
 * place search, PL 2 long navigation among pedestrians.
 */
import { parseJsonFile } from '../../core/json-file';
import { z } from 'zod';
import type { Vec2 } from '../../world/geometry';
import type { World } from '../../world/world';
import { type Georeference, geodeticToWorld, headingToYaw, worldToGeodetic, yawToHeading } from '../../world/georef';
import { groundHeight } from '../../world/queries';
import { DEFAULT_CONDITIONS } from '../../world/conditions';
import { navIndex } from '../../world/nav-index';
import { navDistances } from '../network';
import { UserError } from '../../core/user-error';
import { type ArenaTask, isUrbanGroundFamily, TaskWorldSchema, URBANGROUND_FAMILY_KIND } from '../task';
import type { ControlTask } from './session';

/** What `arena:export` writes beside the task files (`curbside.json`): the world and georeference they were made in. */
const ExportManifestSchema = z.object({
  format: z.literal('curbside-urbanground-export'),
  version: z.literal(1),
  world: TaskWorldSchema,
  georeference: z.object({ lat: z.number(), lon: z.number(), height: z.number() }),
  suite: z.string().min(1),
});
export type ExportManifest = z.infer<typeof ExportManifestSchema>;

/**
 * Parses an export manifest's text.
 *
 * @throws UrbanGroundTaskError naming `source` and the first failing field.
 */
export function parseExportManifest(source: string, text: string): ExportManifest {
  return parseJsonFile(ExportManifestSchema, source, text, (m) => new UrbanGroundTaskError(m), 'not an arena:export manifest');
}

/** UrbanGround's task kinds: id prefix → numeric type and type name. */
export const URBANGROUND_TYPES: Readonly<Record<string, { type: number; name: string }>> = {
  LQ: { type: 7, name: 'LandmarkQA' },
  OQ: { type: 8, name: 'OrientationQA' },
  SQ: { type: 9, name: 'SpatialQA' },
  SN: { type: 0, name: 'ShortNav' },
  LN: { type: 2, name: 'LongNav' },
  IN: { type: 10, name: 'InstructionNav' },
  CN: { type: 11, name: 'ConstrainedNav' },
  II: { type: 12, name: 'ImplicitIntentNav' },
  DCR: { type: 12, name: 'DynamicClosureNav' },
  SF: { type: 5, name: 'ScheduleWindowNav' },
  MP: { type: 13, name: 'MultipointNav' },
  PS: { type: 3, name: 'PlaceSearch' },
  PL: { type: 2, name: 'PedestrianLongNav' },
};

/** A task file that is not a valid UrbanGround task: names the file and the field. */
export class UrbanGroundTaskError extends UserError {}

const GeoPointSchema = z.object({
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  height: z.number().optional(),
  /** Compass heading, degrees. */
  yaw: z.number().optional(),
  label: z.string().optional(),
}).passthrough();

/** The fields Curbside reads; the rest of the document is kept as it is. */
export const UrbanGroundTaskSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.number().int(),
  description: z.string().optional(),
  startPoint: GeoPointSchema.optional(),
  endPoint: GeoPointSchema.optional(),
  qaStartPoint: GeoPointSchema.optional(),
  exploreStart: GeoPointSchema.optional(),
  scheduleStart: GeoPointSchema.optional(),
  multiRouteStart: GeoPointSchema.optional(),
  searchOrigin: GeoPointSchema.optional(),
  qaOptions: z.array(z.object({ text: z.string().min(1) }).passthrough()).length(4).optional(),
  qaAnswerIndex: z.number().int().min(0).max(3).optional(),
  restrictedZones: z.array(z.object({ label: z.string().optional(), vertices: z.array(z.object({ lat: z.number(), lon: z.number() }).passthrough()).min(2) }).passthrough()).optional(),
  schedule: z.array(z.object({ target: GeoPointSchema }).passthrough()).optional(),
  multiRouteTargets: z.array(z.object({ point: GeoPointSchema }).passthrough()).optional(),
}).passthrough();

/** An UrbanGround task document (the fields Curbside reads; others kept). */
export type UrbanGroundTask = z.infer<typeof UrbanGroundTaskSchema>;

const START_FIELDS = ['startPoint', 'qaStartPoint', 'exploreStart', 'scheduleStart', 'multiRouteStart', 'searchOrigin'] as const;

/** Whether a point is set: UrbanGround's editor writes `{lat: 0, lon: 0}` placeholders for unused `startPoint`/`endPoint` (their `base.py`). */
const isSet = (p: { lat: number; lon: number } | undefined): boolean => !!p && (Math.abs(p.lat) > 1e-12 || Math.abs(p.lon) > 1e-12);

/**
 * Parses an UrbanGround task file's text.
 *
 * @throws UrbanGroundTaskError naming `file` and the field (bad JSON, a missing id or start point, a point out of range).
 */
export function parseUrbanGroundTask(file: string, text: string): UrbanGroundTask {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UrbanGroundTaskError(`${file}: not JSON (${(e as Error).message})`);
  }
  if (json && typeof json === 'object' && 'task' in json && typeof (json as { task: unknown }).task === 'object') json = (json as { task: unknown }).task;
  const r = UrbanGroundTaskSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new UrbanGroundTaskError(`${file}: ${i.path.join('.') || 'task'}: ${i.message}`);
  }
  if (!START_FIELDS.some((f) => isSet(r.data[f]))) throw new UrbanGroundTaskError(`${file}: no start point (expected one of ${START_FIELDS.join(', ')})`);
  return r.data;
}

/** The kind of an UrbanGround id (its prefix before the first `-`), or null for an unknown prefix. */
export function urbanGroundKind(id: string): { prefix: string; type: number; name: string } | null {
  const prefix = id.split('-')[0];
  const k = URBANGROUND_TYPES[prefix];
  return k ? { prefix, ...k } : null;
}

/**
 * The control task of an UrbanGround task document, placed in the world by `georef`.
 *
 * @throws UrbanGroundTaskError naming `file` when the start lies outside the world.
 */
export function controlTaskFromUrbanGround(world: World, georef: Georeference, doc: UrbanGroundTask, file: string): ControlTask {
  const toWorld = (p: { lat: number; lon: number; height?: number }): Vec2 => {
    const q = geodeticToWorld(georef, { lat: p.lat, lon: p.lon, height: p.height ?? georef.height });
    return [q[0], q[1]];
  };
  const startField = START_FIELDS.find((f) => isSet(doc[f])) as (typeof START_FIELDS)[number];
  const start = doc[startField] as NonNullable<UrbanGroundTask['startPoint']>;
  const position = toWorld(start);
  const b = world.bounds;
  if (!(position[0] >= b[0] && position[0] <= b[2] && position[1] >= b[1] && position[1] <= b[3])) {
    throw new UrbanGroundTaskError(`${file}: ${startField} ${start.lat}, ${start.lon} lies ${Math.round(Math.hypot(position[0], position[1]))} m from the world's origin, outside the world (is the georeference the one the tasks were made with?)`);
  }
  const ends: { label: string; position: Vec2 }[] = [];
  if (doc.endPoint && isSet(doc.endPoint)) ends.push({ label: doc.endPoint.label ?? 'Destination', position: toWorld(doc.endPoint) });
  for (const [k, s] of (doc.schedule ?? []).entries()) ends.push({ label: s.target.label ?? `Appointment ${k + 1}`, position: toWorld(s.target) });
  for (const [k, m] of (doc.multiRouteTargets ?? []).entries()) ends.push({ label: m.point.label ?? `Stop ${k + 1}`, position: toWorld(m.point) });
  const kind = urbanGroundKind(doc.id);
  const closures = (doc.restrictedZones ?? []).map((z, k) => ({ label: z.label ?? `closure ${k + 1}`, line: z.vertices.map((v) => toWorld(v)) }));
  // A schedule's clock starts at the time its description states ("It is now 11:00"), as their evaluator sets it.
  const now = doc.type === 5 ? /It is now (\d{1,2}):(\d\d)/.exec(doc.description ?? '') : null;
  const conditions = now ? { ...DEFAULT_CONDITIONS, time: `${now[1].padStart(2, '0')}:${now[2]}` } : null;
  return {
    id: doc.id, type: doc.type, typeName: kind?.name ?? `type ${doc.type}`,
    start: { position, yaw: headingToYaw(start.yaw ?? 0) },
    endPoints: ends, closures, restrictedZones: closures.length, conditions, document: doc,
  };
}

/**
 * The end points `/task` lists for an arena task: the goal of a coordinate or arrival task, the stops
 * of a schedule or multi-stop route; none for questions and searches (UrbanGround's place search
 * and implicit intent name no target).
 */
function arenaEndPoints(task: ArenaTask): { label: string; position: Vec2 }[] {
  const t = task.truth;
  if (t.scoring === 'coordinate_match') return task.map?.goal ? [{ label: 'Goal', position: t.goal }] : [];
  if (t.scoring === 'arrival') return [{ label: t.label, position: t.goal }];
  if (t.scoring === 'schedule' || t.scoring === 'multi_stop') return t.stops.map((s) => ({ label: s.label, position: s.goal }));
  return [];
}

/** The control task of an arena task: its start node facing its first edge, its goal or stops as the end points, its closures (none yet where they are announced later). */
export function controlTaskFromArena(world: World, task: ArenaTask): ControlTask {
  const p = world.nav.nodes[task.start.node];
  const q = world.nav.nodes[task.start.towards];
  return {
    id: task.id, type: null, typeName: task.family,
    start: { position: [p[0], p[1]], yaw: Math.atan2(q[1] - p[1], q[0] - p[0]) },
    endPoints: arenaEndPoints(task),
    // Closures announced later (closure replanning) are not there at the start: the episode adds them at its notice.
    closures: task.closureNotice ? [] : (task.closures ?? []).map((c) => ({ label: c.label, line: c.line.map((p) => [p[0], p[1]] as Vec2) })),
    restrictedZones: task.closureNotice ? 0 : (task.closures?.length ?? 0),
    // A schedule's clock starts at its start time.
    conditions: task.truth.scoring === 'schedule' ? { ...DEFAULT_CONDITIONS, time: task.truth.startTime } : null, document: task,
    ...(task.pedestrians ? { pedestrians: { ...task.pedestrians } } : {}),
  };
}

const r7 = (v: number) => Math.round(v * 1e9) / 1e9;

/** A WGS84 point of UrbanGround's task schema at a ground position (its ellipsoidal ground height) with a compass heading. */
function geoPoint(world: World, georef: Georeference, p: Vec2, headingDeg: number, label: string): { lat: number; lon: number; height: number; yaw: number; label: string } {
  const g = worldToGeodetic(georef, [p[0], p[1], groundHeight(world, p[0], p[1])]);
  return { lat: r7(g.lat), lon: r7(g.lon), height: Math.round(g.height * 100) / 100, yaw: Math.round(headingDeg * 1000) / 1000, label };
}

/** A task's instruction without its leading `[… Task]` tag and `Everyday goal:` (UrbanGround's evaluators write their own header around the description). */
const untagged = (text: string) => text.replace(/^\[[^\]]*Task\]\s*/, '').replace(/^Everyday goal: /, '');
/** UrbanGround's zero placeholder of an unused `startPoint`/`endPoint` (their report code reads both on every kind). */
const PLACEHOLDER = { lat: 0, lon: 0, height: 0, yaw: 0, label: '' };

/**
 * An arena task of a ladder family as an UrbanGround task document (`AgentEvaluation/tasks/` of
 * their repository), with id `PREFIX-<arena id>` (their evaluators route by the prefix) and their
 * numeric `type`; positions in WGS84 by `georef`. Fields per kind: SN, LN, IN, PL `startPoint`/
 * `endPoint` and `description`; CN and DCR also `restrictedZones` (labelled WGS84 polylines; their
 * DCR evaluator announces them 30 s in); LQ, OQ, SQ `qaStartPoint`, `qaOptions`, `qaAnswerIndex`;
 * PS `searchOrigin` and `poiCategory` (no target: they judge the final view); II `exploreStart`,
 * the hidden `endPoint` (the nearest place of the kind) and `poiCategory`; SF `scheduleStart` and
 * `schedule` (ordered `target` points; the times are in the description, which their evaluator
 * parses); MP `multiRouteStart` and `multiRouteTargets` (`point`, `note`). Null for families
 * UrbanGround has no kind for (360CityArena's).
 */
export function urbanGroundDocument(world: World, georef: Georeference, task: ArenaTask): UrbanGroundTask | null {
  if (!isUrbanGroundFamily(task.family)) return null;
  const kind = URBANGROUND_FAMILY_KIND[task.family];
  const ct = controlTaskFromArena(world, task);
  const start = geoPoint(world, georef, ct.start.position, yawToHeading(ct.start.yaw), 'Start');
  const id = `${kind.prefix}-${task.id}`;
  const head = { id, type: kind.type };
  const placeholders = { startPoint: PLACEHOLDER, endPoint: PLACEHOLDER };
  const t = task.truth;
  const point = (p: Vec2, label: string) => geoPoint(world, georef, p, 0, label);
  switch (t.scoring) {
    case 'choice':
      return { ...head, description: untagged(task.instruction), qaStartPoint: start, qaOptions: t.options.map((text) => ({ text })), qaAnswerIndex: t.answer };
    case 'arrival': {
      const zones = (task.closures ?? []).map((c) => ({ label: c.label, vertices: c.line.map((p) => ({ lat: point(p, '').lat, lon: point(p, '').lon })) }));
      return { ...head, description: untagged(task.instruction), startPoint: start, endPoint: point(t.goal, t.label), ...(zones.length ? { restrictedZones: zones } : {}) };
    }
    case 'arrival_any': {
      if (task.family === 'place-search') return { ...head, ...placeholders, description: untagged(task.instruction), searchOrigin: start, poiCategory: t.category };
      // The hidden target: the place of the kind nearest the start along the network (where the oracle goes).
      const d = navDistances(world.nav, task.start.node).dist;
      const idx = navIndex(world.nav);
      const walk = (g: Vec2) => {
        const n = idx.nodesNear(g, 40)[0];
        return n === undefined ? Infinity : d[n] + Math.hypot(g[0] - world.nav.nodes[n][0], g[1] - world.nav.nodes[n][1]);
      };
      const near = t.goals.reduce((a, b) => (walk(b.goal) < walk(a.goal) ? b : a));
      return { ...head, ...placeholders, description: untagged(task.instruction), exploreStart: start, endPoint: point(near.goal, near.label), poiCategory: t.category };
    }
    case 'schedule':
      return { ...head, ...placeholders, description: untagged(task.instruction), scheduleStart: start, schedule: t.stops.map((s) => ({ target: point(s.goal, s.label), due: s.due })) };
    case 'multi_stop':
      return { ...head, ...placeholders, description: untagged(task.instruction), multiRouteStart: start, multiRouteTargets: t.stops.map((s) => ({ kind: 'poi', point: point(s.goal, s.label), note: s.label })) };
    default:
      return null;
  }
}

/**
 * UrbanGround's condition prefixes of the matched variants (their `tasks/condition.py` and the
 * rainy-day evaluators): question variants of LQ/OQ/SQ and short-navigation variants of SN, per
 * Curbside condition. Fog has no UrbanGround condition.
 */
export const URBANGROUND_CONDITION_PREFIXES: Readonly<Record<string, { qa: string; nav: string }>> = {
  dusk: { qa: 'EVQ', nav: 'EVN' },
  night: { qa: 'NTQ', nav: 'NTN' },
  rain: { qa: 'RQ', nav: 'RN' },
};

/**
 * The matched variant of an exported task under `condition` (same place, start and options; the id
 * re-prefixed so their harness sets the condition), or null where UrbanGround has no variant of
 * the kind (only LQ/OQ/SQ questions and SN short navigation have them).
 *
 * @throws RangeError for a condition UrbanGround has no prefix for (fog, day).
 */
export function urbanGroundVariant(doc: UrbanGroundTask, condition: string): UrbanGroundTask | null {
  const p = URBANGROUND_CONDITION_PREFIXES[condition];
  if (!p) throw new RangeError(`condition '${condition}': UrbanGround has variants for ${Object.keys(URBANGROUND_CONDITION_PREFIXES).join(', ')} only`);
  const [prefix, ...rest] = doc.id.split('-');
  const prefixFor = ['LQ', 'OQ', 'SQ'].includes(prefix) ? p.qa : prefix === 'SN' ? p.nav : null;
  return prefixFor ? { ...doc, id: `${prefixFor}-${rest.join('-')}` } : null;
}
