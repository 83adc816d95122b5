import { fileExtension } from '@vita-docs/core';
import type { FileLike } from '@vita-docs/core';

/** Extensions of the server's allow-list (PDF, JPEG, PNG, WebP, BMP, HEIC/HEIF, TIFF). */
const EXTENSIONS = new Set([
  '.pdf',
  '.jpg',
  '.jpeg',
  '.jpe',
  '.png',
  '.webp',
  '.bmp',
  '.heic',
  '.heif',
  '.hif',
  '.tif',
  '.tiff',
]);

/**
 * Whether a file may join the queue: a PDF or an image, by type or extension. The pickers already
 * filter; a drop does not, and a Word file refused only after its upload would waste the wait.
 */
export function isUploadable(file: Pick<FileLike, 'name' | 'type'>): boolean {
  const type = file.type.toLowerCase();
  return (
    type === 'application/pdf' ||
    type.startsWith('image/') ||
    EXTENSIONS.has(fileExtension(file.name).toLowerCase())
  );
}
