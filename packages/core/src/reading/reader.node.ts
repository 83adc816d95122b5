/**
 * The reader in Node (the kiosk, scripts, servers of library users): OCR by tesseract.js with the
 * English data of `@tesseract.js-data/eng` read from disk, a PDF's text by pdf.js, barcodes by
 * zxing-wasm with its wasm read from disk. Nothing is fetched: the files come from node_modules, or
 * from one folder (`files`) for an app bundled without node_modules.
 */
// pdf.js ships no types for its worker script; this declares the one module the reader imports.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./pdf-worker.node.d.ts" />
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Worker as OcrWorker } from 'tesseract.js';
import type * as ZxingReaderModule from 'zxing-wasm/reader';
import { pdfPageImage } from './pdf-image.js';
import { readWith, type DocumentReader, type ReadingEngine } from './reader.js';

const require = createRequire(import.meta.url);

/** Options for {@link createNodeReader}. */
export interface NodeReaderOptions {
  /**
   * A folder holding the files the reader loads at run time, for an app bundled without
   * node_modules (the packaged kiosk); default: each from its package in node_modules. It holds
   * `tesseract-worker.cjs` (tesseract.js's Node worker script bundled with `tesseract.js-core`),
   * beside it the core's `tesseract-core*.wasm` builds (the core loads the one the CPU suits from
   * its own folder), `eng.traineddata.gz` (`@tesseract.js-data/eng`'s `4.0.0_best_int`) and
   * `zxing_reader.wasm` (`zxing-wasm/reader`). The JavaScript of the main thread is the bundle's.
   */
  files?: string;
  /**
   * Checks each file of `files` before the reader uses it (say, against hashes made when the folder
   * was built), given its name and bytes: a file it refuses (false) is not loaded, and what needs it
   * (OCR, or barcodes) fails, as if absent; it is asked once per file. The zxing wasm loaded is the
   * checked bytes; the OCR worker thread reads its files itself, right after they are checked.
   */
  verify?: (name: string, bytes: Uint8Array) => boolean;
}

type Verify = NonNullable<NodeReaderOptions['verify']>;

/** Reads `name` from `folder`, checked by `verify`; a refused file throws, naming it. */
async function checkedFile(folder: string, name: string, verify: Verify): Promise<Buffer> {
  const bytes = await readFile(join(folder, name));
  if (!verify(name, bytes)) throw new Error(`The reader file ${name} failed its check; it was not loaded.`);
  return bytes;
}

/**
 * Checks the files the OCR worker thread will read: its script, every tesseract core wasm beside it
 * (the worker picks one by the CPU's features) and the English data. tesseract.js can only be given
 * the script and the core by path, and its in-memory language data (`{ code, data }`) is broken in
 * 7.0 (the worker initialises with the bytes as the language's name), so all three are read again by
 * the worker: what remains is the time between this check and the worker's reads (the worker's start
 * and its first load, well under a second), in which someone who can write the folder could swap
 * a file in.
 */
async function checkOcrFiles(folder: string, verify: Verify): Promise<void> {
  const cores = (await readdir(folder)).filter((name) => /^tesseract-core.*\.wasm$/.test(name)).sort();
  // The script last: it runs code, and is read soonest after its check.
  for (const name of ['eng.traineddata.gz', ...cores, 'tesseract-worker.cjs']) {
    await checkedFile(folder, name, verify);
  }
}

/** Where each file is: the folder's, or the packages' own. */
function runTimeFiles(folder: string | undefined) {
  if (folder === undefined) {
    return {
      // The integer "best" model: as accurate as "best" at a quarter of the size.
      langPath: join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int'),
      // tesseract.js's own default (its worker script in node_modules).
      workerPath: undefined,
      zxingWasm: require.resolve('zxing-wasm/reader/zxing_reader.wasm'),
    };
  }
  return {
    langPath: folder,
    workerPath: join(folder, 'tesseract-worker.cjs'),
    zxingWasm: join(folder, 'zxing_reader.wasm'),
  };
}

/**
 * Loads pdf.js so that it works bundled into an app too. In Node it parses in a "fake worker" that
 * it imports by a path beside its own module, gone in a bundle: handed the worker's module (bundled
 * with the caller), it never uses the path. Its display layer makes a DOMMatrix as it loads, which
 * Node lacks; pdf.js takes one from `@napi-rs/canvas`, a native module a bundle cannot carry.
 * Reading text draws nothing, so a JavaScript DOMMatrix does, set only where there is none.
 */
async function loadPdfjs(): Promise<typeof Pdfjs> {
  const scope = globalThis as { pdfjsWorker?: object; DOMMatrix?: unknown };
  scope.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  scope.DOMMatrix ??= (await import('@thednp/dommatrix')).default;
  return import('pdfjs-dist/legacy/build/pdf.mjs');
}

async function pdfText(bytes: Uint8Array): Promise<string | undefined> {
  const pdfjs = await loadPdfjs();
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

/**
 * True for the formats zxing-wasm decodes itself (JPEG, PNG, BMP, GIF: what scanners and phones
 * write), in wasm: no native module, so a bundled app reads ID barcodes without sharp.
 */
function zxingDecodes(image: Uint8Array): boolean {
  const [a, b, c] = image;
  return (
    (a === 0xff && b === 0xd8 && c === 0xff) ||
    (a === 0x89 && b === 0x50 && c === 0x4e) ||
    (a === 0x42 && b === 0x4d) ||
    (a === 0x47 && b === 0x49 && c === 0x46)
  );
}

/** Other formats (TIFF, WebP) as pixels, by sharp where it is installed; without it, no barcodes. */
async function rgbaPixels(image: Uint8Array): Promise<Parameters<typeof ZxingReaderModule.readBarcodes>[0]> {
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data), width: info.width, height: info.height, colorSpace: 'srgb' };
}

/** Creates a Node reader. Its OCR worker starts on first use; `close()` ends it. */
export function createNodeReader(options: NodeReaderOptions = {}): DocumentReader {
  const { files: folder, verify } = options;
  const { langPath, workerPath, zxingWasm } = runTimeFiles(folder);
  let worker: Promise<OcrWorker> | undefined;
  const ocrWorker = () =>
    (worker ??= (async () => {
      const { createWorker, OEM } = await import('tesseract.js');
      if (folder !== undefined && verify) await checkOcrFiles(folder, verify);
      return createWorker('eng', OEM.LSTM_ONLY, {
        langPath,
        ...(workerPath !== undefined && { workerPath }),
        gzip: true,
        cacheMethod: 'none',
        // Without a handler tesseract.js also throws a failed job's error where nothing can catch it
        // (an uncaught exception: a kiosk's main process would fall over on a damaged image); the
        // job's own promise still rejects, and that is where it is handled.
        errorHandler: () => undefined,
      });
    })());
  let zxing: Promise<typeof ZxingReaderModule> | undefined;
  const barcodeReader = () =>
    (zxing ??= (async () => {
      const mod = await import('zxing-wasm/reader');
      // Checked, these very bytes are compiled: nothing is read again after the check.
      const wasm =
        folder !== undefined && verify
          ? await checkedFile(folder, 'zxing_reader.wasm', verify)
          : await readFile(zxingWasm);
      await mod.prepareZXingModule({
        overrides: { wasmBinary: wasm.buffer },
        fireImmediately: true,
      });
      return mod;
    })());

  const engine: ReadingEngine = {
    pdfText,
    // A scan has no text layer: its page is the image the scanner wrote, OCRed as a photo is.
    pdfPageImage: (bytes) =>
      loadPdfjs()
        .then((pdfjs) => pdfPageImage(pdfjs, bytes))
        .catch(() => undefined),
    async ocr(image) {
      // Straightened first: a hand-held photo is turned a few degrees, which OCR reads far worse.
      const { data } = await (await ocrWorker()).recognize(Buffer.from(image), { rotateAuto: true });
      return data.text;
    },
    async barcodes(image) {
      const { readBarcodes } = await barcodeReader();
      const found = await readBarcodes(zxingDecodes(image) ? image : await rgbaPixels(image), {
        formats: ['PDF417'],
        tryHarder: true,
        textMode: 'Plain',
      });
      return found.filter((b) => b.isValid).map((b) => b.text);
    },
  };
  return {
    readDocument: (bytes) => readWith(engine, bytes),
    async close() {
      // A worker that never started (a refused file) has nothing to end.
      const w = await worker?.catch(() => undefined);
      worker = undefined;
      await w?.terminate();
    },
  };
}
