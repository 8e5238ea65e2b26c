/**
 * Building facades and roofs of the baked city. World frame, Z up, metres.
 *
 * A building is a convex footprint extruded to `height`. Each wall is sampled on a lattice of
 * {@link FACADE_SPACING} on the ground floor (11 splats/m², σ 0.18 m in-plane) and
 * {@link UPPER_FACADE_SPACING} above (7.7 splats/m², σ 0.22 m), all 4 mm thick, normal = the wall's
 * outward normal); walls facing away from the building's street (`front · n < −0.5`, the backs
 * that neighbours hide) are skipped. Floors are 3.2 m high (the generator's `floors × 3.2 + 1`, the
 * extra metre on the ground floor). Upper floors have rows of windows (1.2 × 1.5 m, sill at 0.9 m,
 * one per 2.6–3.4 m bay); the ground floor of the street face has a door (1.2 × 2.3 m), shop windows
 * and a sign board above them: storefronts (a shop name from names.ts) get the name in legible text
 * (sign.ts; the default font style as a light box sign 15 cm deep with dark lettering, the older
 * bitmap style as a flat board) and half of them a striped awning, about half of the other buildings
 * a board with abstract lettering. Roofs: 0.5 m lattice (4 splats/m²,
 * σ 0.33 m) with a parapet tint.
 */
import { createRng } from '../../core/random';
import type { StaticObject } from '../objects';
import { hash01, valueNoise } from './noise';
import { DEFAULT_SURFACE_DETAIL, type SurfaceDetail } from './fine-paving';
import { bakeSign, DEFAULT_SIGN_STYLE, signLayout, signOffset, type SignLayout, type SignStyle } from './sign';
import { type SplatBuilder, X_AXIS, Y_AXIS, Z_AXIS, type Rgb } from './splat-builder';
import { MATERIAL_COLOURS, type BuildingLook, type WallMaterial } from '../osm/building-look';

/** Facade lattice spacing, metres. */
export const FACADE_SPACING = 0.3;
/** Facade lattice spacing of the ground floor in the `fine` surface detail, metres (σ 0.09 m, 44 splats/m²). */
export const FINE_FACADE_SPACING = 0.15;
/** Facade lattice spacing above the ground floor, metres. */
export const UPPER_FACADE_SPACING = 0.36;
/** Roof lattice spacing, metres. */
export const ROOF_SPACING = 0.5;
/** Storey height, metres. */
export const FLOOR_HEIGHT = 3.2;
/** Extra height of the ground floor, metres (the generator's `floors × 3.2 + 1`). */
export const GROUND_FLOOR_EXTRA = 1;

/** Wall colours buildings draw from. */
export const WALL_PALETTE: Rgb[] = [
  [0.62, 0.32, 0.24], // red brick
  [0.78, 0.72, 0.6], // sandstone
  [0.86, 0.84, 0.8], // white render
  [0.55, 0.55, 0.56], // grey concrete
  [0.72, 0.56, 0.4], // ochre
  [0.45, 0.36, 0.3], // dark brick
  [0.66, 0.7, 0.72], // blue-grey
];
/** Wall material of each WALL_PALETTE entry (same order). */
const WALL_MATERIALS: readonly WallMaterial[] = ['brick', 'stone', 'render', 'concrete', 'render', 'brick', 'render'];

/**
 * Shade factor of the `fine` ground floor's wall texture at `t` metres along the wall and `z` metres
 * above its base (lattice indices q, r for per-splat grain):
 * - brick: courses of 0.3 × 0.15 m (one lattice row each) in running bond, ±15 % per brick;
 * - stone: ashlar blocks 0.6 × 0.3 m, darker 4 cm joints, ±6 % per block;
 * - render: fine plaster speckle ±7 % and 0.5 m weathering patches;
 * - concrete: panels 1.2 × 1.05 m with darker 5 cm joints, speckle ±7 %.
 * Sizes are those of common European street facades (a brick course 6.5–7.5 cm with mortar is drawn
 * at twice its height: the lattice is 0.15 m).
 */
function facadeTexture(m: WallMaterial, seed: number, t: number, z: number, q: number, r: number): number {
  const speckle = hash01(seed, q, r, 31);
  switch (m) {
    case 'brick': {
      const row = Math.floor(z / 0.15);
      return 0.85 + 0.3 * hash01(seed, Math.floor(t / 0.3 + (row % 2) * 0.5), row, 32);
    }
    case 'stone': {
      const row = Math.floor(z / 0.3);
      const u = t / 0.6 + (row % 2) * 0.5;
      const joint = z - row * 0.3 < 0.04 || u - Math.floor(u) < 0.066;
      return joint ? 0.8 : 0.94 + 0.12 * hash01(seed, Math.floor(u), row, 33);
    }
    case 'render':
      return (0.93 + 0.14 * speckle) * (valueNoise(seed + 34, t, z, 0.5) < 0.15 ? 0.9 : 1);
    case 'concrete': {
      const joint = t % 1.2 < 0.05 || z % 1.05 < 0.05;
      return joint ? 0.78 : 0.93 + 0.14 * speckle;
    }
  }
}
const SIGN_PALETTE: Rgb[] = [[0.75, 0.1, 0.1], [0.1, 0.25, 0.6], [0.1, 0.45, 0.2], [0.9, 0.7, 0.1], [0.15, 0.15, 0.15]];
/** Sign lettering: light on the dark boards, dark on the yellow one. */
const INK_LIGHT: Rgb = [0.96, 0.96, 0.92];
const INK_DARK: Rgb = [0.08, 0.08, 0.08];
/**
 * Board and ink of the font style's signs, by the index of the board colour drawn from
 * SIGN_PALETTE: dark ink on a light board (cream / dark red, white / navy, pale green / dark green,
 * yellow / black, light grey / black). Tesseract
 * (tesseract.js with its global Otsu binarisation, as SignReader read when the colours were chosen)
 * reads no light-on-dark text at all, even a perfect rendering at 40-pixel letters.
 */
const FONT_SIGN_COLOURS: { board: Rgb; ink: Rgb }[] = [
  { board: [0.94, 0.9, 0.8], ink: [0.42, 0.04, 0.04] },
  { board: [0.96, 0.96, 0.94], ink: [0.05, 0.1, 0.32] },
  { board: [0.84, 0.93, 0.85], ink: [0.03, 0.25, 0.1] },
  { board: [0.95, 0.8, 0.25], ink: [0.06, 0.06, 0.06] },
  { board: [0.85, 0.85, 0.83], ink: [0.06, 0.06, 0.06] },
];
const GLASS: Rgb = [0.22, 0.3, 0.38];
/** A window lit from inside (15 % of the upper-floor windows; emissive). */
const LIT_WINDOW: Rgb = [0.75, 0.68, 0.45];
const FRAME: Rgb = [0.9, 0.9, 0.88];
const DOOR: Rgb = [0.3, 0.2, 0.14];

/** Index c of the street face (the wall fp[c − 1] → fp[c] whose outward normal best matches `front`). */
function frontEdgeOf(b: StaticObject): number {
  const fp = b.footprint;
  let frontEdge = -1, bestDot = -Infinity;
  for (let a = fp.length - 1, c = 0; c < fp.length; a = c++) {
    const dx = fp[c][0] - fp[a][0], dy = fp[c][1] - fp[a][1];
    const l = Math.hypot(dx, dy);
    const d = (dy / l) * b.front[0] + (-dx / l) * b.front[1];
    if (d > bestDot) { bestDot = d; frontEdge = c; }
  }
  return frontEdge;
}

/** Bottom and top of the sign band above the shop windows, metres above the building's base. */
const SIGN_BAND: [number, number] = [FLOOR_HEIGHT + GROUND_FLOOR_EXTRA - 1.3, FLOOR_HEIGHT + GROUND_FLOOR_EXTRA - 0.4];

/**
 * Where a storefront's sign board with `text` goes: centred on the street face, in the band above
 * the shop windows (0.9 m high, at most 8 m and the wall's length less 1 m wide), `offset` metres in
 * front of the wall (sign.ts: signOffset); `along` is the reading direction (the wall's direction
 * seen from the street), `normal` the wall's outward normal; the text set in `style` (sign.ts).
 * World frame, metres. Null when the text does not fit (sign.ts: signLayout).
 */
export function storefrontSign(b: StaticObject, baseZ: number, text: string, style: SignStyle = DEFAULT_SIGN_STYLE): { layout: SignLayout; centre: [number, number, number]; along: [number, number]; normal: [number, number]; offset: number } | null {
  const fp = b.footprint, c = frontEdgeOf(b);
  const [ax, ay] = fp[(c + fp.length - 1) % fp.length], [bx, by] = fp[c];
  const len = Math.hypot(bx - ax, by - ay);
  const dx = (bx - ax) / len, dy = (by - ay) / len;
  const layout = signLayout(text, Math.min(len - 1, 8), SIGN_BAND[1] - SIGN_BAND[0], style);
  if (!layout) return null;
  const normal: [number, number] = [dy, -dx];
  const offset = signOffset(style);
  const centre: [number, number, number] = [(ax + bx) / 2 + normal[0] * offset, (ay + by) / 2 + normal[1] * offset, baseZ + (SIGN_BAND[0] + SIGN_BAND[1]) / 2];
  return { layout, centre, along: [dx, dy], normal, offset };
}

/**
 * Bakes one building's walls and roof, and its storefront sign when `signText` is given.
 *
 * @param b a `building` obstacle (convex CCW footprint, `height` metres, `front` unit vector).
 * @param baseZ ground height at its base, metres (the curb height behind the frontage).
 * @param worldSeed seeds the facade style through `createRng(worldSeed).fork('facade' + id)`.
 * @param signText the shop's name (names.ts: `shopSigns`): a board with it in legible text
 *   ({@link storefrontSign}); without it, about half the buildings get a board with abstract lettering.
 * @param signStyle how the sign's text is drawn (sign.ts: `font`, the default, or the older 5 × 7 `bitmap`).
 * @param surfaceDetail `fine` bakes the street face's ground floor on a lattice of half the spacing
 *   with its wall material's texture ({@link facadeTexture}); `coarse` as before.
 * @param look a real building's tagged wall colour and material (src/world/osm/building-look.ts):
 *   they replace the seeded ones (a material alone brings its default colour; a colour alone is
 *   rendered plaster); the rest of the facade stays seeded.
 */
export function bakeBuilding(b: StaticObject, baseZ: number, worldSeed: number, out: SplatBuilder, signText?: string | null, signStyle: SignStyle = DEFAULT_SIGN_STYLE, surfaceDetail: SurfaceDetail = DEFAULT_SURFACE_DETAIL, look: BuildingLook | null = null): void {
  const rng = createRng(worldSeed).fork(`facade${b.id}`);
  const drawn = rng.pick(WALL_PALETTE);
  const material = look?.material ?? (look?.colour ? 'render' : WALL_MATERIALS[WALL_PALETTE.indexOf(drawn)]);
  const wall: Rgb = look?.colour ?? (look?.material ? MATERIAL_COLOURS[look.material] : drawn);
  const trim: Rgb = [wall[0] * 0.8, wall[1] * 0.8, wall[2] * 0.8];
  const bay = rng.range(2.6, 3.4);
  const winW = rng.range(1.0, 1.4), winH = rng.range(1.3, 1.7), sill = 0.9;
  const sign = signText ? storefrontSign(b, baseZ, signText, signStyle) : null;
  const hasSign = rng.next() < 0.55 || sign !== null;
  const signCol = rng.pick(SIGN_PALETTE);
  const shopfront = rng.next() < 0.6;
  const seed = rng.int(0, 0x7fffffff);
  const H = b.height;
  const groundTop = FLOOR_HEIGHT + GROUND_FLOOR_EXTRA;
  const fp = b.footprint;
  const frontEdge = frontEdgeOf(b);
  // A box sign (the font style) stands proud of the wall: the wall behind it gets small backing splats
  // (σ BACKING × the lattice's) so their tails never reach the letters in front (sign.ts: FONT_SIGN_OFFSET).
  const box = sign && sign.layout.style === 'font' ? { half: sign.layout.width / 2, z0: sign.centre[2] - baseZ - sign.layout.height / 2, z1: sign.centre[2] - baseZ + sign.layout.height / 2 } : null;
  // The board's colours; the sign band of the wall behind it takes the board's colour.
  const { board, ink } = sign?.layout.style === 'font' ? FONT_SIGN_COLOURS[SIGN_PALETTE.indexOf(signCol)] : { board: signCol, ink: signCol === SIGN_PALETTE[3] ? INK_DARK : INK_LIGHT };
  if (sign) {
    bakeSign(out, sign.layout, sign.centre, sign.along, board, ink);
    if (box) bakeSignBox(out, sign, board);
    // Half the storefronts have a striped awning over their windows, under the sign.
    if (hash01(seed, 77, 0) < 0.5) bakeAwning(out, sign, baseZ, AWNING_PALETTE[Math.floor(hash01(seed, 78, 0) * AWNING_PALETTE.length)]);
  }
  const u = [0, 0, 0];
  const S = FACADE_SPACING;
  for (let a = fp.length - 1, c = 0; c < fp.length; a = c++) {
    const [ax, ay] = fp[a], [bx, by] = fp[c];
    const len = Math.hypot(bx - ax, by - ay);
    if (len < 0.3) continue;
    const dx = (bx - ax) / len, dy = (by - ay) / len;
    const nx = dy, ny = -dx;
    const isFront = c === frontEdge;
    if (!isFront && nx * b.front[0] + ny * b.front[1] < -0.5) continue;
    u[0] = dx; u[1] = dy;
    const nBays = Math.max(1, Math.floor(len / bay));
    const bayW = len / nBays;
    const doorBay = Math.floor(nBays / 2);
    // Two lattices: the ground floor at FACADE_SPACING, the upper floors at UPPER_FACADE_SPACING.
    const gTop = Math.min(H, groundTop);
    // The street face's ground floor is the wall seen from nearest (from the sidewalk, 2–10 m).
    const fine = surfaceDetail === 'fine' && isFront;
    const bands: [number, number, number][] = [[0, gTop, fine ? FINE_FACADE_SPACING : S], [gTop, H, UPPER_FACADE_SPACING]];
    for (const [za, zb, sp] of bands) {
    if (zb - za < 0.05) continue;
    const nu = Math.max(1, Math.round(len / sp)), nv = Math.max(1, Math.round((zb - za) / sp));
    const s = 0.6 * sp;
    for (let q = 0; q < nu; q++) {
      const t = ((q + 0.5) / nu) * len;
      const x = ax + dx * t + nx * 0.01, y = ay + dy * t + ny * 0.01;
      const bi = Math.min(nBays - 1, Math.floor(t / bayW));
      const inBay = t - bi * bayW - bayW / 2; // metres from the bay centre
      for (let r = 0; r < nv; r++) {
        const z = za + ((r + 0.5) / nv) * (zb - za);
        const grain = 0.9 + 0.2 * hash01(seed, q, r, c);
        let col: readonly number[] = wall;
        let k = grain * (0.9 + 0.15 * valueNoise(seed, t, z, 2.5));
        if (fine && z < gTop) k *= facadeTexture(material, seed, t, z, q, r);
        if (z > H - 0.4) col = trim; // cornice
        else if (z < groundTop) {
          if (isFront && bi === doorBay && Math.abs(inBay) < 0.6 && z < 2.3) { col = DOOR; k = grain; }
          else if (isFront && hasSign && z > groundTop - 1.3 && z < groundTop - 0.4 && Math.abs(t - len / 2) < Math.min(len / 2 - 0.5, 4)) {
            // Sign board with light "lettering" blocks.
            const letter = !sign && z > groundTop - 1.05 && z < groundTop - 0.65 && hash01(seed, Math.floor(t / 0.3), 9) < 0.6 && Math.abs(t - len / 2) < Math.min(len / 2 - 0.9, 3.4);
            col = letter ? [0.95, 0.95, 0.9] : board;
            k = 1;
          } else if (isFront && shopfront && z > 0.5 && z < groundTop - 1.5 && Math.abs(inBay) < bayW / 2 - 0.35) {
            col = GLASS; k = 0.8 + 0.4 * (z / groundTop);
          } else if (!isFront || z < 0.5) col = trim;
        } else {
          const zf = (z - groundTop) % FLOOR_HEIGHT;
          if (Math.abs(inBay) < winW / 2 && zf > sill && zf < sill + winH) {
            const lit = hash01(seed, bi, Math.floor((z - groundTop) / FLOOR_HEIGHT), c) < 0.15;
            col = lit ? LIT_WINDOW : GLASS;
            k = 0.75 + 0.5 * ((zf - sill) / winH);
            // Lit windows are light sources: they stay bright at night (SplatCloud.emissive).
            if (lit) out.emission = 1;
          } else if (Math.abs(inBay) < winW / 2 + 0.12 && zf > sill - 0.12 && zf < sill + winH + 0.1) {
            col = FRAME; k = grain;
          }
        }
        const backing = box !== null && isFront && Math.abs(t - len / 2) < box.half && z > box.z0 && z < box.z1 ? BACKING : 1;
        out.add(x, y, baseZ + z, u, Z_AXIS, s * backing, s * backing, [col[0] * k, col[1] * k, col[2] * k]);
        out.emission = 0;
      }
    }
    }
  }
  // Roof: a flat lattice over the footprint's bounding box, kept inside the footprint.
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of fp) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  const R = ROOF_SPACING;
  for (let j = 0; y0 + (j + 0.5) * R < y1; j++) {
    for (let i = 0; x0 + (i + 0.5) * R < x1; i++) {
      const x = x0 + (i + 0.5) * R, y = y0 + (j + 0.5) * R;
      if (!insideConvex(x, y, fp, 0.1)) continue;
      const k = 0.35 + 0.15 * hash01(seed, i, j, 99);
      out.add(x, y, baseZ + H, X_AXIS, Y_AXIS, 0.66 * R, 0.66 * R, [k, k, k * 1.02]);
    }
  }
}

/** Size of the wall's splats behind a box sign, relative to the lattice's. */
const BACKING = 0.25;
/** Spacing of the splats along a box sign's rim, metres. */
const RIM_STEP = 0.15;

/**
 * The rim of a box sign (the font style's board, `sign.offset` in front of the wall): its top,
 * bottom and end faces, one row of splats each across the box's depth, in the board's colour
 * darkened by a quarter.
 */
function bakeSignBox(out: SplatBuilder, sign: NonNullable<ReturnType<typeof storefrontSign>>, color: Rgb): void {
  const [nx, ny] = sign.normal, [ax, ay] = sign.along;
  const rim: Rgb = [color[0] * 0.75, color[1] * 0.75, color[2] * 0.75];
  const n = [nx, ny, 0], along = [ax, ay, 0];
  const hw = sign.layout.width / 2, hh = sign.layout.height / 2, d = sign.offset;
  // Centre of the face, half way between the wall and the board.
  const [cx, cy, cz] = [sign.centre[0] - (nx * d) / 2, sign.centre[1] - (ny * d) / 2, sign.centre[2]];
  const nu = Math.max(1, Math.round((2 * hw) / RIM_STEP)), nv = Math.max(1, Math.round((2 * hh) / RIM_STEP));
  for (const side of [-1, 1]) {
    for (let i = 0; i < nu; i++) {
      const a = -hw + ((i + 0.5) / nu) * 2 * hw;
      out.add(cx + ax * a, cy + ay * a, cz + side * hh, along, n, 0.6 * ((2 * hw) / nu), 0.5 * d, rim);
    }
    for (let j = 0; j < nv; j++) {
      const b = -hh + ((j + 0.5) / nv) * 2 * hh;
      out.add(cx + ax * side * hw, cy + ay * side * hw, cz + b, Z_AXIS, n, 0.6 * ((2 * hh) / nv), 0.5 * d, rim);
    }
  }
}

/** Awning stripe colours (alternating with white). */
const AWNING_PALETTE: Rgb[] = [[0.7, 0.12, 0.1], [0.1, 0.4, 0.25], [0.12, 0.25, 0.55], [0.85, 0.55, 0.1]];
/** Awning depth out from the wall and drop over it, metres. */
const AWNING_DEPTH = 1.1;
const AWNING_DROP = 0.45;

/**
 * A striped awning as wide as the storefront's sign board, hung from just under the sign band and
 * sloping 1.1 m out and 0.45 m down (stripes 0.3 m wide across the wall).
 */
function bakeAwning(out: SplatBuilder, sign: NonNullable<ReturnType<typeof storefrontSign>>, baseZ: number, color: Rgb): void {
  const [nx, ny] = sign.normal, [ax, ay] = sign.along;
  const top = baseZ + SIGN_BAND[0] - 0.1;
  const slope = Math.hypot(AWNING_DEPTH, AWNING_DROP);
  const u = [ax, ay, 0], v = [(nx * AWNING_DEPTH) / slope, (ny * AWNING_DEPTH) / slope, -AWNING_DROP / slope];
  const step = 0.1, w = sign.layout.width;
  const nu = Math.ceil(w / step), nv = Math.ceil(slope / step);
  for (let i = 0; i < nu; i++) {
    const a = -w / 2 + ((i + 0.5) / nu) * w;
    const rgb = Math.floor((a + w / 2) / 0.3) % 2 === 0 ? color : ([0.92, 0.92, 0.88] as Rgb);
    for (let j = 0; j < nv; j++) {
      const b = ((j + 0.5) / nv) * slope;
      const x = sign.centre[0] - nx * sign.offset + ax * a + v[0] * b, y = sign.centre[1] - ny * sign.offset + ay * a + v[1] * b;
      out.add(x, y, top + v[2] * b, u, v, 0.7 * step, 0.7 * step, rgb);
    }
  }
}

/** Whether (x, y) is inside a convex CCW ring by at least `margin` metres. */
function insideConvex(x: number, y: number, ring: readonly (readonly number[])[], margin: number): boolean {
  for (let i = 0, n = ring.length, j = n - 1; i < n; j = i++) {
    const ex = ring[i][0] - ring[j][0], ey = ring[i][1] - ring[j][1];
    if ((ex * (y - ring[j][1]) - ey * (x - ring[j][0])) / Math.hypot(ex, ey) < margin) return false;
  }
  return true;
}
