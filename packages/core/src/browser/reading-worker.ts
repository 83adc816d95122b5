// pdf.js ships no types for its worker script; this declares the one module the reader imports.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./pdf-worker.d.ts" />
/**
 * The Web Worker behind `createWorkerReader`: reads a document off the page's thread. A PDF's text
 * by pdf.js (run in this worker, not a worker of its own), OCR by tesseract.js (whose own worker
 * this one starts), PDF417 barcodes by zxing-wasm. Every file they need comes from the app's own
 * origin (`ReaderAssets`); nothing is fetched from anywhere else, and nothing read is sent.
 */
import type * as Pdfjs from 'pdfjs-dist';
import type { Worker as OcrWorker } from 'tesseract.js';
import type * as ZxingReaderModule from 'zxing-wasm/reader';
import { QUALITY_SAMPLE_SIDE, grayFromPixels } from '../quality/metrics.js';
import { PDF417_OPTIONS, readPdf417, type ReadPixels } from '../reading/barcodes.js';
import { pgmOf, pgmRgba, straightenedGray, type GrayImage } from '../reading/page-image.js';
import { pdfPageImage } from '../reading/pdf-image.js';
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

/** The longest side a photo is read at: a Letter page at about 200 dpi, more than OCR needs. */
const READ_SIDE = 2200;
/** The longest side a page found in a photo is enlarged to: a card photographed whole is far smaller. */
const MIN_PAGE_SIDE = 1200;

/** A photo decoded by the browser: its pixels (for barcodes) and its page straightened (for OCR). */
interface DecodedPhoto {
  pixels: ImageData;
  /** The straightened page, grey (made once, when first asked for). */
  page: () => GrayImage;
}

function canvas2d(width: number, height: number): OffscreenCanvasRenderingContext2D {
  const context = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('OffscreenCanvas 2D is not available');
  return context;
}

/**
 * The image decoded by the browser (upright by its EXIF orientation, at most {@link READ_SIDE}), or
 * undefined when the browser cannot decode it (a TIFF, a HEIC): then nothing is read from it. It is
 * decoded here rather than handed to tesseract as it is because leptonica reads fewer formats than
 * the upload accepts and reports the ones it cannot on the console, and because OCR needs the
 * straightened page, not the photo.
 */
async function decodePhoto(image: Uint8Array): Promise<DecodedPhoto | undefined> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([image as Uint8Array<ArrayBuffer>]));
  } catch {
    return undefined;
  }
  try {
    const scale = Math.min(1, READ_SIDE / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas2d(width, height);
    // Transparent areas read as paper, not as black ink.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, width, height);
    const pixels = context.getImageData(0, 0, width, height);
    const copyScale = Math.min(1, QUALITY_SAMPLE_SIDE / Math.max(width, height));
    const w = Math.max(1, Math.round(width * copyScale));
    const h = Math.max(1, Math.round(height * copyScale));
    const small = canvas2d(w, h);
    small.drawImage(context.canvas, 0, 0, w, h);
    const smallGray = grayFromPixels(small.getImageData(0, 0, w, h).data, 4);
    let page: GrayImage | undefined;
    return {
      pixels,
      page: () =>
        (page ??= straightenedGray(
          { gray: grayFromPixels(pixels.data, 4), width, height },
          { gray: smallGray, width: w, height: h },
          { minSide: MIN_PAGE_SIDE, maxSide: READ_SIDE },
        )),
    };
  } finally {
    bitmap.close();
  }
}

/** The last image decoded: OCR and the barcode reader are asked about the same image in turn. */
let lastDecoded: { image: Uint8Array; photo: Promise<DecodedPhoto | undefined> } | undefined;

function decoded(image: Uint8Array): Promise<DecodedPhoto | undefined> {
  if (lastDecoded?.image !== image) lastDecoded = { image, photo: decodePhoto(image) };
  return lastDecoded.photo;
}

/** pdf.js, its worker code run in this thread (it looks for `pdfjsWorker`): this is a worker already. */
async function loadPdfjs(): Promise<typeof Pdfjs> {
  const scope = globalThis as { pdfjsWorker?: object };
  scope.pdfjsWorker ??= await import('pdfjs-dist/build/pdf.worker.min.mjs');
  return import('pdfjs-dist');
}

/** True for a grey PGM's bytes (`P5`): the page of a scanned PDF, made by {@link pdfPageImage}. */
function isPgm(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x35;
}

function engine(assets: ReaderAssets): ReadingEngine {
  return {
    async pdfText(bytes) {
      const pdfjs = await loadPdfjs();
      // A copy: pdf.js takes the buffer it is given, and a scan's bytes are read again for its image.
      const doc = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 })
        .promise;
      try {
        const content = await (await doc.getPage(1)).getTextContent();
        const text = content.items.map((i) => ('str' in i ? i.str + (i.hasEOL ? '\n' : ' ') : '')).join('');
        return text.trim().length > 20 ? text : undefined;
      } finally {
        await doc.destroy();
      }
    },
    // A scan has no text layer: its page is the image the scanner wrote, OCRed as a photo is.
    pdfPageImage: (bytes) =>
      loadPdfjs().then(
        (pdfjs) => pdfPageImage(pdfjs, bytes),
        () => undefined,
      ),
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
          // page ("Estimating resolution as …"). A phone photo of a page is about 300 dpi. The engine's
          // other remarks ("Detected 43 diacritics") go to its debug file, which is nowhere: a page's
          // console is for the app's own errors.
          await worker.setParameters({ user_defined_dpi: '300', debug_file: '/dev/null' });
          return worker;
        }),
      );
      // A scan's page is grey already and upright (leptonica reads the PGM in wasm; the browser could
      // not decode it); a photo's page is straightened first. What is left of a turn OCR turns itself.
      let pgm = image;
      if (!isPgm(image)) {
        const photo = await decoded(image);
        if (!photo) return '';
        pgm = pgmOf(photo.page());
      }
      const page = new Blob([pgm as Uint8Array<ArrayBuffer>]);
      const { data } = await (await ocr).recognize(page, { rotateAuto: true });
      return data.text;
    },
    async barcodes(image) {
      zxing ??= import('zxing-wasm/reader').then(async (mod) => {
        mod.prepareZXingModule({ overrides: { locateFile: () => assets.barcodeWasm } });
        return mod;
      });
      const { readBarcodes } = await zxing;
      const read: ReadPixels = ({ data, width, height }) => {
        // Every source here (the decoded photo, a scan's page, a level copy) is clamped already.
        const clamped = data instanceof Uint8ClampedArray ? data : new Uint8ClampedArray(data);
        return readBarcodes(
          new ImageData(clamped as Uint8ClampedArray<ArrayBuffer>, width, height),
          PDF417_OPTIONS,
        );
      };
      const scan = isPgm(image) ? pgmRgba(image) : undefined;
      const pixels = scan ?? (await decoded(image))?.pixels;
      if (!pixels) return [];
      // Named one by one: an ImageData's fields are getters, which a spread would not copy.
      const { data, width, height } = pixels;
      return readPdf417({ data, width, height, channels: 4 }, read);
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
  } finally {
    lastDecoded = undefined;
  }
};
