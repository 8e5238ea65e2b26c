/**
 * Reads the text in an image (storefront signs, street-name signs) with tesseract.js, in Node and
 * offline: the recogniser (tesseract.js-core's WebAssembly) and the English model
 * (`@tesseract.js-data/eng`, its LSTM-only integer model `4.0.0_best_int`) both come from
 * node_modules, `cacheMethod: 'none'` stops tesseract.js reading or writing a cached model in the
 * working directory, and nothing is fetched at run time. Node only (worker threads, the file
 * system): the `ocr` agent (ocr.ts) takes any {@link TextReader}, so it stays free of this module
 * (this one imports only its types).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PNG } from 'pngjs';
import Tesseract from 'tesseract.js';
import type { OcrResult, OcrWord, TextReader } from './ocr';

/** The folder of the English model tesseract.js reads (`eng.traineddata.gz`), inside the installed `@tesseract.js-data/eng`. */
export function englishModelDir(): string {
  const pkg = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return join(dirname(pkg), '4.0.0_best_int');
}

/**
 * The PNG in grey (Rec. 601 luma, opaque), enlarged `scale` times (bilinear, pixel centres aligned), as PNG:
 * tesseract reads the world's coloured sign boards better from grey than from the colour image (a shop
 * name's word in 22 against 15 of 154 side views along seven oracle walks, at the same speed), and
 * letters seen from 6–10 m (cap height 12–25 px at 640×480) better at twice the size (tesseract's
 * LSTM model is trained on text of 20–40 px x-height; bench/RESULTS.md, "Shop signs read by OCR").
 *
 * @param scale integer enlargement, 1–4.
 * @throws RangeError when `scale` is not an integer in 1..4.
 */
export function greyPng(png: Uint8Array, scale = 1): Buffer {
  if (!(Number.isInteger(scale) && scale >= 1 && scale <= 4)) throw new RangeError(`greyPng: scale must be an integer in 1..4, got ${scale}`);
  const img = PNG.sync.read(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  const { width: w, height: h, data: d } = img;
  const luma = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) luma[i] = 0.299 * d[4 * i] + 0.587 * d[4 * i + 1] + 0.114 * d[4 * i + 2];
  const out = new PNG({ width: w * scale, height: h * scale });
  for (let y = 0; y < out.height; y++) {
    const sy = Math.min(h - 1, Math.max(0, (y + 0.5) / scale - 0.5));
    const y0 = Math.floor(sy), y1 = Math.min(h - 1, y0 + 1), fy = sy - y0;
    for (let x = 0; x < out.width; x++) {
      const sx = Math.min(w - 1, Math.max(0, (x + 0.5) / scale - 0.5));
      const x0 = Math.floor(sx), x1 = Math.min(w - 1, x0 + 1), fx = sx - x0;
      const top = luma[y0 * w + x0] * (1 - fx) + luma[y0 * w + x1] * fx;
      const bottom = luma[y1 * w + x0] * (1 - fx) + luma[y1 * w + x1] * fx;
      const o = 4 * (y * out.width + x);
      out.data[o] = out.data[o + 1] = out.data[o + 2] = Math.round(top * (1 - fy) + bottom * fy);
      out.data[o + 3] = 255;
    }
  }
  return PNG.sync.write(out);
}

/**
 * How tesseract turns the grey image into black and white before it reads: `sauvola` (local, tesseract's
 * `thresholding_method` 2; Sauvola & Pietikäinen, "Adaptive document image binarization", Pattern
 * Recognition 33, 2000) or `otsu` (one global threshold, tesseract's default). Local thresholds keep dark
 * lettering on a light board that sits on a darker facade, which a global one loses: storefront names read
 * exactly from arena viewpoints rise from about 42 % to about 81 % (bench/RESULTS.md, "Shop signs read by OCR").
 */
export type Binarisation = 'sauvola' | 'otsu';

/** How SignReader prepares and thresholds an image: {@link Binarisation} and the enlargement of {@link greyPng}. */
export interface SignReaderOptions {
  binarisation: Binarisation;
  /** Integer enlargement before reading, 1–4. */
  scale: number;
}

/** SignReader's reading unless told otherwise: Sauvola thresholds on the image at twice its size. */
export const DEFAULT_SIGN_READER: SignReaderOptions = { binarisation: 'sauvola', scale: 2 };

/** A tesseract.js worker reading PNGs (see the module comment). One read at a time; `terminate` when done. */
export class SignReader implements TextReader {
  private constructor(
    private readonly worker: Tesseract.Worker,
    private readonly scale: number,
  ) {}

  /**
   * Starts a worker with the English LSTM model from node_modules (a second or so).
   *
   * @param options how images are prepared and thresholded ({@link SignReaderOptions}).
   * @throws Error when the model or the recogniser cannot be loaded.
   */
  static async create(options: Partial<SignReaderOptions> = {}): Promise<SignReader> {
    const { binarisation, scale } = { ...DEFAULT_SIGN_READER, ...options };
    const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
      langPath: englishModelDir(),
      gzip: true,
      cacheMethod: 'none',
    });
    // Signs are scattered words, not a page of text: sparse-text segmentation finds them. A stated
    // resolution keeps tesseract from estimating one and printing "Estimating resolution as …" per image.
    // tesseract.js's parameter type lacks thresholding_method (a string-valued tesseract variable).
    await worker.setParameters({
      tessedit_pageseg_mode: Tesseract.PSM.SPARSE_TEXT,
      user_defined_dpi: '96',
      thresholding_method: binarisation === 'sauvola' ? '2' : '0',
    } as Partial<Tesseract.WorkerParams>);
    return new SignReader(worker, scale);
  }

  /** The text and words in a PNG image (read in grey, enlarged, {@link greyPng}); word boxes in the image's own pixels. */
  async read(png: Uint8Array): Promise<OcrResult> {
    const { data } = await this.worker.recognize(greyPng(png, this.scale), {}, { text: true, blocks: true });
    const k = 1 / this.scale;
    const words: OcrWord[] = [];
    for (const block of data.blocks ?? []) {
      for (const para of block.paragraphs) {
        for (const line of para.lines) {
          for (const w of line.words) {
            if (w.text.trim() === '') continue;
            words.push({ text: w.text, confidence: w.confidence, bbox: { x0: w.bbox.x0 * k, y0: w.bbox.y0 * k, x1: w.bbox.x1 * k, y1: w.bbox.y1 * k } });
          }
        }
      }
    }
    return { text: data.text, words };
  }

  /** Stops the worker thread. */
  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}
