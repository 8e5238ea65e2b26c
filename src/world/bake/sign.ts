/**
 * Storefront sign boards with legible text, in the vertical plane of a board in front of the
 * facade. World frame, Z up, metres. Two styles ({@link SignStyle}):
 *
 * - `font` (the default): the shop's name in capitals set in DejaVu Sans Bold from the signs' font
 *   atlas (font-atlas.ts, sign-font.ts), anti-aliased at sign resolution: a board of texels (cap
 *   height {@link FONT_CAP_TEXELS} texels, {@link FONT_CAP_SHARE} of the board's height; side margins
 *   {@link FONT_MARGIN_TEXELS} texels) whose ink coverage mixes the board and ink colours. At the
 *   full 0.9 m board (27 texel rows) a texel is 3.3 cm and the cap height 0.6 m: 25 image pixels
 *   from 10 m in a 640 × 480 view with a 60° vertical field of view. Splats: one per texel where
 *   the coverage varies, larger ones over uniform regions ({@link bakeSign}); about 2,500 for a
 *   twelve-letter name (the bitmap style: about 900). The board stands {@link FONT_SIGN_OFFSET}
 *   proud of the wall (buildings.ts draws it as a box sign, light board, dark ink).
 * - `bitmap`: the older 5 × 7 bitmap font (glyphs.ts), one splat per glyph pixel, glyph pixel at
 *   most 1/10 of the board height, margin 1.5 glyph pixels; kept for comparison (`npm run bench:signs`).
 */
import { composeText } from './font-atlas';
import { GLYPH_H, rasteriseText } from './glyphs';
import { type SplatBuilder, Z_AXIS, type Rgb } from './splat-builder';

/** How sign text is drawn (see the module comment). */
export type SignStyle = 'font' | 'bitmap';
/** Every sign style. */
export const SIGN_STYLES: readonly SignStyle[] = ['font', 'bitmap'];
/** The style the city bakes unless told otherwise: the DejaVu Sans Bold font (`npm run bench:signs` compares both; `bitmap` stays for comparison). */
export const DEFAULT_SIGN_STYLE: SignStyle = 'font';

/** Board margin around the text of the bitmap style, glyph pixels. */
export const SIGN_MARGIN = 1.5;
/** Distance of the bitmap style's board in front of the wall, metres. */
export const SIGN_OFFSET = 0.03;
/**
 * Distance of the font style's board in front of the wall, metres: a box sign 15 cm deep. The
 * facade's splats (σ 0.18 m) behind and around it then stay behind it in the renderer's depth
 * order for views up to ~25° off the board's normal whose tails reach the text (with 3 cm, a view
 * from 4 m below the sign composites wall over the letters).
 */
export const FONT_SIGN_OFFSET = 0.15;

/** Distance of a board in `style` in front of the wall, metres. */
export function signOffset(style: SignStyle): number {
  return style === 'font' ? FONT_SIGN_OFFSET : SIGN_OFFSET;
}
/** Font style: cap height in texels (the atlas's cap height: one atlas pixel per texel). */
export const FONT_CAP_TEXELS = 18;
/** Font style: cap height as a share of the board's height. */
export const FONT_CAP_SHARE = 0.66;
/** Font style: board margin left and right of the text's ink, texels. */
export const FONT_MARGIN_TEXELS = 5;
/** Smallest cap height a sign is set at, metres (the bitmap style's 7 glyph pixels of 2 cm). */
export const MIN_CAP_HEIGHT = 0.14;
/** Font style: coverage (0–255) within which a region counts as uniform for a merged splat. */
export const UNIFORM_TOLERANCE = 24;

/**
 * A sign's text laid out on its board: a grid of `cols × rows` square texels of `texel` metres over
 * the whole board (texel (i, j) from the board's top-left), each with its ink coverage.
 */
export interface SignLayout {
  style: SignStyle;
  cols: number;
  rows: number;
  /** Texel side, metres (the bitmap style's glyph pixel). */
  texel: number;
  /** Ink coverage per texel, 0 (board) – 255 (ink), row-major from the top-left. */
  coverage: Uint8Array;
  /** The texel box of the text's cap height (font) or glyph cells (bitmap): columns [x0, x1), rows [y0, y1). */
  textBox: [number, number, number, number];
  /** Board size, metres. */
  width: number;
  height: number;
}

/**
 * Lays `text` out on a board of at most `maxWidth` × `maxHeight` metres in `style`; null when the
 * text has no ink or would need a cap height under {@link MIN_CAP_HEIGHT}.
 */
export function signLayout(text: string, maxWidth: number, maxHeight: number, style: SignStyle = DEFAULT_SIGN_STYLE): SignLayout | null {
  return style === 'font' ? fontLayout(text, maxWidth, maxHeight) : bitmapLayout(text, maxWidth, maxHeight);
}

function bitmapLayout(text: string, maxWidth: number, maxHeight: number): SignLayout | null {
  const bitmap = rasteriseText(text.trim());
  if (bitmap.width === 0) return null;
  const pixel = Math.min(maxHeight / (GLYPH_H + 2 * SIGN_MARGIN), maxWidth / (bitmap.width + 2 * SIGN_MARGIN));
  if (!(pixel * GLYPH_H >= MIN_CAP_HEIGHT)) return null;
  // The lattice reaches ceil(1.5) = 2 cells past the text; the outermost ring is half on the board.
  const m = Math.ceil(SIGN_MARGIN);
  const cols = bitmap.width + 2 * m, rows = GLYPH_H + 2 * m;
  const coverage = new Uint8Array(cols * rows);
  for (let j = 0; j < GLYPH_H; j++) for (let i = 0; i < bitmap.width; i++) if (bitmap.ink[j * bitmap.width + i]) coverage[(j + m) * cols + i + m] = 255;
  return { style: 'bitmap', cols, rows, texel: pixel, coverage, textBox: [m, m + bitmap.width, m, m + GLYPH_H], width: (bitmap.width + 2 * SIGN_MARGIN) * pixel, height: (GLYPH_H + 2 * SIGN_MARGIN) * pixel };
}

function fontLayout(text: string, maxWidth: number, maxHeight: number): SignLayout | null {
  const t = composeText(text.trim().toUpperCase());
  if (t.width === 0) return null;
  const rows = Math.round(FONT_CAP_TEXELS / FONT_CAP_SHARE), cols = t.width + 2 * FONT_MARGIN_TEXELS;
  const texel = Math.min(maxHeight / rows, maxWidth / cols);
  if (!(texel * FONT_CAP_TEXELS >= MIN_CAP_HEIGHT)) return null;
  const top = Math.floor((rows - FONT_CAP_TEXELS) / 2), baseline = top + FONT_CAP_TEXELS;
  const coverage = new Uint8Array(cols * rows);
  for (let r = 0; r < t.height; r++) {
    const j = baseline - t.baseline + r;
    if (j < 0 || j >= rows) continue;
    coverage.set(t.coverage.subarray(r * t.width, (r + 1) * t.width), j * cols + FONT_MARGIN_TEXELS);
  }
  return { style: 'font', cols, rows, texel, coverage, textBox: [FONT_MARGIN_TEXELS, FONT_MARGIN_TEXELS + t.width, top, baseline], width: cols * texel, height: rows * texel };
}

/**
 * The world point (metres) at the centre of texel (i, j) (column from the board's left, row from
 * its top; fractional values address points inside texels) of a board centred at `centre`, whose
 * text runs along the horizontal unit vector `along` (the reading direction, seen from in front).
 */
export function signTexelPoint(layout: SignLayout, centre: readonly number[], along: readonly number[], i: number, j: number): [number, number, number] {
  const a = (i + 0.5 - layout.cols / 2) * layout.texel;
  const b = (layout.rows / 2 - j - 0.5) * layout.texel;
  return [centre[0] + along[0] * a, centre[1] + along[1] * a, centre[2] + b];
}

/** Splat shapes over uniform regions, texels (columns × rows), largest first; a block of `kx × ky` is merged when the region it and half its size around it cover is uniform. */
const BLOCKS: readonly [number, number][] = [[64, 4], [32, 8], [32, 4], [16, 16], [16, 8], [8, 16], [8, 8], [16, 4], [4, 16], [8, 4], [4, 8], [4, 4], [8, 2], [2, 8], [4, 2], [2, 4], [2, 2], [8, 1], [1, 8], [4, 1], [1, 4], [2, 1], [1, 2]];
/** Largest block side that may reach the board's edge (its Gaussian spills past the edge by ~0.6 × side). */
const EDGE_BLOCK = 4;

/**
 * The splats of a font-style board as texel rectangles `[i, j, kx, ky, coverage]` (column, row,
 * size in texels, mean coverage 0–255): greedy over {@link BLOCKS}, a block is taken when none of
 * its texels is taken yet, and the region it covers grown by half its size on each side (clipped
 * to the board; blocks wider or taller than {@link EDGE_BLOCK} must not need clipping in that
 * direction) stays within {@link UNIFORM_TOLERANCE} of its mean: so a large splat's Gaussian tail
 * only falls on texels of its own colour, whatever order the renderer composites coplanar splats
 * in. Texels left over get one splat each. Deterministic (row-major scans).
 */
export function signBlocks(layout: SignLayout): [number, number, number, number, number][] {
  const { cols, rows, coverage } = layout;
  const taken = new Uint8Array(cols * rows);
  const out: [number, number, number, number, number][] = [];
  for (const [kx, ky] of BLOCKS) {
    for (let j0 = 0; j0 + ky <= rows; j0 += ky) {
      for (let i0 = 0; i0 + kx <= cols; i0 += kx) {
        let free = true, sum = 0;
        for (let j = j0; j < j0 + ky && free; j++) for (let i = i0; i < i0 + kx; i++) { if (taken[j * cols + i]) { free = false; break; } sum += coverage[j * cols + i]; }
        if (!free) continue;
        const gx = kx >> 1, gy = ky >> 1;
        const ra = i0 - gx, rb = i0 + kx + gx, rc = j0 - gy, rd = j0 + ky + gy;
        if ((ra < 0 || rb > cols) && kx > EDGE_BLOCK) continue;
        if ((rc < 0 || rd > rows) && ky > EDGE_BLOCK) continue;
        const mean = Math.round(sum / (kx * ky));
        let uniform = true;
        for (let j = Math.max(0, rc); j < Math.min(rows, rd) && uniform; j++) {
          for (let i = Math.max(0, ra); i < Math.min(cols, rb); i++) if (Math.abs(coverage[j * cols + i] - mean) > UNIFORM_TOLERANCE) { uniform = false; break; }
        }
        if (!uniform) continue;
        for (let j = j0; j < j0 + ky; j++) taken.fill(1, j * cols + i0, j * cols + i0 + kx);
        out.push([i0, j0, kx, ky, mean]);
      }
    }
  }
  for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) if (!taken[j * cols + i]) out.push([i, j, 1, 1, coverage[j * cols + i]]);
  return out;
}

/**
 * Bakes a board in the vertical plane through `centre` spanned by `along` and Z, colours `board`
 * and `ink`. Font style: the splats of {@link signBlocks}, each at its rectangle's centre with
 * standard deviations 0.6 × its size, coloured `board + (ink − board) × coverage / 255`. Bitmap
 * style: a lattice of one splat (σ 0.6 glyph pixel) per texel, ink where the glyph has ink, the
 * outermost ring (half on the board) at half size.
 */
export function bakeSign(out: SplatBuilder, layout: SignLayout, centre: readonly number[], along: readonly number[], board: Rgb, ink: Rgb): void {
  const { cols, rows, texel } = layout;
  const u = [along[0], along[1], 0];
  const s = 0.6 * texel;
  if (layout.style === 'bitmap') {
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < cols; i++) {
        const edge = i === 0 || j === 0 || i === cols - 1 || j === rows - 1;
        const [x, y, z] = signTexelPoint(layout, centre, along, i, j);
        out.add(x, y, z, u, Z_AXIS, edge ? 0.5 * s : s, edge ? 0.5 * s : s, layout.coverage[j * cols + i] >= 128 ? ink : board);
      }
    }
    return;
  }
  const col: Rgb = [0, 0, 0];
  for (const [i, j, kx, ky, c] of signBlocks(layout)) {
    const f = c / 255;
    for (let k = 0; k < 3; k++) col[k] = board[k] + (ink[k] - board[k]) * f;
    const [x, y, z] = signTexelPoint(layout, centre, along, i + (kx - 1) / 2, j + (ky - 1) / 2);
    out.add(x, y, z, u, Z_AXIS, s * kx, s * ky, col);
  }
}
