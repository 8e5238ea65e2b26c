/**
 * Reads the text in an image (storefront signs, street-name signs) with tesseract.js, in Node and
 * offline: the recogniser (tesseract.js-core's WebAssembly) and the English model
 * (`@tesseract.js-data/eng`, its LSTM-only integer model `4.0.0_best_int`) both come from
 * node_modules, `cacheMethod: 'none'` stops tesseract.js reading or writing a cached model in the
 * working directory, and nothing is fetched at run time. Node only (worker threads, the file
 * system): the `ocr` agent (ocr.ts) takes any `{read(png)}`, so it stays free of this module.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Tesseract from 'tesseract.js';

/** A word read: its text, tesseract's confidence (0–100) and its box in pixels. */
export interface ReadWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}

/** What was read in an image: all its text (lines joined by newlines) and its words. */
export interface ReadResult {
  text: string;
  words: ReadWord[];
}

/** The folder of the English model tesseract.js reads (`eng.traineddata.gz`), inside the installed `@tesseract.js-data/eng`. */
export function englishModelDir(): string {
  const pkg = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return join(dirname(pkg), '4.0.0_best_int');
}

/** A tesseract.js worker reading PNGs (see the module comment). One read at a time; `terminate` when done. */
export class SignReader {
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

  /** The text and words in a PNG image. */
  async read(png: Uint8Array): Promise<ReadResult> {
    const { data } = await this.worker.recognize(Buffer.from(png.buffer, png.byteOffset, png.byteLength), {}, { text: true, blocks: true });
    const words: ReadWord[] = [];
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
