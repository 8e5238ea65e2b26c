/**
 * Street names, addresses and storefront names of a generated world (issue 16, "names and
 * landmarks"): seeded from the world seed's own `names` stream, so the geometry of every world is the
 * same with or without them.
 *
 * A *named street* is a chain of network streets that continue one another through junctions (the
 * way a real avenue runs on through its cross streets): at each junction the two arms whose
 * directions are most nearly opposite, within {@link CONTINUATION_DEG} of straight on, join one name.
 * Addresses follow the usual convention: numbers grow along the named street's polyline, odd on its
 * left, even on its right, about one number per {@link ADDRESS_SPACING} metres of frontage.
 */
import { createRng, type Rng } from '../core/random';
import { boxOf, type Vec2 } from './geometry';
import type { StreetNetwork } from './network';
import type { StaticObject } from './objects';
import type { OsmWorldData } from './osm/world-data';
import { arcLengths, projectOnPolyline } from './polyline';
import { BoxGrid } from './spatial-index';

/** Largest bend, degrees, at which a street carries on through a junction under the same name. */
export const CONTINUATION_DEG = 30;
/** Metres of frontage per address number step (2 per step: one side's numbers are all odd or even). */
export const ADDRESS_SPACING = 6;

const STREET_STEMS = [
  'Alder', 'Ash', 'Aspen', 'Bay', 'Beech', 'Birch', 'Bridge', 'Brook', 'Canal', 'Cedar', 'Chapel', 'Cherry',
  'Church', 'Clay', 'Cliff', 'Copper', 'Dock', 'Elm', 'Ferry', 'Field', 'Fir', 'Forge', 'Garden', 'Granite',
  'Grove', 'Harbor', 'Hawthorn', 'Hazel', 'Hill', 'Holly', 'Juniper', 'Lake', 'Larch', 'Laurel', 'Linden',
  'Maple', 'Market', 'Meadow', 'Mill', 'Mint', 'Myrtle', 'Oak', 'Olive', 'Orchard', 'Park', 'Pearl', 'Pine',
  'Poplar', 'Quarry', 'Railway', 'River', 'Rose', 'Rowan', 'Salt', 'School', 'Silver', 'Spring', 'Spruce',
  'Station', 'Stone', 'Sycamore', 'Tannery', 'Temple', 'Tower', 'Union', 'Vine', 'Walnut', 'Water', 'Willow',
  'Wharf', 'Windmill', 'Yew',
] as const;
const STREET_TYPES = ['Street', 'Avenue', 'Road', 'Lane', 'Way', 'Boulevard', 'Place', 'Drive'] as const;
const NAME_PREFIXES = ['North', 'South', 'East', 'West', 'Upper', 'Lower', 'Old', 'New'] as const;
const SHOP_OWNERS = [
  'Adler', 'Baker', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Hughes', 'Ito', 'Jansen', 'Kowalski',
  'Lopez', 'Moreau', 'Nakamura', 'Okafor', 'Patel', 'Quinn', 'Rossi', 'Silva', 'Tanaka', 'Urban', 'Vega',
  'Weber', 'Xu', 'Young', 'Zimmer',
] as const;
/** Storefront kinds (what the sign says after the owner's name). */
/** Whom the statues honour (inventory.ts names a statue "Statue of …" from its world seed and id). */
export const STATUE_FIGURES = ['Ada Lovelace', 'Jane Jacobs', 'Alan Turing', 'Marie Curie', 'Frederick Douglass', 'Rosa Parks', 'Simon Bolivar', 'Emmeline Pankhurst', 'Walt Whitman', 'Hypatia', 'Ibn Battuta', 'Wangari Maathai'] as const;
export const SHOP_KINDS = ['Bakery', 'Cafe', 'Pharmacy', 'Books', 'Hardware', 'Florist', 'Grocery', 'Barber', 'Laundry', 'Deli', 'Optician', 'Tailor'] as const;

/** A named street: the network streets it is made of, in order along it, and its polyline. */
export interface NamedStreet {
  /** Index in `WorldNames.streets`. */
  id: number;
  name: string;
  /** Network street ids (`StreetNetwork.streets[i].id`) in order along the named street. */
  segments: number[];
  /** Centreline, metres, world frame; segments joined in order (closed for a ring, last vertex not repeated). */
  polyline: Vec2[];
  closed: boolean;
  /** Worlds from OSM: true when OSM names the street neither by `name` nor `ref` (the name is generated). */
  generated?: boolean;
  /** Worlds from OSM: the name in Latin script (`name:en`/`name:latn`) when tagged and different. */
  nameLatin?: string;
}

/** A building's address and, for storefronts, the name on its sign. */
export interface Address {
  /** Building object id (`StaticObject.id`). */
  objectId: number;
  /** Named street id (`NamedStreet.id`). */
  street: number;
  /** House number: odd on the street's left (of its polyline direction), even on its right (worlds from OSM: `addr:housenumber`'s leading number, or 0). */
  number: number;
  /** The house number as written: `number` in procedural worlds, `addr:housenumber` in worlds from OSM ("12bis", "3-5"); null when OSM gives none. */
  houseNumber: string | null;
  side: 'left' | 'right';
  /** Arc length of the building's front along the named street's polyline, metres. */
  s: number;
  /** The storefront's sign text (e.g. "Rossi Bakery"), or null for a building without a shop. */
  shop: string | null;
}

/** Names of a world: its named streets (every network street in exactly one) and every building's address. */
export interface WorldNames {
  streets: NamedStreet[];
  /** Network street id → named street id. */
  streetOf: Map<number, number>;
  addresses: Address[];
}

/** A named street's centreline as an open polyline: a ring's first vertex repeated at its end. */
export function namedStreetLine(s: Pick<NamedStreet, 'polyline' | 'closed'>): Vec2[] {
  return s.closed ? [...s.polyline, s.polyline[0]] : s.polyline;
}

const dirAt = (line: readonly Vec2[], atStart: boolean): Vec2 => {
  // Unit direction pointing away from the junction, over the first few metres of the street.
  const n = line.length;
  const [a, b] = atStart ? [line[0], line[Math.min(n - 1, 1)]] : [line[n - 1], line[Math.max(0, n - 2)]];
  const l = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  return [(b[0] - a[0]) / l, (b[1] - a[1]) / l];
};

/** Continuations: for each junction, the pairs of arms that carry on straight (greedy, most opposite first). */
function continuations(net: StreetNetwork, nameOf?: (streetId: number) => string | null): [number, boolean, number, boolean][] {
  const byId = new Map(net.streets.map((s) => [s.id, s]));
  const out: [number, boolean, number, boolean][] = [];
  const cosLimit = -Math.cos((CONTINUATION_DEG * Math.PI) / 180);
  for (const j of net.junctions) {
    if (j.kind === 'roundabout') continue; // streets end at the ring, which is its own street
    const arms = j.arms.filter((a) => !byId.get(a.streetId)!.closed);
    const pairs: { c: number; x: number; y: number }[] = [];
    for (let x = 0; x < arms.length; x++) {
      for (let y = x + 1; y < arms.length; y++) {
        if (arms[x].streetId === arms[y].streetId) continue;
        // Worlds from OSM: a name carries on only into the same name (unnamed into unnamed).
        if (nameOf && nameOf(arms[x].streetId) !== nameOf(arms[y].streetId)) continue;
        const dx = dirAt(byId.get(arms[x].streetId)!.centreline, arms[x].atStart);
        const dy = dirAt(byId.get(arms[y].streetId)!.centreline, arms[y].atStart);
        const c = dx[0] * dy[0] + dx[1] * dy[1];
        if (c <= cosLimit || (nameOf && nameOf(arms[x].streetId) !== null)) pairs.push({ c, x, y });
      }
    }
    pairs.sort((p, q) => p.c - q.c || p.x - q.x || p.y - q.y);
    const used = new Set<number>();
    for (const p of pairs) {
      if (used.has(p.x) || used.has(p.y)) continue;
      used.add(p.x);
      used.add(p.y);
      out.push([arms[p.x].streetId, arms[p.x].atStart, arms[p.y].streetId, arms[p.y].atStart]);
    }
  }
  return out;
}

/** Chains of network streets joined by continuations, each in order, with its polyline. */
function chainStreets(net: StreetNetwork, nameOf?: (streetId: number) => string | null): { segments: number[]; polyline: Vec2[]; closed: boolean }[] {
  const byId = new Map(net.streets.map((s) => [s.id, s]));
  // next[(id, end)] = (id', end'): leaving street id through its end `end` continues into id' at end'.
  const link = new Map<string, [number, boolean]>();
  const key = (id: number, atStart: boolean) => `${id}:${atStart ? 's' : 'e'}`;
  for (const [a, aStart, b, bStart] of continuations(net, nameOf)) {
    link.set(key(a, aStart), [b, bStart]);
    link.set(key(b, bStart), [a, aStart]);
  }
  const done = new Set<number>();
  const chains: { segments: number[]; polyline: Vec2[]; closed: boolean }[] = [];
  for (const street of [...net.streets].sort((p, q) => p.id - q.id)) {
    if (done.has(street.id)) continue;
    if (street.closed) {
      done.add(street.id);
      chains.push({ segments: [street.id], polyline: street.centreline.map((p) => [p[0], p[1]]), closed: true });
      continue;
    }
    // Walk back to the chain's first street (or around a loop of continuations to this one).
    let first = street.id;
    let entered = true; // we enter `first` through its start
    for (let guard = 0; guard < net.streets.length; guard++) {
      const prev = link.get(key(first, entered));
      if (!prev || prev[0] === street.id) break;
      first = prev[0];
      entered = !prev[1];
    }
    const segments: number[] = [];
    const polyline: Vec2[] = [];
    let id = first;
    let fromStart = entered;
    while (!done.has(id)) {
      done.add(id);
      segments.push(id);
      const line = byId.get(id)!.centreline;
      const ordered = fromStart ? line : [...line].reverse();
      for (const p of polyline.length > 0 ? ordered.slice(1) : ordered) polyline.push([p[0], p[1]]);
      const next = link.get(key(id, !fromStart));
      if (!next) break;
      [id, fromStart] = next;
    }
    chains.push({ segments, polyline, closed: false });
  }
  return chains;
}

/**
 * A distinct name for each street kind in `kinds`, in order: a stem and a street type drawn without
 * replacement (a ring is a `Circus`), then with a prefix (`North`, `Upper`, …) once those run out.
 */
export function drawNames(rng: Rng, kinds: readonly ('ring' | 'street')[]): string[] {
  const used = new Set<string>();
  const draw = (pool: string[]): string | null => {
    while (pool.length > 0) {
      const name = pool.splice(rng.int(0, pool.length - 1), 1)[0];
      if (!used.has(name)) return name;
    }
    return null;
  };
  const plainNames = STREET_STEMS.flatMap((stem) => STREET_TYPES.map((type) => `${stem} ${type}`));
  const ringNames = STREET_STEMS.map((stem) => `${stem} Circus`);
  const prefixed = (base: readonly string[]) => NAME_PREFIXES.flatMap((p) => base.map((n) => `${p} ${n}`));
  const plain = [...plainNames];
  const rings = [...ringNames];
  let plainMore: string[] | null = null;
  let ringsMore: string[] | null = null;
  return kinds.map((kind) => {
    let name = kind === 'ring' ? draw(rings) : draw(plain);
    if (name === null && kind === 'ring') name = draw((ringsMore ??= prefixed(ringNames)));
    if (name === null) name = draw((plainMore ??= prefixed(plainNames)));
    if (name === null) throw new Error(`names: more than ${used.size} streets to name`);
    used.add(name);
    return name;
  });
}

/**
 * Names the streets of `net` and addresses its buildings (objects of kind `building` with a street).
 * Deterministic: the same network, buildings and seed give the same names.
 *
 * @param seed the world seed (`World.seed`); names come from its `names` stream.
 */
export function nameWorld(net: StreetNetwork, buildings: readonly StaticObject[], seed: number): WorldNames {
  const rng = createRng(seed).fork('names');
  const chains = chainStreets(net);
  const names = drawNames(rng.fork('streets'), chains.map((c) => (c.closed ? 'ring' : 'street')));
  const streets: NamedStreet[] = chains.map((c, id) => ({ id, name: names[id], ...c }));
  const streetOf = new Map<number, number>();
  for (const s of streets) for (const seg of s.segments) streetOf.set(seg, s.id);

  // Addresses: each building's front projected on its named street, numbered along it per side.
  const shops = rng.fork('shops');
  const lines = streets.map(namedStreetLine);
  const cums = lines.map((l) => arcLengths(l));
  const placed: Address[] = [];
  for (const b of [...buildings].filter((o) => o.kind === 'building' && streetOf.has(o.streetId)).sort((p, q) => p.id - q.id)) {
    const street = streetOf.get(b.streetId)!;
    const { s, side } = projectOnPolyline(lines[street], b.centre[0], b.centre[1], cums[street]);
    const shop = shops.next() < 0.6 ? `${shops.pick(SHOP_OWNERS)} ${shops.pick(SHOP_KINDS)}` : null;
    placed.push({ objectId: b.id, street, number: 0, houseNumber: null, side: side > 0 ? 'left' : 'right', s, shop });
  }
  // Numbers: in order of s on each (street, side), about one step per ADDRESS_SPACING m, strictly increasing.
  const groups = new Map<string, Address[]>();
  for (const a of placed) groups.set(`${a.street}:${a.side}`, [...(groups.get(`${a.street}:${a.side}`) ?? []), a]);
  for (const group of groups.values()) {
    group.sort((p, q) => p.s - q.s || p.objectId - q.objectId);
    const parity = group[0].side === 'left' ? 1 : 2;
    let last = -Infinity;
    for (const a of group) {
      const wanted = 2 * Math.floor(a.s / ADDRESS_SPACING) + parity;
      a.number = Math.max(wanted, last + 2);
      a.houseNumber = String(a.number);
      last = a.number;
    }
  }
  // Sign texts are distinct within a world: a repeat gets its street's name appended.
  const seen = new Set<string>();
  for (const a of placed) {
    if (a.shop === null) continue;
    if (seen.has(a.shop)) a.shop = `${a.shop} ${streets[a.street].name.split(' ')[0]}`;
    if (seen.has(a.shop)) a.shop = `${a.shop} ${a.number}`;
    seen.add(a.shop);
  }
  return { streets, streetOf, addresses: placed.sort((p, q) => p.objectId - q.objectId) };
}

/** How much farther than the nearest (unnamed) street a really named street may be to give a building without `addr:street` its address, metres. */
export const REAL_NAME_SLACK = 20;

/**
 * Names of a world from OSM: streets chained through junctions under their real name (`name`, else
 * `ref`); unnamed chains get a generated name (`generated: true`); addresses and storefront names
 * from the buildings' labels (`addr:housenumber`, `addr:street`, the place inside). Buildings with
 * neither a house number nor a place have no address.
 */
export function nameOsmWorld(net: StreetNetwork, obstacles: readonly StaticObject[], osm: OsmWorldData, seed: number): WorldNames {
  const nameOf = (id: number) => osm.streets[id]?.name ?? null;
  const chains = chainStreets(net, nameOf);
  const unnamed = chains.filter((c) => nameOf(c.segments[0]) === null);
  const drawn = drawNames(createRng(seed).fork('names').fork('streets'), unnamed.map(() => 'street'));
  const real = new Set(chains.map((c) => nameOf(c.segments[0])).filter((n): n is string => n !== null));
  let k = 0;
  const streets: NamedStreet[] = chains.map((c, id) => {
    const name = nameOf(c.segments[0]);
    const latin = osm.streets[c.segments[0]]?.nameLatin;
    if (name !== null) return { id, name, ...c, ...(latin && latin !== name ? { nameLatin: latin } : {}) };
    let g = drawn[k++];
    while (real.has(g)) g = `${g} ${k}`;
    return { id, name: g, ...c, generated: true };
  });
  const streetOf = new Map<number, number>();
  for (const s of streets) for (const seg of s.segments) streetOf.set(seg, s.id);
  const lines = streets.map(namedStreetLine);
  const cums = lines.map((l) => arcLengths(l));
  const byName = new Map<string, number[]>();
  for (const s of streets) byName.set(s.name, [...(byName.get(s.name) ?? []), s.id]);
  const objectById = new Map(obstacles.map((o) => [o.id, o]));
  const streetsNear = new BoxGrid<number>(50);
  for (const st of net.streets) {
    streetsNear.insert(boxOf(st.centreline), st.id);
  }
  const addresses: Address[] = [];
  for (const b of osm.buildings) {
    if (b.houseNumber === null && b.place === null) continue;
    const o = objectById.get(b.objectIds[0]);
    if (!o || !streetOf.has(o.streetId)) continue;
    // `addr:street` names the street when the world has it (the nearest of that name); else the
    // nearest street, or a street with a real name at most REAL_NAME_SLACK farther (a building
    // beside an unnamed footway is known by the named street it also stands on).
    const named = b.addrStreet !== null ? byName.get(b.addrStreet) : undefined;
    const project = (id: number) => {
      const pr = projectOnPolyline(lines[id], o.centre[0], o.centre[1], cums[id]);
      return { street: id, s: pr.s, d: pr.d, side: pr.side };
    };
    let best = { street: -1, s: 0, d: Infinity, side: 1 };
    for (const id of named ?? [streetOf.get(o.streetId)!]) {
      const c = project(id);
      if (c.d < best.d) best = c;
    }
    if (!named && streets[best.street].generated) {
      let real = { ...best, d: Infinity };
      for (const sid of streetsNear.query([o.centre[0] - best.d - REAL_NAME_SLACK, o.centre[1] - best.d - REAL_NAME_SLACK, o.centre[0] + best.d + REAL_NAME_SLACK, o.centre[1] + best.d + REAL_NAME_SLACK])) {
        const id = streetOf.get(sid)!;
        if (streets[id].generated) continue;
        const c = project(id);
        if (c.d < real.d) real = c;
      }
      if (real.d <= best.d + REAL_NAME_SLACK) best = real;
    }
    const lead = b.houseNumber === null ? 0 : Number.parseInt(b.houseNumber, 10);
    addresses.push({ objectId: o.id, street: best.street, number: Number.isFinite(lead) ? lead : 0, houseNumber: b.houseNumber, side: best.side > 0 ? 'left' : 'right', s: best.s, shop: b.place?.name ?? null });
  }
  addresses.sort((p, q) => p.objectId - q.objectId);
  return { streets, streetOf, addresses };
}

const namesByWorld = new WeakMap<object, WorldNames>();

/** {@link nameWorld} of a world (its network, buildings and seed), computed once per world object. */
export function worldNames(world: { network: StreetNetwork; obstacles: readonly StaticObject[]; seed: number; osm?: OsmWorldData }): WorldNames {
  let names = namesByWorld.get(world);
  if (!names) {
    names = world.osm ? nameOsmWorld(world.network, world.obstacles, world.osm, world.seed) : nameWorld(world.network, world.obstacles.filter((o) => o.kind === 'building'), world.seed);
    namesByWorld.set(world, names);
  }
  return names;
}

const signsByWorld = new WeakMap<object, ReadonlyMap<number, string>>();

/** The storefront sign text of each building with a shop, by building object id (computed once per world object). */
export function shopSigns(world: { network: StreetNetwork; obstacles: readonly StaticObject[]; seed: number; osm?: OsmWorldData }): ReadonlyMap<number, string> {
  let signs = signsByWorld.get(world);
  if (!signs) {
    signs = new Map(worldNames(world).addresses.filter((a) => a.shop !== null).map((a) => [a.objectId, a.shop as string]));
    signsByWorld.set(world, signs);
  }
  return signs;
}
