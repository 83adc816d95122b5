/**
 * Image → one Letter page PDF (docs/behaviour.md#image-to-pdf): longest side ≤ 1700 px, JPEG
 * quality 0.82, 612×792 pt portrait or 792×612 when wider than tall, centred and fitted inside 36 pt
 * margins, named `.pdf`. EXIF orientation is honoured, and an upright JPEG already within 1700 px is
 * embedded as it is (no second lossy encode).
 */
import { PDFDocument } from 'pdf-lib';
import type { FileLike, Logger } from '../ports.js';
import { isConvertibleImage, pdfFileName } from './convertible.js';
import { readImageInfo } from './image-info.js';
import type { RasterPort } from './raster.js';

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
  const scale = Math.min((pageWidth - 2 * PDF_MARGIN) / imageWidth, (pageHeight - 2 * PDF_MARGIN) / imageHeight);
  const width = imageWidth * scale;
  const height = imageHeight * scale;
  return { pageWidth, pageHeight, x: (pageWidth - width) / 2, y: (pageHeight - height) / 2, width, height };
}

/** What the converter needs. */
export interface ImageToPdfPorts {
  raster: RasterPort;
  /** Gets the warning when a conversion fails; `console` will do. */
  logger?: Logger;
}

/** Bytes that hold the headers of any sane image: EXIF must sit within the first 64 KiB. */
const HEAD_BYTES = 256 * 1024;

async function readHead(file: FileLike): Promise<Uint8Array> {
  if (file.slice && file.size > HEAD_BYTES) return new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  return new Uint8Array(await file.arrayBuffer());
}

/** Builds the one-page PDF around a JPEG. */
export async function jpegToLetterPdf(jpeg: Uint8Array, title?: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg(jpeg);
  const layout = letterLayout(image.width, image.height);
  const page = doc.addPage([layout.pageWidth, layout.pageHeight]);
  page.drawImage(image, { x: layout.x, y: layout.y, width: layout.width, height: layout.height });
  if (title) doc.setTitle(title);
  return doc.save();
}

/**
 * Converts an image to a Letter PDF when it is convertible (png, jpg, jpeg, webp, bmp; never HEIC or
 * HEIF) and returns any other file unchanged. If the conversion fails, a warning is logged and the
 * original file is returned, so an upload never fails because of it.
 */
export async function imageToLetterPdf(file: FileLike, ports: ImageToPdfPorts): Promise<FileLike> {
  if (!isConvertibleImage(file)) return file;
  try {
    // The header is enough to decide; a 12 MP photo itself goes to the raster port unread.
    const head = await readHead(file);
    const info = readImageInfo(head);
    if (info.format === 'heif') return file; // a HEIC photo with a .jpg name is still HEIC
    let pdf: Uint8Array | null = null;
    const upright = info.orientation === 1;
    if (info.format === 'jpeg' && upright && info.width && info.height) {
      if (Math.max(info.width, info.height) <= PDF_MAX_IMAGE_SIDE) {
        const bytes = head.length === file.size ? head : new Uint8Array(await file.arrayBuffer());
        // pdf-lib cannot embed every JPEG variant; those few take the re-encode path below.
        pdf = await jpegToLetterPdf(bytes, file.name).catch(() => null);
      }
    }
    if (!pdf) {
      const jpeg = await ports.raster.toJpeg({
        file,
        format: info.format,
        orientation: info.orientation,
        maxSide: PDF_MAX_IMAGE_SIDE,
        quality: PDF_JPEG_QUALITY,
      });
      pdf = await jpegToLetterPdf(jpeg.bytes, file.name);
    }
    return new File([pdf as Uint8Array<ArrayBuffer>], pdfFileName(file.name), { type: 'application/pdf' });
  } catch (error) {
    ports.logger?.warn(`Could not convert ${file.name} to PDF; uploading the original.`, error);
    return file;
  }
}

/** `imageToLetterPdf` bound to its ports: the `convert` port of the upload and retake flows. */
export function createImageConverter(ports: ImageToPdfPorts): (file: FileLike) => Promise<FileLike> {
  return (file) => imageToLetterPdf(file, ports);
}
