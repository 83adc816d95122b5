import { fileExtension } from '../domain/files.js';

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.bmp']);
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg', 'image/webp', 'image/bmp', 'image/x-ms-bmp']);
const NEVER_EXTENSIONS = new Set(['.heic', '.heif']);

/**
 * Whether a file is converted to PDF when the toggle is on: png, jpg, jpeg, webp or bmp by
 * extension or by type. HEIC and HEIF never are, whatever the other field says.
 */
export function isConvertibleImage(file: { name: string; type: string }): boolean {
  const ext = fileExtension(file.name).toLowerCase();
  const type = file.type.toLowerCase();
  if (NEVER_EXTENSIONS.has(ext) || type === 'image/heic' || type === 'image/heif') return false;
  return IMAGE_EXTENSIONS.has(ext) || IMAGE_TYPES.has(type);
}

/** The converted file's name: the original with a `.pdf` extension. */
export function pdfFileName(name: string): string {
  const ext = fileExtension(name);
  return `${ext ? name.slice(0, -ext.length) : name}.pdf`;
}
