/**
 * The reader in Node (the kiosk, scripts, servers of library users): OCR by tesseract.js with the
 * English data of `@tesseract.js-data/eng` read from disk, a PDF's text by pdf.js, barcodes by
 * zxing-wasm with its wasm read from disk. Nothing is fetched: every file comes from node_modules.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Worker as OcrWorker } from 'tesseract.js';
import type * as ZxingReaderModule from 'zxing-wasm/reader';
import { readWith, type DocumentReader, type ReadingEngine } from './reader.js';

const require = createRequire(import.meta.url);

/** Where the English data lives: the integer "best" model, as accurate as "best" at a quarter of the size. */
function langPath(): string {
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

async function pdfText(bytes: Uint8Array): Promise<string | undefined> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(1);
    const content = await page.getTextContent();
    const text = content.items.map((i) => ('str' in i ? i.str + (i.hasEOL ? '\n' : ' ') : '')).join('');
    return text.trim().length > 20 ? text : undefined;
  } finally {
    await doc.destroy();
  }
}

/** Creates a Node reader. Its OCR worker starts on first use; `close()` ends it. */
export function createNodeReader(): DocumentReader {
  let worker: Promise<OcrWorker> | undefined;
  const ocrWorker = () =>
    (worker ??= import('tesseract.js').then(({ createWorker, OEM }) =>
      createWorker('eng', OEM.LSTM_ONLY, {
        langPath: langPath(),
        gzip: true,
        cacheMethod: 'none',
        // Without a handler tesseract.js also throws a failed job's error where nothing can catch it
        // (an uncaught exception: a kiosk's main process would fall over on a damaged image); the
        // job's own promise still rejects, and that is where it is handled.
        errorHandler: () => undefined,
      }),
    ));
  let zxing: Promise<typeof ZxingReaderModule> | undefined;
  const barcodeReader = () =>
    (zxing ??= (async () => {
      const mod = await import('zxing-wasm/reader');
      const wasm = await readFile(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
      await mod.prepareZXingModule({
        overrides: { wasmBinary: wasm.buffer },
        fireImmediately: true,
      });
      return mod;
    })());

  const engine: ReadingEngine = {
    pdfText,
    async ocr(image) {
      // Straightened first: a hand-held photo is turned a few degrees, which OCR reads far worse.
      const { data } = await (await ocrWorker()).recognize(Buffer.from(image), { rotateAuto: true });
      return data.text;
    },
    async barcodes(image) {
      const { default: sharp } = await import('sharp');
      const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const { readBarcodes } = await barcodeReader();
      const found = await readBarcodes(
        {
          data: new Uint8ClampedArray(data),
          width: info.width,
          height: info.height,
          colorSpace: 'srgb',
        },
        { formats: ['PDF417'], tryHarder: true, textMode: 'Plain' },
      );
      return found.filter((b) => b.isValid).map((b) => b.text);
    },
  };
  return {
    readDocument: (bytes) => readWith(engine, bytes),
    async close() {
      const w = await worker;
      worker = undefined;
      await w?.terminate();
    },
  };
}
