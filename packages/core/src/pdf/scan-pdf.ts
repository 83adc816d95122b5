/**
 * Several photos → one Letter PDF, a page per photo in the given order: each page by the rules of the
 * single-photo converter (at most 1700 px, JPEG 0.82, 36 pt margins, oriented by its own aspect), each
 * with its own EXIF orientation and optional quarter turn. A PDF among them (a scanner that saves a
 * PDF per page) adds its pages as they are, turned the same way.
 */
import { degrees, PDFDocument } from 'pdf-lib';
import type { PDFImage, PDFPage } from 'pdf-lib';
import type { FileLike } from '../ports.js';
import { pdfFileName } from './convertible.js';
import { drawLetterPage, embedPageImage, quarterTurn, readImageSource } from './letter-pdf.js';
import type { RasterPort } from './raster.js';
import { MAX_SCAN_PAGES } from './scan-page.js';
import type { ScanPage } from './scan-page.js';
import type { PageCrop } from '../straighten/page.js';

/**
 * How many pages are read and rasterised at once: enough to keep two workers (or sharp's threads)
 * busy while the previous page is added, few enough that 30 large photos are never decoded together.
 */
const PAGES_IN_FLIGHT = 3;

/** Options of {@link imagesToLetterPdf}. */
export interface ScanOptions {
  /** The PDF's file name (and title), `.pdf` added when missing; by default the first photo's name with `.pdf`. */
  name?: string;
  /** Which part of each photo becomes its page, where the page does not say (see `ImageToPdfOptions.crop`). */
  crop?: PageCrop;
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

const PDF_MAGIC = '%PDF-';

/** The pages of a PDF given as a scan page, copied into `doc` and turned by `rotate`. */
async function copyPdfPages(doc: PDFDocument, bytes: Uint8Array, rotate: number): Promise<PDFPage[]> {
  const source = await PDFDocument.load(bytes, { updateMetadata: false });
  const pages = await doc.copyPages(source, source.getPageIndices());
  for (const page of pages) page.setRotation(degrees((page.getRotation().angle + rotate) % 360));
  return pages;
}

/**
 * Builds one Letter PDF from 1 to 30 photos (or PDFs). Any image the raster port can decode is accepted, HEIC
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
  if (pages.length > MAX_SCAN_PAGES)
    throw new RangeError(`A scan has at most ${MAX_SCAN_PAGES} pages, not ${pages.length}`);
  const turns = pages.map((page) => quarterTurn(page.rotate));
  const doc = await PDFDocument.create();

  const images: Promise<PDFImage | PDFPage[]>[] = [];
  const start = (index: number) => {
    const page = pages[index];
    if (!page) return;
    const turn = turns[index] ?? 0;
    const image = readImageSource(page.file)
      .then(async (source) => {
        if (new TextDecoder().decode(source.head.subarray(0, PDF_MAGIC.length)) !== PDF_MAGIC) {
          return embedPageImage(doc, page.file, source, ports.raster, turn, page.crop ?? options.crop);
        }
        const bytes =
          source.head.length === page.file.size ? source.head : new Uint8Array(await page.file.arrayBuffer());
        return copyPdfPages(doc, bytes, turn);
      })
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
    const image = await images[index];
    if (Array.isArray(image)) for (const copied of image) doc.addPage(copied);
    else if (image) drawLetterPage(doc, image);
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
