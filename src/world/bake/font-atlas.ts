/**
 * Text set in the signs' font atlas (sign-font.ts: DejaVu Sans Bold, ASCII and accented Latin, anti-aliased
 * 8-bit coverage at a cap height of `SIGN_FONT.capHeight` pixels): the atlas decoded once, and one
 * line of text composed into a coverage bitmap with the font's advances and kerning, pen positions
 * rounded to whole pixels (so every glyph is pasted exactly as rasterised). Pure TypeScript, the
 * same bytes in Node and the page. Pixels here are sign texels (sign.ts scales them to metres).
 */
import { SIGN_FONT } from './sign-font';

/** One glyph of the atlas: bitmap `width × height`, its top-left `left` px right of the pen and `top` px above the baseline. */
export interface AtlasGlyph {
  /** Advance, 1/64 pixel. */
  advance: number;
  left: number;
  top: number;
  width: number;
  height: number;
  /** Coverage 0–255, row-major from the top. */
  coverage: Uint8Array;
}

/** The decoded atlas. */
export interface FontAtlas {
  family: string;
  /** Cap height, ascent above and descent below the baseline, pixels. */
  capHeight: number;
  ascent: number;
  descent: number;
  /** By character code (make-sign-font.ts SIGN_CODES: ASCII and accented Latin). */
  glyphs: ReadonlyMap<number, AtlasGlyph>;
  /** Kerning by `a * 65536 + b` (character codes), 1/64 pixel. */
  kerning: ReadonlyMap<number, number>;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes standard base64 (with or without padding). @throws Error on a character outside the alphabet. */
export function decodeBase64(s: string): Uint8Array {
  const clean = s.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let acc = 0, bits = 0, o = 0;
  for (let k = 0; k < clean.length; k++) {
    const v = B64.indexOf(clean[k]);
    if (v < 0) throw new Error(`base64: bad character '${clean[k]}' at ${k}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

let atlas: FontAtlas | null = null;

/** The signs' font atlas (decoded on first use, then shared). */
export function signFontAtlas(): FontAtlas {
  if (atlas) return atlas;
  const bytes = decodeBase64(SIGN_FONT.coverage);
  const glyphs = new Map<number, AtlasGlyph>();
  let o = 0;
  for (const rec of SIGN_FONT.metrics.split(';')) {
    const [code, advance, left, top, width, height] = rec.split(',').map(Number);
    glyphs.set(code, { advance, left, top, width, height, coverage: bytes.subarray(o, o + width * height) });
    o += width * height;
  }
  if (o !== bytes.length) throw new Error(`sign font: metrics cover ${o} coverage bytes of ${bytes.length}`);
  const kerning = new Map<number, number>();
  for (const rec of SIGN_FONT.kerning.split(';')) {
    const [a, b, k] = rec.split(',').map(Number);
    kerning.set(a * 65536 + b, k);
  }
  atlas = { family: SIGN_FONT.family, capHeight: SIGN_FONT.capHeight, ascent: SIGN_FONT.ascent, descent: SIGN_FONT.descent, glyphs, kerning };
  return atlas;
}

/** Whether every character of `text` is in the atlas (else {@link composeText} would draw '?' for it). */
export function canSetText(text: string, font: FontAtlas = signFontAtlas()): boolean {
  for (const ch of text) if (!font.glyphs.has(ch.codePointAt(0)!)) return false;
  return true;
}

/** A line of text composed from the atlas: `width × height` coverage (0–255, row-major from the top), the baseline `baseline` rows from the top. */
export interface TextCoverage {
  width: number;
  height: number;
  /** Row of the baseline (the first row below it), from the top. */
  baseline: number;
  coverage: Uint8Array;
}

/**
 * Composes one line of `text` (characters the atlas lacks drawn as '?': see {@link canSetText}): pens advance by
 * the glyph advances plus kerning (1/64 px) and each glyph is pasted at the pen rounded to a whole
 * pixel, coverage added and clamped to 255. The bitmap spans the line's ink horizontally (no
 * side bearings; width 0 for text without ink) and the font's ascent and descent vertically.
 */
export function composeText(text: string, font: FontAtlas = signFontAtlas()): TextCoverage {
  const placed: { g: AtlasGlyph; x: number }[] = [];
  let pen = 0, prev = -1;
  let minX = Infinity, maxX = -Infinity;
  for (const ch of text) {
    let code = ch.codePointAt(0)!;
    if (!font.glyphs.has(code)) code = 63; // '?'
    if (prev >= 0) pen += font.kerning.get(prev * 65536 + code) ?? 0;
    const g = font.glyphs.get(code)!;
    const x = Math.round(pen / 64) + g.left;
    if (g.width > 0) {
      placed.push({ g, x });
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x + g.width);
    }
    pen += g.advance;
    prev = code;
  }
  const height = font.ascent + font.descent, baseline = font.ascent;
  if (placed.length === 0) return { width: 0, height, baseline, coverage: new Uint8Array(0) };
  const width = maxX - minX;
  const coverage = new Uint8Array(width * height);
  for (const { g, x } of placed) {
    for (let r = 0; r < g.height; r++) {
      const row = baseline - g.top + r;
      if (row < 0 || row >= height) continue;
      for (let c = 0; c < g.width; c++) {
        const v = g.coverage[r * g.width + c];
        if (v === 0) continue;
        const k = row * width + x - minX + c;
        coverage[k] = Math.min(255, coverage[k] + v);
      }
    }
  }
  return { width, height, baseline, coverage };
}
