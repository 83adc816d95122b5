/**
 * The reader port: `readDocument(bytes) → { form?, year?, idExpiry? }`, and what turns the text and
 * barcodes an implementation gets from a file into that answer. Implementations differ only in how
 * they get text (a PDF's text layer, else OCR) and barcodes: the browser's runs in a worker
 * (`@vita-docs/core/browser`), Node's in-process (`@vita-docs/core/node`).
 */
import { declaredPixels } from './declared-size.js';
import { recogniseForm, type ReadableForm } from './forms.js';
import { aamvaExpiry, mrzExpiry } from './ids.js';
import { taxYearOf } from './year.js';

/** What the device read from a document; every field is absent when unsure. */
export interface DocumentReading {
  /** The form it is, named as its category is (`1099-INT`, `13614-C`). */
  form?: ReadableForm;
  /** The tax year printed on it. */
  year?: number;
  /** An ID's expiry, `YYYY-MM-DD`: the only thing read from an ID that is kept. */
  idExpiry?: string;
}

/** Reads documents on the device; nothing is sent anywhere. */
export interface DocumentReader {
  readDocument(bytes: Uint8Array): Promise<DocumentReading>;
  /** Ends the reader's workers. */
  close(): Promise<void>;
}

/** What an implementation supplies: the ways it gets text and barcodes from bytes. */
export interface ReadingEngine {
  /** A PDF's text layer, or undefined when it has none (a scan): then its first page is OCRed. */
  pdfText(bytes: Uint8Array): Promise<string | undefined>;
  /** A PDF's first page as an image, for OCR; undefined where the platform cannot render one. */
  pdfPageImage?(bytes: Uint8Array): Promise<Uint8Array | undefined>;
  ocr(image: Uint8Array): Promise<string>;
  /** The texts of the PDF417 barcodes in an image. */
  barcodes(image: Uint8Array): Promise<string[]>;
}

/** True for a PDF's bytes (`%PDF-`). */
function isPdf(bytes: Uint8Array): boolean {
  return bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46;
}

/** The reading of a page's text and the barcodes found on it. */
export function readingFromText(text: string, barcodes: readonly string[] = []): DocumentReading {
  const form = recogniseForm(text);
  const year = form ? taxYearOf(text) : undefined;
  const idExpiry = barcodes.map(aamvaExpiry).find((d) => d !== undefined) ?? mrzExpiry(text);
  return {
    ...(form && { form }),
    ...(year !== undefined && { year }),
    ...(idExpiry !== undefined && { idExpiry }),
  };
}

/**
 * Reads `bytes` with `engine`: a PDF by its text layer (OCR of its first page when it has none), an
 * image by OCR and its barcodes. A barcode is looked for before OCR: an ID's back has no title.
 */
export async function readWith(engine: ReadingEngine, bytes: Uint8Array): Promise<DocumentReading> {
  if (isPdf(bytes)) {
    const text = await engine.pdfText(bytes);
    if (text !== undefined) return readingFromText(text);
    const page = await engine.pdfPageImage?.(bytes);
    return page ? readImage(engine, page) : {};
  }
  return readImage(engine, bytes);
}

/**
 * More pixels than a page photo or a scan holds (a 50 MP phone photo, a letter page at 600 dpi is
 * 34 MP): such an image is left unread. Decoding one costs four bytes a pixel at once (a 20 000 px
 * square PNG of 0.4 MB asked for gigabytes), which a hostile file in a shared scanner folder would
 * otherwise spend on the desk's memory and main thread.
 */
export const MAX_READ_PIXELS = 100_000_000;

async function readImage(engine: ReadingEngine, image: Uint8Array): Promise<DocumentReading> {
  if (declaredPixels(image) > MAX_READ_PIXELS) return {};
  const barcodes = await engine.barcodes(image).catch(() => []);
  const fromBarcode = barcodes.map(aamvaExpiry).find((d) => d !== undefined);
  // The back of a license is its barcode: nothing else on it names a form.
  if (fromBarcode) return { form: 'License/Other Identification', idExpiry: fromBarcode };
  return readingFromText(await engine.ocr(image), barcodes);
}
