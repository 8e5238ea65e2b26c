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
 * The PNG in grey (Rec. 601 luma, opaque), as PNG: tesseract reads the world's coloured sign boards
 * better from it than from the colour image (a shop name's word in 22 against 15 of 154 side views
 * along seven oracle walks, at the same speed).
 */
export function greyPng(png: Uint8Array): Buffer {
  const img = PNG.sync.read(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  const d = img.data;
  for (let i = 0; i < d.length; i += 4) {
    const l = Math.round(0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2]);
    d[i] = d[i + 1] = d[i + 2] = l;
    d[i + 3] = 255;
  }
  return PNG.sync.write(img);
}

/** A tesseract.js worker reading PNGs (see the module comment). One read at a time; `terminate` when done. */
export class SignReader implements TextReader {
  private constructor(private readonly worker: Tesseract.Worker) {}

  /**
   * Starts a worker with the English LSTM model from node_modules (a second or so).
   *
   * @throws Error when the model or the recogniser cannot be loaded.
   */
  static async create(): Promise<SignReader> {
    const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
      langPath: englishModelDir(),
      gzip: true,
      cacheMethod: 'none',
    });
    // Signs are scattered words, not a page of text: sparse-text segmentation finds them. A stated
    // resolution keeps tesseract from estimating one and printing "Estimating resolution as …" per image.
    await worker.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.SPARSE_TEXT, user_defined_dpi: '96' });
    return new SignReader(worker);
  }

  /** The text and words in a PNG image (read in grey, {@link greyPng}). */
  async read(png: Uint8Array): Promise<OcrResult> {
    const { data } = await this.worker.recognize(greyPng(png), {}, { text: true, blocks: true });
    const words: OcrWord[] = [];
    for (const block of data.blocks ?? []) {
      for (const para of block.paragraphs) {
        for (const line of para.lines) {
          for (const w of line.words) {
            if (w.text.trim() === '') continue;
            words.push({ text: w.text, confidence: w.confidence, bbox: { x0: w.bbox.x0, y0: w.bbox.y0, x1: w.bbox.x1, y1: w.bbox.y1 } });
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
