/**
 * The reader host: the Node reader's worker thread (`createNodeReader` starts it). pdf.js (a PDF's
 * text, a scan's page image), zxing-wasm (barcodes) and `readWith` run here, never in the caller's
 * thread: a hostile file stalls or fills this thread, which the caller can end, not the caller (the
 * kiosk's main process). OCR's tesseract.js worker is this thread's own, so its death (its heap
 * full on a hostile image: tesseract.js listens for no error of its thread) ends this thread, which
 * the caller hears of, rather than being thrown in the caller; ending this thread ends it too. The
 * zxing wasm comes as bytes the caller checked (`workerData`); tesseract.js reads its files itself,
 * asked of the caller to check right before.
 */
// pdf.js ships no types for its worker script; this declares the one module the host imports.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./pdf-worker.node.d.ts" />
import { parentPort, workerData } from 'node:worker_threads';
import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Worker as OcrWorker } from 'tesseract.js';
import type * as ZxingReaderModule from 'zxing-wasm/reader';
import type { Pixels } from '../straighten/warp.js';
import { PDF417_OPTIONS, readPdf417, type ReadPixels } from './barcodes.js';
import { pgmRgba } from './page-image.js';
import { pdfPageImage } from './pdf-image.js';
import { MAX_READ_PIXELS, readWith, type DocumentReading, type ReadingEngine } from './reader.js';

/** What the host is started with. */
export interface HostData {
  /** tesseract.js's files: the English data's folder, its worker script (default: its own). */
  ocr: { langPath: string; workerPath?: string };
  /** zxing's reader wasm, checked by the caller; absent when refused or unreadable (then `zxingError`). */
  zxingWasm?: ArrayBuffer;
  zxingError?: string;
}

/** The caller's messages: a document to read, or whether the OCR files passed their check. */
export type ToHost =
  | { type: 'read'; id: number; bytes: Uint8Array }
  | { type: 'ocr-checked' }
  | { type: 'ocr-refused'; error: string };

/** The host's messages: a document taken, its reading (or why it failed), or "check the OCR files". */
export type FromHost =
  | { type: 'read-started'; id: number }
  | { type: 'read-done'; id: number; reading: DocumentReading }
  | { type: 'read-failed'; id: number; error: string }
  | { type: 'ocr-check' };

/**
 * Loads pdf.js so that it works bundled into an app too. In Node it parses in a "fake worker" that
 * it imports by a path beside its own module, gone in a bundle: handed the worker's module (bundled
 * with the host), it never uses the path. Its display layer makes a DOMMatrix as it loads, which
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
async function rgbaPixels(image: Uint8Array): Promise<Pixels> {
  const { default: sharp } = await import('sharp');
  // sharp's own limit (268 MP) would let a header ask for a gigabyte; the reader's cap is lower.
  const { data, info } = await sharp(image, { limitInputPixels: MAX_READ_PIXELS })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 4 };
}

function serve(port: NonNullable<typeof parentPort>, data: HostData): void {
  let zxing: Promise<typeof ZxingReaderModule> | undefined;
  const barcodeReader = () =>
    (zxing ??= (async () => {
      if (data.zxingWasm === undefined) throw new Error(data.zxingError ?? 'No barcode wasm.');
      const mod = await import('zxing-wasm/reader');
      await mod.prepareZXingModule({ overrides: { wasmBinary: data.zxingWasm }, fireImmediately: true });
      return mod;
    })());

  // The OCR files' check, asked of the caller (whose `verify` cannot cross threads) once, right
  // before tesseract.js reads them; a refusal fails every OCR of this host, as if the files were absent.
  let ocrChecked: { resolve: () => void; reject: (error: Error) => void } | undefined;
  let ocrWorker: Promise<OcrWorker> | undefined;
  const ocr = () =>
    (ocrWorker ??= (async () => {
      const { createWorker, OEM } = await import('tesseract.js');
      await new Promise<void>((resolve, reject) => {
        ocrChecked = { resolve, reject };
        port.postMessage({ type: 'ocr-check' } satisfies FromHost);
      });
      return createWorker('eng', OEM.LSTM_ONLY, {
        ...data.ocr,
        gzip: true,
        cacheMethod: 'none',
        // Without a handler tesseract.js also throws a failed job's error where nothing catches it;
        // the job's own promise still rejects, and that is where it is handled.
        errorHandler: () => undefined,
      });
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
      const buffer = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
      const { data: read } = await (await ocr()).recognize(buffer, { rotateAuto: true });
      return read.text;
    },
    async barcodes(image) {
      const { readBarcodes } = await barcodeReader();
      const read: ReadPixels = ({ data, width, height }) =>
        readBarcodes(
          { data: new Uint8ClampedArray(data), width, height, colorSpace: 'srgb' },
          PDF417_OPTIONS,
        );
      // A scanned PDF's page (a PGM, which neither zxing nor sharp decodes) and images sharp decodes
      // are pixels here, read level again where slanted; JPEG, PNG and the like zxing decodes itself.
      const scan = pgmRgba(image);
      if (scan) return readPdf417({ ...scan, channels: 4 }, read);
      if (!zxingDecodes(image)) return readPdf417(await rgbaPixels(image), read);
      const found = await readBarcodes(image, PDF417_OPTIONS);
      return found.filter((b) => b.isValid).map((b) => b.text);
    },
  };

  port.on('message', (message: ToHost) => {
    if (message.type === 'read') {
      const { id } = message;
      // Said before reading starts: the caller's time limit counts from here, not from this
      // thread's start (its modules loading, on a loaded machine for seconds).
      port.postMessage({ type: 'read-started', id } satisfies FromHost);
      readWith(engine, message.bytes).then(
        (reading) => port.postMessage({ type: 'read-done', id, reading } satisfies FromHost),
        (error: unknown) =>
          port.postMessage({
            type: 'read-failed',
            id,
            error: error instanceof Error ? error.message : String(error),
          } satisfies FromHost),
      );
      return;
    }
    const checked = ocrChecked;
    ocrChecked = undefined;
    if (message.type === 'ocr-checked') checked?.resolve();
    else checked?.reject(new Error(message.error));
  });
}

if (parentPort) serve(parentPort, workerData as HostData);
