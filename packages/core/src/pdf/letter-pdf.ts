/**
 * Image → one Letter page PDF (docs/behaviour.md#image-to-pdf): longest side ≤ 1700 px, JPEG
 * quality 0.82, 612×792 pt portrait or 792×612 when wider than tall, centred and fitted inside 36 pt
 * margins, named `.pdf`. EXIF orientation is honoured, then an optional quarter turn, and an upright
 * JPEG already within 1700 px is embedded as it is (no second lossy encode). The page code here is
 * shared with the multi-page scan (`scan-pdf.ts`).
 */
import { PDFDocument } from 'pdf-lib';
import type { PDFImage } from 'pdf-lib';
import type { FileLike, Logger } from '../ports.js';
import { isConvertibleImage, isHeicFile, pdfFileName } from './convertible.js';
import { readImageInfo } from './image-info.js';
import type { ImageInfo } from './image-info.js';
import type { ImageCheckPort, QuarterTurn, RasterPort } from './raster.js';
import type { PageCrop } from '../straighten/page.js';

/** Longest side of the embedded image, in pixels. */
export const PDF_MAX_IMAGE_SIDE = 1700;
/** JPEG quality of a re-encoded image. */
export const PDF_JPEG_QUALITY = 0.82;
/** Page margin in points. */
export const PDF_MARGIN = 36;
/** US Letter in points, portrait. */
export const LETTER_SIZE = { width: 612, height: 792 } as const;

/** Where the image goes: the page size and the image's rectangle on it, in points (origin bottom-left). */
export interface LetterLayout {
  pageWidth: number;
  pageHeight: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Landscape when the image is wider than tall; fitted (up or down) inside the margins and centred. */
export function letterLayout(imageWidth: number, imageHeight: number): LetterLayout {
  const landscape = imageWidth > imageHeight;
  const pageWidth = landscape ? LETTER_SIZE.height : LETTER_SIZE.width;
  const pageHeight = landscape ? LETTER_SIZE.width : LETTER_SIZE.height;
  const scale = Math.min(
    (pageWidth - 2 * PDF_MARGIN) / imageWidth,
    (pageHeight - 2 * PDF_MARGIN) / imageHeight,
  );
  const width = imageWidth * scale;
  const height = imageHeight * scale;
  return { pageWidth, pageHeight, x: (pageWidth - width) / 2, y: (pageHeight - height) / 2, width, height };
}

/** What the converter needs. */
export interface ImageToPdfPorts {
  /** With `canDecode`, HEIC photos are converted where the platform decodes them; without, never. */
  raster: RasterPort & Partial<Pick<ImageCheckPort, 'canDecode'>>;
  /** Gets the warning when a conversion fails; `console` will do. */
  logger?: Logger;
}

/** Options of {@link imageToLetterPdf}. */
export interface ImageToPdfOptions {
  /** Turns the page clockwise after the EXIF orientation, e.g. for a photo taken sideways. */
  rotate?: QuarterTurn;
  /**
   * Which part of the photo becomes the page: `{ mode: 'find' }` finds the page's edges and
   * straightens it (the whole photo where none are found), `corners` straightens the given outline;
   * the whole photo when absent.
   */
  crop?: PageCrop;
}

/** Bytes that hold the headers of any sane image: EXIF must sit within the first 64 KiB. */
const HEAD_BYTES = 256 * 1024;

/** The first bytes of an image and what they say. */
export interface ImageSource {
  head: Uint8Array;
  info: ImageInfo;
}

/** Reads the headers of an image: enough to decide; a 12 MP photo itself goes to the raster port unread. */
export async function readImageSource(file: FileLike): Promise<ImageSource> {
  const head =
    file.slice && file.size > HEAD_BYTES
      ? new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer())
      : new Uint8Array(await file.arrayBuffer());
  return { head, info: readImageInfo(head) };
}

const TURNS: readonly number[] = [0, 90, 180, 270];

/** The turn, checked: callers from plain JavaScript could pass anything. */
export function quarterTurn(rotate: QuarterTurn | undefined): QuarterTurn {
  if (rotate === undefined) return 0;
  if (!TURNS.includes(rotate))
    throw new RangeError(`rotate must be 0, 90, 180 or 270, not ${String(rotate)}`);
  return rotate;
}

/** Adds a Letter page showing the JPEG, laid out by its own aspect. Throws if pdf-lib cannot embed it. */
async function addJpegPage(doc: PDFDocument, jpeg: Uint8Array): Promise<void> {
  drawLetterPage(doc, await doc.embedJpg(jpeg));
}

/** A new Letter page with the embedded image fitted and centred on it. */
export function drawLetterPage(doc: PDFDocument, image: PDFImage): void {
  const layout = letterLayout(image.width, image.height);
  const page = doc.addPage([layout.pageWidth, layout.pageHeight]);
  page.drawImage(image, { x: layout.x, y: layout.y, width: layout.width, height: layout.height });
}

/**
 * Embeds one image as a page would show it: upright, turned, at most 1700 px, JPEG. An upright,
 * unturned JPEG within 1700 px is embedded as it is (no second lossy encode); anything else, and
 * any JPEG pdf-lib cannot embed, goes through the raster port.
 */
export async function embedPageImage(
  doc: PDFDocument,
  file: FileLike,
  source: ImageSource,
  raster: Pick<RasterPort, 'toJpeg'>,
  rotate: QuarterTurn,
  crop?: PageCrop,
): Promise<PDFImage> {
  const { head, info } = source;
  const longest = Math.max(info.width ?? Infinity, info.height ?? Infinity);
  const whole = !crop || crop.mode === 'whole';
  if (
    whole &&
    info.format === 'jpeg' &&
    info.orientation === 1 &&
    rotate === 0 &&
    longest <= PDF_MAX_IMAGE_SIDE
  ) {
    const bytes = head.length === file.size ? head : new Uint8Array(await file.arrayBuffer());
    const image = await doc.embedJpg(bytes).catch(() => null);
    if (image) return image;
  }
  const jpeg = await raster.toJpeg({
    file,
    format: info.format,
    orientation: info.orientation,
    width: info.width,
    height: info.height,
    rotate,
    maxSide: PDF_MAX_IMAGE_SIDE,
    quality: PDF_JPEG_QUALITY,
    ...(whole ? {} : { crop }),
  });
  return doc.embedJpg(jpeg.bytes);
}

/** Builds the one-page PDF around a JPEG. */
export async function jpegToLetterPdf(jpeg: Uint8Array, title?: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  await addJpegPage(doc, jpeg);
  if (title) doc.setTitle(title);
  return doc.save();
}

/**
 * Converts an image to a Letter PDF when it is convertible (png, jpg, jpeg, webp, bmp; HEIC or HEIF
 * only where `raster.canDecode` says the platform reads it) and returns any other file unchanged. If the conversion fails, a warning is logged and the
 * original file is returned, so an upload never fails because of it.
 *
 * @example In Node, with `sharp` installed:
 * ```ts
 * import { imageToLetterPdf } from '@vita-docs/core';
 * import { createSharpRaster } from '@vita-docs/core/node';
 *
 * const photo = new File([await readFile('w2.jpg')], 'w2.jpg', { type: 'image/jpeg' });
 * const pdf = await imageToLetterPdf(photo, { raster: createSharpRaster() });
 * // pdf.name === 'w2.pdf', pdf.type === 'application/pdf': one Letter page, the photo fitted to it
 * ```
 */
export async function imageToLetterPdf(
  file: FileLike,
  ports: ImageToPdfPorts,
  options: ImageToPdfOptions = {},
): Promise<FileLike> {
  if (!isConvertibleImage(file) && !isHeicFile(file)) return file;
  try {
    const rotate = quarterTurn(options.rotate);
    const source = await readImageSource(file);
    // By its bytes: a HEIC photo named .jpg is still HEIC.
    if (source.info.format === 'heif' && !(await ports.raster.canDecode?.({ file, format: 'heif' })))
      return file;
    const doc = await PDFDocument.create();
    drawLetterPage(doc, await embedPageImage(doc, file, source, ports.raster, rotate, options.crop));
    doc.setTitle(file.name);
    const pdf = await doc.save();
    return new File([pdf as Uint8Array<ArrayBuffer>], pdfFileName(file.name), { type: 'application/pdf' });
  } catch (error) {
    ports.logger?.warn(`Could not convert ${file.name} to PDF; uploading the original.`, error);
    return file;
  }
}

/**
 * `imageToLetterPdf` bound to its ports: the `convert` port of the upload and retake flows.
 * `defaults` apply where a call's options leave them out (e.g. `{ crop: { mode: 'find' } }`).
 */
export function createImageConverter(
  ports: ImageToPdfPorts,
  defaults: ImageToPdfOptions = {},
): (file: FileLike, options?: ImageToPdfOptions) => Promise<FileLike> {
  return (file, options = {}) =>
    imageToLetterPdf(file, ports, {
      ...defaults,
      ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)),
    });
}
