/**
 * The signs' font atlas: sign-font.ts is exactly what make-sign-font.ts generates from the TTF (no
 * drift), the licence travels with it, it decodes consistently, and text composes from it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canSetText, composeText, decodeBase64, signFontAtlas } from './font-atlas';
import { CAP_HEIGHT_PX, fontLicensePath, rasterisePolygons, SIGN_CODES, SIGN_FONT_LICENSE_PATH, SIGN_FONT_PATH, signFontModule } from './make-sign-font';

describe('sign font atlas', () => {
  it('regenerates byte for byte from DejaVu Sans Bold (npx tsx src/world/bake/make-sign-font.ts), with the font licence beside it', () => {
    const text = signFontModule();
    expect(Buffer.from(text).equals(readFileSync(SIGN_FONT_PATH))).toBe(true);
    expect(readFileSync(SIGN_FONT_LICENSE_PATH, 'utf8')).toBe(readFileSync(fontLicensePath(), 'utf8'));
    // Compact: 327 glyphs of 8-bit coverage in base64, under 200 KB.
    expect(text.length).toBeLessThan(200_000);
  }, 60_000);

  it('covers printable ASCII and accented Latin; capitals are the cap height tall on the baseline; coverage is anti-aliased', () => {
    const a = signFontAtlas();
    expect(a.family).toBe('DejaVu Sans Bold');
    expect([...a.glyphs.keys()]).toEqual(SIGN_CODES);
    expect(SIGN_CODES.slice(0, 95)).toEqual(Array.from({ length: 95 }, (_, k) => 32 + k));
    const H = a.glyphs.get(72)!;
    expect([H.top, H.height, a.capHeight]).toEqual([CAP_HEIGHT_PX, CAP_HEIGHT_PX, CAP_HEIGHT_PX]);
    expect(a.glyphs.get(32)!.width).toBe(0);
    expect(a.glyphs.get(32)!.advance).toBeGreaterThan(0);
    // 'O' has partial coverage on its curves, full coverage in its strokes.
    const O = a.glyphs.get(79)!.coverage;
    expect(O.some((v) => v > 0 && v < 255)).toBe(true);
    expect(O.some((v) => v === 255)).toBe(true);
    // Kerning from the font's table: A before V is drawn closer.
    expect(a.kerning.get(65 * 65536 + 86)!).toBeLessThan(0);
  });

  it('decodes base64 as Node does', () => {
    const bytes = Uint8Array.from({ length: 259 }, (_, k) => (k * 37) & 0xff);
    for (const n of [0, 1, 2, 3, 4, 258, 259]) expect(Array.from(decodeBase64(Buffer.from(bytes.subarray(0, n)).toString('base64')))).toEqual(Array.from(bytes.subarray(0, n)));
    expect(() => decodeBase64('ab$c')).toThrow(/bad character/);
  });

  it('rasterises coverage as the share of the covered pixel area', () => {
    // A square over half a pixel column: 0.5 of that pixel, 1 of the next, 0 outside.
    const c = rasterisePolygons([[[0.5, 0], [2, 0], [2, 1], [0.5, 1]]], 0, 0, 3, 1);
    expect(Array.from(c)).toEqual([128, 255, 0]);
    // Winding: a hole (reversed inner ring) stays empty.
    const ring = rasterisePolygons([[[0, 0], [3, 0], [3, 3], [0, 3]], [[1, 1], [1, 2], [2, 2], [2, 1]]], 0, 0, 3, 3);
    expect(Array.from(ring)).toEqual([255, 255, 255, 255, 0, 255, 255, 255, 255]);
  });

  it('composes a line: glyphs pasted unchanged at whole-pixel pens, advances and kerning applied, ink-tight width', () => {
    const a = signFontAtlas();
    const one = composeText('H');
    const H = a.glyphs.get(72)!;
    expect([one.width, one.height, one.baseline]).toEqual([H.width, a.ascent + a.descent, a.ascent]);
    for (let r = 0; r < H.height; r++) expect(Array.from(one.coverage.subarray((one.baseline - H.top + r) * one.width, (one.baseline - H.top + r + 1) * one.width))).toEqual(Array.from(H.coverage.subarray(r * H.width, (r + 1) * H.width)));
    const two = composeText('HH');
    expect(two.width).toBe(Math.round(H.advance / 64) + H.width);
    const av = composeText('AV'), aa = composeText('AA');
    const A = a.glyphs.get(65)!, V = a.glyphs.get(86)!;
    expect(av.width).toBe(Math.round((A.advance + a.kerning.get(65 * 65536 + 86)!) / 64) + V.left + V.width - A.left);
    expect(aa.width).toBe(Math.round(A.advance / 64) + A.width);
    expect(composeText('   ').width).toBe(0);
    // Accented Latin has its own glyphs (street and shop names of real places: Spélugues, Straße, Łódź).
    for (const ch of 'éüßçłőšÉ€’') {
      expect(a.glyphs.has(ch.codePointAt(0)!), ch).toBe(true);
      expect(Array.from(composeText(ch).coverage)).not.toEqual(Array.from(composeText('?').coverage));
    }
    // 'é' is an 'e' with an accent above: the same ink below the x-height, more above it.
    expect(a.glyphs.get(0xe9)!.top).toBeGreaterThan(a.glyphs.get(0x65)!.top);
    expect(a.glyphs.get(0xe9)!.advance).toBe(a.glyphs.get(0x65)!.advance);
    expect(canSetText('Avenue des Spélugues')).toBe(true);
    // A script the atlas lacks: drawn as '?', and canSetText says so.
    expect(Array.from(composeText('Ω').coverage)).toEqual(Array.from(composeText('?').coverage));
    expect(canSetText('東京')).toBe(false);
  });
});
