/**
 * UrbanGround's level-3 families (implicit navigation, paper §B.3; their PS and II tasks): the
 * destination is a kind of place, never a named one, and every place of the kind counts.
 *
 * - Place search (PS): "Find a pharmacy." Starts where the nearest place of the kind is a walk of
 *   40–90 m (easy), 90–160 m (medium) or 160–260 m (hard) away and none stands within 25 m in a
 *   straight line (there is something to search for).
 * - Implicit intent (II): an everyday goal that implies the kind ("My glasses broke and I need new
 *   ones." → an optician; {@link INTENTS}); walks of 30–80 / 80–150 / 150–240 m.
 *
 * Arrival within {@link ARRIVAL_RADIUS} m of any place of the kind succeeds (truth `arrival_any`).
 * UrbanGround judges a place search with an LLM looking at the final view; here the inventory
 * knows every place of the kind, so the judgement is exact.
 */
import type { Vec2 } from '../../world/geometry';
import type { Difficulty } from '../task';
import { navDistances } from '../network';
import { ARRIVAL_RADIUS, type LadderGenerator, noSource, placesOfKind, round } from './ladder-common';
import type { TaskWorld } from './context';
import type { Rng } from '../../core/random';
import type { TaskDraft } from './families';

/** Walk to the nearest place of the kind per difficulty, metres: place search. */
export const PLACE_SEARCH_BANDS: Record<Difficulty, [number, number]> = { easy: [40, 90], medium: [90, 160], hard: [160, 260] };
/** Walk to the nearest place of the kind per difficulty, metres: implicit intent. */
export const INTENT_BANDS: Record<Difficulty, [number, number]> = { easy: [30, 80], medium: [80, 150], hard: [150, 240] };
/** Nearest a place of the kind may stand to the start in a straight line, metres. */
export const SEARCH_CLEARANCE = 25;

/** Everyday goals and the kind of place each implies (the documented intent → kind table of implicit intent). */
export const INTENTS: Readonly<Record<string, readonly string[]>> = {
  bakery: ['I want fresh bread for breakfast tomorrow.', 'I need to pick up a birthday cake.'],
  cafe: ['I need a coffee before my next meeting.', 'I would like to sit down somewhere with a cup of tea.'],
  pharmacy: ['I have a headache and need some painkillers.', 'I need to fill a prescription.'],
  books: ['I want a novel to read on the train.', 'I am looking for a city guidebook to buy.'],
  hardware: ['I need screws and a screwdriver to fix a shelf.', 'I have to buy a new light bulb and some tape.'],
  florist: ['I want to buy roses for a friend.', 'I need a bouquet for a wedding this afternoon.'],
  grocery: ['I need vegetables and milk for dinner.', 'I have run out of rice and eggs.'],
  barber: ['My hair needs a trim.', 'I want a quick shave and haircut.'],
  laundry: ['My shirts need washing and pressing.', 'I have a duvet that is too big for my washing machine.'],
  deli: ['I want a sandwich with sliced ham for lunch.', 'I need cheese and cold cuts for a picnic.'],
  optician: ['My glasses broke and I need new ones.', 'I want my eyes tested.'],
  tailor: ['My trousers need hemming.', 'A button came off my jacket and I want it sewn back on properly.'],
  'bus stop': ['I need to catch a bus across town.', 'I want to check when the next bus leaves.'],
  kiosk: ['I want to buy a newspaper and a snack.', 'I need a bottle of water quickly.'],
  // Kinds of real places (OSM `shop=*` / `amenity=*` / `tourism=*` values, context.ts osmKindWord).
  bank: ['I need to withdraw some cash.', 'I have to pay a cheque into my account.'],
  restaurant: ['I want to sit down for a proper dinner.', 'I am meeting a friend for lunch and we want table service.'],
  hotel: ['I need a room for tonight.', 'I am looking for somewhere to stay for a few nights.'],
  supermarket: ['I need to do the weekly food shopping.', 'I have to buy washing-up liquid, fruit and bread in one go.'],
  'post office': ['I need to send a parcel abroad.', 'I want to buy stamps and post a letter.'],
  pub: ['I would like a pint after work.', 'I want to watch the match with a beer.'],
  'fast food': ['I want a quick burger to take away.', 'I need something cheap to eat in five minutes.'],
  cinema: ['I want to see a film tonight.', 'I am looking for where the new film is showing.'],
  theatre: ['I want to see a play this evening.', 'I need to collect tickets for tonight\'s performance.'],
  'place of worship': ['I would like somewhere quiet to pray.', 'I want to attend a service this morning.'],
};

/** How a request names a place of each kind (the kind itself where it reads well). */
const PLACE_NOUNS: Readonly<Record<string, string>> = { books: 'bookshop', hardware: 'hardware shop', grocery: 'grocery shop', laundry: 'laundry', barber: 'barber', 'fast food': 'fast-food restaurant' };

/** A start for a search of `kind`: the nearest place of the kind a walk in `band` away, none within the clearance; or null. */
function searchStart(w: TaskWorld, rng: Rng, kind: string, band: [number, number]): { start: number; goals: { goal: Vec2; label: string }[]; walk: number; nearest: number } | null {
  const places = placesOfKind(w, kind);
  if (places.length === 0) return null;
  const start = rng.int(0, w.world.nav.nodes.length - 1);
  const p = w.world.nav.nodes[start];
  const d = navDistances(w.world.nav, start).dist;
  let nearest = -1;
  for (let k = 0; k < places.length; k++) if (nearest < 0 || d[places[k].node] < d[places[nearest].node]) nearest = k;
  const walk = d[places[nearest].node];
  if (!(walk >= band[0] && walk <= band[1])) return null;
  if (places.some((l) => Math.hypot(l.entrance[0] - p[0], l.entrance[1] - p[1]) < SEARCH_CLEARANCE)) return null;
  return { start, goals: places.map((l) => ({ goal: l.entrance, label: l.name })), walk, nearest: places[nearest].id };
}

/** The kinds a search may ask for: every kind of place with at least two places reached from the sidewalk. */
function searchKinds(w: TaskWorld): string[] {
  return Object.keys(INTENTS).filter((k) => placesOfKind(w, k).length >= 2);
}

/** The draft of a search; the start faces a drawn way (the goal's direction would give the search away). */
function searchDraft(family: 'place-search' | 'implicit-intent', difficulty: Difficulty, instruction: string, kind: string, s: NonNullable<ReturnType<typeof searchStart>>, w: TaskWorld, rng: Rng): TaskDraft {
  return {
    family, difficulty, instruction,
    start: { node: s.start, towards: w.adj[s.start][rng.int(0, w.adj[s.start].length - 1)].to },
    grantsLocation: true, map: null, referenceView: null,
    truth: { scoring: 'arrival_any', goals: s.goals, radius: ARRIVAL_RADIUS, category: kind },
    source: { ...noSource, landmark: s.nearest, detail: `${kind}: ${s.goals.length} places`, pathLength: round(s.walk) },
  };
}

/** Place search (see the module comment). */
export const placeSearch: LadderGenerator = (w, rng, difficulty) => {
  const kinds = searchKinds(w);
  if (kinds.length === 0) return null;
  const kind = kinds[rng.int(0, kinds.length - 1)];
  const s = searchStart(w, rng, kind, PLACE_SEARCH_BANDS[difficulty]);
  if (!s) return null;
  const noun = PLACE_NOUNS[kind] ?? kind;
  return searchDraft('place-search', difficulty, `[Place-Type Search Task] Find ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun} near here and stop at its entrance, with its sign in view. Any ${noun} counts; you succeed within ${ARRIVAL_RADIUS} m of one. Use the map, look around and walk as you like.`, kind, s, w, rng);
};

/** Implicit intent (see the module comment). */
export const implicitIntent: LadderGenerator = (w, rng, difficulty) => {
  const kinds = searchKinds(w);
  if (kinds.length === 0) return null;
  const kind = kinds[rng.int(0, kinds.length - 1)];
  const goal = INTENTS[kind][rng.int(0, INTENTS[kind].length - 1)];
  const s = searchStart(w, rng, kind, INTENT_BANDS[difficulty]);
  if (!s) return null;
  return searchDraft('implicit-intent', difficulty, `[Implicit Intent Navigation Task] Everyday goal: ${goal}\nWork out what kind of place would help, find one nearby from signs and the map, and stop at its entrance. You succeed within ${ARRIVAL_RADIUS} m of a suitable place.`, kind, s, w, rng);
};
