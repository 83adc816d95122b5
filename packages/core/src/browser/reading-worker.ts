// pdf.js ships no types for its worker script; this declares the one module the reader imports.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./pdf-worker.d.ts" />
/**
 * The Web Worker behind `createWorkerReader`: reads a document off the page's thread. A PDF's text
 * by pdf.js (run in this worker, not a worker of its own), OCR by tesseract.js (whose own worker
 * this one starts), PDF417 barcodes by zxing-wasm. Every file they need comes from the app's own
 * origin (`ReaderAssets`); nothing is fetched from anywhere else, and nothing read is sent.
 */
import type { Worker as OcrWorker } from 'tesseract.js';
import type * as ZxingReaderModule from 'zxing-wasm/reader';
import { readWith, type DocumentReading, type ReadingEngine } from '../reading/reader.js';

/** Where the reader's files are served from, by the app itself. */
export interface ReaderAssets {
  /** tesseract.js's worker script (`worker.min.js`). */
  ocrWorker: string;
  /** tesseract.js-core's script (the SIMD, LSTM-only build); its `.wasm` must sit beside it. */
  ocrCore: string;
  /** The folder holding `eng.traineddata` (gzip bytes are fine). */
  ocrLang: string;
  /** zxing-wasm's `zxing_reader.wasm`. */
  barcodeWasm: string;
}

/** A request to the worker. */
export interface ReadRequest {
  id: number;
  bytes: Uint8Array;
  assets: ReaderAssets;
}

/** The worker's answer: the reading, or an error message. */
export type ReadResponse = { id: number; reading: DocumentReading } | { id: number; error: string };

let ocr: Promise<OcrWorker> | undefined;

let zxing: Promise<typeof ZxingReaderModule> | undefined;

function engine(assets: ReaderAssets): ReadingEngine {
  return {
    async pdfText(bytes) {
      // pdf.js's worker code run in this thread (it looks for `pdfjsWorker`): this is a worker already.
      const worker: object = await import('pdfjs-dist/build/pdf.worker.min.mjs');
      (globalThis as { pdfjsWorker?: object }).pdfjsWorker = worker;
      const pdfjs = await import('pdfjs-dist');
      const doc = await pdfjs.getDocument({ data: bytes, isEvalSupported: false, verbosity: 0 }).promise;
      try {
        const content = await (await doc.getPage(1)).getTextContent();
        const text = content.items.map((i) => ('str' in i ? i.str + (i.hasEOL ? '\n' : ' ') : '')).join('');
        return text.trim().length > 20 ? text : undefined;
      } finally {
        await doc.destroy();
      }
    },
    async ocr(image) {
      ocr ??= import('tesseract.js').then(({ createWorker, OEM }) =>
        createWorker('eng', OEM.LSTM_ONLY, {
          workerPath: assets.ocrWorker,
          corePath: assets.ocrCore,
          langPath: assets.ocrLang,
          workerBlobURL: false,
          // The app serves the (gzip) data as `eng.traineddata`; tesseract.js unzips it by its magic number.
          gzip: false,
          // The service worker keeps the data: a second copy in IndexedDB would only take space.
          cacheMethod: 'none',
        }).then(async (worker) => {
          // A photo carries no resolution; left to guess it, the engine says so on the console at every
          // page ("Estimating resolution as …"). A phone photo of a page is about 300 dpi.
          await worker.setParameters({ user_defined_dpi: '300' });
          return worker;
        }),
      );
      // Straightened first: a hand-held photo is turned a few degrees, which OCR reads far worse.
      const { data } = await (
        await ocr
      ).recognize(new Blob([image as Uint8Array<ArrayBuffer>]), {
        rotateAuto: true,
      });
      return data.text;
    },
    async barcodes(image) {
      zxing ??= import('zxing-wasm/reader').then(async (mod) => {
        mod.prepareZXingModule({ overrides: { locateFile: () => assets.barcodeWasm } });
        return mod;
      });
      const { readBarcodes } = await zxing;
      const found = await readBarcodes(new Blob([image as Uint8Array<ArrayBuffer>]), {
        formats: ['PDF417'],
        tryHarder: true,
        textMode: 'Plain',
      });
      return found.filter((b) => b.isValid).map((b) => b.text);
    },
  };
}

self.onmessage = async (event: MessageEvent<ReadRequest>) => {
  const { id, bytes, assets } = event.data;
  try {
    const reading = await readWith(engine(assets), bytes);
    self.postMessage({ id, reading } satisfies ReadResponse);
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies ReadResponse);
  }
};
