/**
 * Generates sign-font.ts, the glyph coverage atlas the storefront signs are set in (sign.ts,
 * font-atlas.ts): printable ASCII and accented Latin ({@link SIGN_CODES}) of DejaVu Sans Bold (`dejavu-fonts-ttf`, read with
 * opentype.js, which pureimage depends on), each glyph rasterised at {@link CAP_HEIGHT_PX}-pixel
 * cap height by exact supersampling ({@link SUPERSAMPLE}² samples per pixel, non-zero winding) into
 * 8-bit coverage, tight bounding boxes, advance widths and kerning in 1/64 pixel. Node only (reads
 * the TTF); run once when the atlas should change:
 *
 *     npx tsx src/world/bake/make-sign-font.ts
 *
 * It writes sign-font.ts and copies the font's licence beside it (sign-font-LICENSE.txt). The
 * output is a pure function of the TTF and the constants here: sign-font.test.ts regenerates it
 * and compares the bytes.
 */
import type { AtlasGlyph } from './font-atlas';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Cap height of the atlas, pixels (one pixel = one sign texel). */
export const CAP_HEIGHT_PX = 18;
/** Samples per pixel along each axis. */
export const SUPERSAMPLE = 16;
/** Line segments per quadratic or cubic Bézier when flattening outlines. */
const CURVE_STEPS = 16;
/**
 * The characters of the atlas: printable ASCII (32–126), Latin-1 Supplement (160–255) and Latin
 * Extended-A (256–383), which set the accented Latin of European street and shop names (é, ü, ß, ç,
 * ł, ő, š…), and the typographic marks names use (– — ‘ ’ “ ” … €).
 */
export const SIGN_CODES: readonly number[] = [
  ...Array.from({ length: 95 }, (_, k) => 32 + k),
  ...Array.from({ length: 383 - 160 + 1 }, (_, k) => 160 + k),
  0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2026, 0x20ac,
];

/** The font file inside `dejavu-fonts-ttf`. */
export const FONT_FILE = 'ttf/DejaVuSans-Bold.ttf';
const FAMILY = 'DejaVu Sans Bold';

/** The part of opentype.js 0.4 this script uses. */
interface OtCommand { type: 'M' | 'L' | 'Q' | 'C' | 'Z'; x?: number; y?: number; x1?: number; y1?: number; x2?: number; y2?: number }
interface OtGlyph { advanceWidth: number; getPath(x: number, y: number, size: number): { commands: OtCommand[] } }
interface OtFont { unitsPerEm: number; ascender: number; descender: number; charToGlyph(c: string): OtGlyph; getKerningValue(a: OtGlyph, b: OtGlyph): number }

const require = createRequire(import.meta.url);

/** Path of the font package's folder. */
function fontPackageDir(): string {
  return dirname(require.resolve('dejavu-fonts-ttf/package.json'));
}

/** A glyph rasterised: bitmap `width × height` (row-major from the top), its top-left relative to the pen on the baseline (x right, y up). */
export interface RasterGlyph extends AtlasGlyph {
  code: number;
}

/** Flattens an outline (pixel units, y down) to closed polygons. */
function flatten(commands: readonly OtCommand[]): [number, number][][] {
  const polys: [number, number][][] = [];
  let cur: [number, number][] = [];
  let px = 0, py = 0;
  for (const c of commands) {
    if (c.type === 'M') {
      if (cur.length > 1) polys.push(cur);
      cur = [[c.x!, c.y!]];
      [px, py] = [c.x!, c.y!];
    } else if (c.type === 'L') {
      cur.push([c.x!, c.y!]);
      [px, py] = [c.x!, c.y!];
    } else if (c.type === 'Q') {
      for (let s = 1; s <= CURVE_STEPS; s++) {
        const t = s / CURVE_STEPS, u = 1 - t;
        cur.push([u * u * px + 2 * u * t * c.x1! + t * t * c.x!, u * u * py + 2 * u * t * c.y1! + t * t * c.y!]);
      }
      [px, py] = [c.x!, c.y!];
    } else if (c.type === 'C') {
      for (let s = 1; s <= CURVE_STEPS; s++) {
        const t = s / CURVE_STEPS, u = 1 - t;
        cur.push([
          u * u * u * px + 3 * u * u * t * c.x1! + 3 * u * t * t * c.x2! + t * t * t * c.x!,
          u * u * u * py + 3 * u * u * t * c.y1! + 3 * u * t * t * c.y2! + t * t * t * c.y!,
        ]);
      }
      [px, py] = [c.x!, c.y!];
    } else if (c.type === 'Z') {
      if (cur.length > 1) polys.push(cur);
      cur = [];
    }
  }
  if (cur.length > 1) polys.push(cur);
  return polys;
}

/**
 * Coverage of closed polygons (pixel units, y down, non-zero winding) over the pixel box
 * [x0, x0 + w) × [y0, y0 + h): the share of {@link SUPERSAMPLE}² sample points inside, as 0–255.
 */
export function rasterisePolygons(polys: readonly (readonly [number, number])[][], x0: number, y0: number, w: number, h: number): Uint8Array {
  const S = SUPERSAMPLE;
  const counts = new Uint16Array(w * h);
  const edges: [number, number, number, number, number][] = []; // xa, ya, xb, yb, dir (ya < yb)
  for (const p of polys) {
    for (let k = 0; k < p.length; k++) {
      const [ax, ay] = p[k], [bx, by] = p[(k + 1) % p.length];
      if (ay === by) continue;
      edges.push(ay < by ? [ax, ay, bx, by, 1] : [bx, by, ax, ay, -1]);
    }
  }
  const xs: [number, number][] = [];
  for (let r = 0; r < h * S; r++) {
    const y = y0 + (r + 0.5) / S;
    xs.length = 0;
    for (const [xa, ya, xb, yb, d] of edges) if (y >= ya && y < yb) xs.push([xa + ((y - ya) / (yb - ya)) * (xb - xa), d]);
    xs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let wind = 0;
    for (let k = 0; k + 1 < xs.length; k++) {
      wind += xs[k][1];
      if (wind === 0) continue;
      // Sample columns whose centres x0 + (c + 0.5) / S lie in [xs[k], xs[k + 1]).
      const c0 = Math.max(0, Math.ceil((xs[k][0] - x0) * S - 0.5)), c1 = Math.min(w * S, Math.ceil((xs[k + 1][0] - x0) * S - 0.5));
      const row = Math.floor(r / S) * w;
      for (let c = c0; c < c1; c++) counts[row + Math.floor(c / S)]++;
    }
  }
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) out[i] = Math.round((counts[i] * 255) / (S * S));
  return out;
}

/** Opens the font with opentype.js. */
function loadFont(): OtFont {
  const opentype = require('opentype.js') as { parse(b: ArrayBuffer): OtFont };
  const bytes = readFileSync(join(fontPackageDir(), FONT_FILE));
  return opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

/** The atlas: font size, line metrics (pixels) and every glyph of {@link SIGN_CODES}; kerning pairs (1/64 pixel, non-zero only). */
export function rasteriseAtlas(): { sizePx: number; ascent: number; descent: number; glyphs: RasterGlyph[]; kerning: [number, number, number][] } {
  const font = loadFont();
  // Cap height: the top of 'H' in font units (its outline drawn at 1 unit per pixel, y down).
  const capUnits = Math.max(...flatten(font.charToGlyph('H').getPath(0, 0, font.unitsPerEm).commands).flat().map((p) => -p[1]));
  const sizePx = (CAP_HEIGHT_PX * font.unitsPerEm) / capUnits;
  const scale = sizePx / font.unitsPerEm;
  const glyphs: RasterGlyph[] = [];
  const codes = SIGN_CODES;
  for (const code of codes) {
    const g = font.charToGlyph(String.fromCharCode(code));
    const polys = flatten(g.getPath(0, 0, sizePx).commands);
    const advance = Math.round(g.advanceWidth * scale * 64);
    if (polys.length === 0) {
      glyphs.push({ code, advance, left: 0, top: 0, width: 0, height: 0, coverage: new Uint8Array(0) });
      continue;
    }
    const pts = polys.flat();
    const x0 = Math.floor(Math.min(...pts.map((p) => p[0]))), x1 = Math.ceil(Math.max(...pts.map((p) => p[0])));
    const y0 = Math.floor(Math.min(...pts.map((p) => p[1]))), y1 = Math.ceil(Math.max(...pts.map((p) => p[1])));
    let coverage = rasterisePolygons(polys, x0, y0, x1 - x0, y1 - y0);
    // Trim rows and columns without ink (an outline touching a pixel edge leaves one).
    let [l, t, w, h] = [0, 0, x1 - x0, y1 - y0];
    const colInk = (c: number) => { for (let r = t; r < t + h; r++) if (coverage[r * (x1 - x0) + c]) return true; return false; };
    const rowInk = (r: number) => { for (let c = l; c < l + w; c++) if (coverage[r * (x1 - x0) + c]) return true; return false; };
    while (h > 0 && !rowInk(t)) { t++; h--; }
    while (h > 0 && !rowInk(t + h - 1)) h--;
    while (w > 0 && !colInk(l)) { l++; w--; }
    while (w > 0 && !colInk(l + w - 1)) w--;
    const trimmed = new Uint8Array(w * h);
    for (let r = 0; r < h; r++) trimmed.set(coverage.subarray((t + r) * (x1 - x0) + l, (t + r) * (x1 - x0) + l + w), r * w);
    coverage = trimmed;
    glyphs.push({ code, advance, left: x0 + l, top: -(y0 + t), width: w, height: h, coverage });
  }
  const kerning: [number, number, number][] = [];
  for (const a of codes) {
    for (const b of codes) {
      const k = Math.round(font.getKerningValue(font.charToGlyph(String.fromCharCode(a)), font.charToGlyph(String.fromCharCode(b))) * scale * 64);
      if (k !== 0) kerning.push([a, b, k]);
    }
  }
  return { sizePx, ascent: Math.ceil(font.ascender * scale), descent: Math.ceil(-font.descender * scale), glyphs, kerning };
}

/** The text of sign-font.ts. */
export function signFontModule(): string {
  const a = rasteriseAtlas();
  const bytes = new Uint8Array(a.glyphs.reduce((s, g) => s + g.coverage.length, 0));
  let o = 0;
  for (const g of a.glyphs) { bytes.set(g.coverage, o); o += g.coverage.length; }
  const b64 = Buffer.from(bytes).toString('base64');
  const lines: string[] = [];
  for (let k = 0; k < b64.length; k += 120) lines.push(`    '${b64.slice(k, k + 120)}',`);
  const metrics = a.glyphs.map((g) => `${g.code},${g.advance},${g.left},${g.top},${g.width},${g.height}`).join(';');
  const kerning = a.kerning.map(([x, y, k]) => `${x},${y},${k}`).join(';');
  return [
    '/**',
    ` * GENERATED by \`npx tsx src/world/bake/make-sign-font.ts\`; do not edit (sign-font.test.ts checks it regenerates byte for byte).`,
    ' *',
    ` * Glyph coverage atlas of printable ASCII (32–126), Latin-1 (160–255), Latin Extended-A (256–383) and`,
    ` * – — ‘ ’ “ ” … € in ${FAMILY} (dejavu-fonts-ttf, ${FONT_FILE}) at a`,
    ` * cap height of ${CAP_HEIGHT_PX} pixels (font size ${a.sizePx.toFixed(4)} px), for the storefront signs (font-atlas.ts).`,
    ' * Licence: Bitstream Vera Fonts licence (DejaVu changes public domain); its full text, which must',
    ' * accompany copies of the glyphs, is in sign-font-LICENSE.txt beside this file.',
    ' *',
    ' * `metrics`: per glyph `code,advance,left,top,width,height` separated by `;` (advance in 1/64 px; the',
    ' * bitmap\'s top-left `left` px right of the pen and `top` px above the baseline). `kerning`: `a,b,k`',
    ' * pairs (k in 1/64 px, added to the advance of a before b). `coverage`: the bitmaps, row-major from',
    ' * the top, one byte (0–255) per pixel, concatenated in glyph order, base64.',
    ' */',
    'export const SIGN_FONT = {',
    `  family: '${FAMILY}',`,
    `  capHeight: ${CAP_HEIGHT_PX},`,
    `  ascent: ${a.ascent},`,
    `  descent: ${a.descent},`,
    `  metrics: '${metrics}',`,
    `  kerning: '${kerning}',`,
    '  coverage: [',
    ...lines,
    "  ].join(''),",
    '} as const;',
    '',
  ].join('\n');
}

/** Paths of the generated module and of the licence copied beside it. */
export const SIGN_FONT_PATH = join(dirname(fileURLToPath(import.meta.url)), 'sign-font.ts');
export const SIGN_FONT_LICENSE_PATH = join(dirname(fileURLToPath(import.meta.url)), 'sign-font-LICENSE.txt');

/** The font package's licence file. */
export function fontLicensePath(): string {
  return join(fontPackageDir(), 'LICENSE');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = signFontModule();
  writeFileSync(SIGN_FONT_PATH, text);
  copyFileSync(fontLicensePath(), SIGN_FONT_LICENSE_PATH);
  console.log(`${SIGN_FONT_PATH}: ${(text.length / 1024).toFixed(1)} KB`);
}
