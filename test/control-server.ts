/**
 * What the control API's tests share (src/arena/control/http*.test.ts): a generated world with two
 * tasks, a control session on it, real images (the world map around the avatar, rendered on the CPU
 * and encoded as the request asks), a server on a free port recording its task ends, and `call`.
 */
import { expect } from 'vitest';
import jpeg from 'jpeg-js';
import { generateWorld } from '../src/world/world';
import { worldInventory } from '../src/world/inventory';
import { DEFAULT_GEOREFERENCE } from '../src/world/georef';
import { renderWorldMap } from '../src/world/map-render';
import { encodeImage } from '../src/cli/arena-serve-images';
import { type ControlImages, ControlServer, type ControlServerOptions, type ControlTaskRecord, type ScreenshotRequest } from '../src/arena/control/http';
import { ControlSession, type ControlTask } from '../src/arena/control/session';

export const world = generateWorld({ seed: 1, size: 400 });
export const inventory = worldInventory(world);
export const nodes = world.nav.nodes;

/** Two tasks at the first navigation nodes, each facing its next node; the second with a goal. */
export const TASKS: ControlTask[] = [0, 40].map((n, k) => ({
  id: k === 0 ? 'walk-a' : 'walk-b',
  type: k === 0 ? null : 0,
  typeName: k === 0 ? 'vln' : 'ShortNav',
  start: { position: [nodes[n][0], nodes[n][1]], yaw: Math.atan2(nodes[n + 1][1] - nodes[n][1], nodes[n + 1][0] - nodes[n][0]) },
  endPoints: k === 0 ? [] : [{ label: 'Goal', position: [nodes[n + 10][0], nodes[n + 10][1]] }],
  closures: k === 0 ? [] : [{ label: 'closed sidewalk', line: [[nodes[n + 5][0], nodes[n + 5][1]], [nodes[n + 5][0] + 3, nodes[n + 5][1]]] }],
  restrictedZones: k,
  conditions: null,
  document: { id: k === 0 ? 'walk-a' : 'walk-b', note: 'test task' },
}));

export const newSession = () => new ControlSession(world, inventory, DEFAULT_GEOREFERENCE, new Map(TASKS.map((t) => [t.id, t])));

/** The map around the avatar (the map view's focus and span while it is open), as asked. */
export const mapImages: ControlImages = {
  async screenshot(session, r) {
    const { view, route } = session.mapView;
    const [cx, cy] = view.open ? view.centre : session.position;
    const half = view.open ? view.halfSpan : 40;
    const img = renderWorldMap(session.world, { widthPx: r.width, heightPx: r.height, bounds: [cx - half, cy - half, cx + half, cy + half], agents: [{ position: session.position, yaw: session.cameraPose(1.6).yaw, radius: 3 }], ...(route ? { route } : {}) });
    return encodeImage(img, r.format, r.quality);
  },
};

/** A flat grey 16×16 image in the asked format: images that cost nothing, for tests of the protocol. */
export const flatImage = (r: ScreenshotRequest): Uint8Array => encodeImage({ width: 16, height: 16, data: new Uint8ClampedArray(16 * 16 * 4).fill(200) }, r.format, r.quality);

export const W = 64;
export const H = 48;

export async function startServer(extra: Partial<ControlServerOptions> = {}): Promise<{ server: ControlServer; session: ControlSession; records: ControlTaskRecord[] }> {
  const session = newSession();
  const records: ControlTaskRecord[] = [];
  const server = await ControlServer.start({ session, images: mapImages, port: 0, width: W, height: H, onTaskEnd: (r) => records.push(JSON.parse(JSON.stringify(r))), ...extra });
  return { server, session, records };
}

/** fetch, with the JSON body read (or the bytes for an image). */
export async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; type: string; json: Record<string, unknown>; bytes: Buffer }> {
  const res = await fetch(`${base}${path}`, { method, headers: { 'X-Curbside-Driver': 'tester', ...headers }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, type, json: type === 'application/json' ? JSON.parse(bytes.toString('utf8')) : {}, bytes };
}

export const decodeJpeg = (b: Buffer) => jpeg.decode(b, { useTArray: true });
export const dataUrlJpeg = (url: unknown) => {
  expect(url).toMatch(/^data:image\/jpeg;base64,[A-Za-z0-9+/]+=*$/);
  return decodeJpeg(Buffer.from((url as string).slice('data:image/jpeg;base64,'.length), 'base64'));
};
