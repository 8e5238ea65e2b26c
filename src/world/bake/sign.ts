/**
 * Storefront sign boards with legible text: the shop's name set in the 5 × 7 bitmap font
 * (glyphs.ts), one splat per glyph pixel on a board in front of the facade. World frame, Z up,
 * metres. The layout fits the text on the board's space (glyph pixel at most 1/7 of the text
 * height) with a margin of 1.5 glyph pixels, so at the default 0.6 m letters a glyph pixel is
 * 8.6 cm: about one image pixel from 9 m away in a 256-pixel-wide robot view with a 75° horizontal
 * field of view.
 */
import { GLYPH_H, rasteriseText, type TextBitmap } from './glyphs';
import { type SplatBuilder, Z_AXIS, type Rgb } from './splat-builder';

/** Board margin around the text, glyph pixels. */
export const SIGN_MARGIN = 1.5;
/** Distance of the board in front of the wall, metres. */
export const SIGN_OFFSET = 0.03;

/** A sign's text laid out on its board. */
export interface SignLayout {
  text: TextBitmap;
  /** Glyph pixel size, metres. */
  pixel: number;
  /** Board size, metres (text plus margins). */
  width: number;
  height: number;
}

/**
 * Lays `text` out on a board of at most `maxWidth` × `maxHeight` metres; null when the text is
 * empty or would need glyph pixels under 2 cm.
 */
export function signLayout(text: string, maxWidth: number, maxHeight: number): SignLayout | null {
  const bitmap = rasteriseText(text.trim());
  if (bitmap.width === 0) return null;
  const pixel = Math.min(maxHeight / (GLYPH_H + 2 * SIGN_MARGIN), maxWidth / (bitmap.width + 2 * SIGN_MARGIN));
  if (!(pixel >= 0.02)) return null;
  return { text: bitmap, pixel, width: (bitmap.width + 2 * SIGN_MARGIN) * pixel, height: (GLYPH_H + 2 * SIGN_MARGIN) * pixel };
}

/**
 * The world point of glyph pixel (i, j) (column from the text's left, row from its top) of a board
 * centred at `centre`, whose text runs along the horizontal unit vector `along` (the reading
 * direction, seen from in front of the board).
 */
export function signPixelPoint(layout: SignLayout, centre: readonly number[], along: readonly number[], i: number, j: number): [number, number, number] {
  const a = (i + 0.5 - layout.text.width / 2) * layout.pixel;
  const b = (layout.text.height / 2 - j - 0.5) * layout.pixel;
  return [centre[0] + along[0] * a, centre[1] + along[1] * a, centre[2] + b];
}

/**
 * Bakes a board: a lattice of one splat per glyph pixel over the board (text and margins), ink
 * where the text has ink, `board` elsewhere, in the vertical plane through `centre` spanned by
 * `along` and Z.
 */
export function bakeSign(out: SplatBuilder, layout: SignLayout, centre: readonly number[], along: readonly number[], board: Rgb, ink: Rgb): void {
  const { text, pixel } = layout;
  const m = Math.ceil(SIGN_MARGIN);
  const u = [along[0], along[1], 0];
  const s = 0.6 * pixel;
  for (let j = -m; j < text.height + m; j++) {
    for (let i = -m; i < text.width + m; i++) {
      // The margin is 1.5 px: the outermost lattice ring is half in, drawn smaller.
      const edge = i < -SIGN_MARGIN + 0.5 || j < -SIGN_MARGIN + 0.5 || i >= text.width + SIGN_MARGIN - 0.5 || j >= text.height + SIGN_MARGIN - 0.5;
      const inked = i >= 0 && j >= 0 && i < text.width && j < text.height && text.ink[j * text.width + i] === 1;
      const [x, y, z] = signPixelPoint(layout, centre, along, i, j);
      out.add(x, y, z, u, Z_AXIS, edge ? 0.5 * s : s, edge ? 0.5 * s : s, inked ? ink : board);
    }
  }
}
