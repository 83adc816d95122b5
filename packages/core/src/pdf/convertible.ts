import { fileExtension } from '../domain/files.js';

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.bmp']);
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/pjpeg',
  'image/webp',
  'image/bmp',
  'image/x-ms-bmp',
]);
const NEVER_EXTENSIONS = new Set(['.heic', '.heif']);

/**
 * Whether a file is converted to PDF by its name and type alone: png, jpg, jpeg, webp or bmp by
 * extension or by type, and not HEIC or HEIF whatever the other field says. A HEIC photo is converted
 * only where the platform decodes it (see `imageToLetterPdf` and `canConvertImage`).
 */
export function isConvertibleImage(file: { name: string; type: string }): boolean {
  const ext = fileExtension(file.name).toLowerCase();
  const type = file.type.toLowerCase();
  if (NEVER_EXTENSIONS.has(ext) || type === 'image/heic' || type === 'image/heif') return false;
  return IMAGE_EXTENSIONS.has(ext) || IMAGE_TYPES.has(type);
}

const HEIF_EXTENSIONS = new Set(['.heic', '.heif', '.hif']);
const HEIF_TYPES = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);

/** A HEIC or HEIF photo by its name or type (the bytes are checked by `canConvertImage`). */
export function isHeicFile(file: { name: string; type: string }): boolean {
  return (
    HEIF_EXTENSIONS.has(fileExtension(file.name).toLowerCase()) || HEIF_TYPES.has(file.type.toLowerCase())
  );
}

/** A photo as the queue treats it: one that converts by name and type, or a HEIC/HEIF one. */
export function isPhotoFile(file: { name: string; type: string }): boolean {
  return isConvertibleImage(file) || isHeicFile(file);
}

/** The converted file's name: the original with a `.pdf` extension. */
export function pdfFileName(name: string): string {
  const ext = fileExtension(name);
  return `${ext ? name.slice(0, -ext.length) : name}.pdf`;
}
