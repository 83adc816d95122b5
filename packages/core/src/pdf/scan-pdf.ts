/**
 * Several photos → one Letter PDF, a page per photo in the given order: each page by the rules of the
 * single-photo converter (at most 1700 px, JPEG 0.82, 36 pt margins, oriented by its own aspect), each
 * with its own EXIF orientation and optional quarter turn.
 */
import { PDFDocument } from 'pdf-lib';
import type { PDFImage } from 'pdf-lib';
import type { FileLike } from '../ports.js';
import { pdfFileName } from './convertible.js';
import { drawLetterPage, embedPageImage, quarterTurn, readImageSource } from './letter-pdf.js';
import type { QuarterTurn, RasterPort } from './raster.js';

/** The most pages one scan may have. */
export const MAX_SCAN_PAGES = 30;

/**
 * How many pages are read and rasterised at once: enough to keep two workers (or sharp's threads)
 * busy while the previous page is added, few enough that 30 large photos are never decoded together.
 */
const PAGES_IN_FLIGHT = 3;

/** One photo of a scan. */
export interface ScanPage {
  file: FileLike;
  /** Turned clockwise after its EXIF orientation. */
  rotate?: QuarterTurn;
}

/** Options of {@link imagesToLetterPdf}. */
export interface ScanOptions {
  /** The PDF's file name (and title), `.pdf` added when missing; by default the first photo's name with `.pdf`. */
  name?: string;
}

/** A page that could not be made; `page` counts from 1, as a person would. */
export class ScanPageError extends Error {
  override readonly name = 'ScanPageError';
  constructor(
    readonly page: number,
    readonly file: FileLike,
    options: { cause: unknown },
  ) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`Page ${page} (${file.name}) could not be converted: ${reason}`, options);
  }
}

/**
 * Builds one Letter PDF from 1 to 30 photos. Any image the raster port can decode is accepted, HEIC
 * too where the platform reads it (see `canConvertImage`). Rejects with a `RangeError` for no pages or
 * too many, and with a {@link ScanPageError} naming the first page that failed; there is no partial PDF.
 */
export async function imagesToLetterPdf(
  pages: readonly ScanPage[],
  ports: { raster: Pick<RasterPort, 'toJpeg'> },
  options: ScanOptions = {},
): Promise<File> {
  const first = pages[0];
  if (!first) throw new RangeError('A scan needs at least one page');
  if (pages.length > MAX_SCAN_PAGES) throw new RangeError(`A scan has at most ${MAX_SCAN_PAGES} pages, not ${pages.length}`);
  const turns = pages.map((page) => quarterTurn(page.rotate));
  const doc = await PDFDocument.create();

  const images: Promise<PDFImage>[] = [];
  const start = (index: number) => {
    const page = pages[index];
    if (!page) return;
    const image = readImageSource(page.file)
      .then((source) => embedPageImage(doc, page.file, source, ports.raster, turns[index] ?? 0))
      .catch((cause: unknown) => {
        throw new ScanPageError(index + 1, page.file, { cause });
      });
    // Awaited in order below; until then a failure must not count as unhandled.
    image.catch(() => undefined);
    images.push(image);
  };

  // Pages are embedded as they finish but drawn strictly in order.
  for (let index = 0; index < pages.length; index++) {
    while (images.length < Math.min(pages.length, index + PAGES_IN_FLIGHT)) start(images.length);
    const image = images[index];
    if (image) drawLetterPage(doc, await image);
  }
  const name = !options.name
    ? pdfFileName(first.file.name)
    : options.name.toLowerCase().endsWith('.pdf')
      ? options.name
      : `${options.name}.pdf`;
  doc.setTitle(name);
  // A few objects per tick: writing ten 12 MP pages' JPEGs in one go could hold a phone's main
  // thread for longer than a frame.
  const pdf = await doc.save({ objectsPerTick: 4 });
  return new File([pdf as Uint8Array<ArrayBuffer>], name, { type: 'application/pdf' });
}
