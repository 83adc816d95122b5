/**
 * Can this platform turn the file into a PDF page? Any png, jpg, jpeg, webp or bmp, yes. A HEIC or
 * HEIF photo only where the platform decodes it (Safari and a libvips with HEVC do; Chromium, Firefox
 * and sharp's prebuilt binaries do not): elsewhere the app uploads it unchanged and says so with
 * `messages.heicUploadedAsIs`.
 */
import { fileExtension } from '../domain/files.js';
import type { FileLike } from '../ports.js';
import { isConvertibleImage } from './convertible.js';
import { readImageSource } from './letter-pdf.js';
import type { ImageCheckPort } from './raster.js';

const HEIF_EXTENSIONS = new Set(['.heic', '.heif', '.hif']);
const HEIF_TYPES = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);

/** A HEIC or HEIF photo by its name or type (the bytes are checked by `canConvertImage`). */
export function isHeicFile(file: { name: string; type: string }): boolean {
  return HEIF_EXTENSIONS.has(fileExtension(file.name).toLowerCase()) || HEIF_TYPES.has(file.type.toLowerCase());
}

/**
 * Whether the file can become a page of a PDF here: convertible images by their bytes, HEIC/HEIF by
 * trying to decode it (in the worker, in browsers). False for anything else, and for a file that
 * cannot be read. Never rejects.
 */
export async function canConvertImage(file: FileLike, ports: { raster: Pick<ImageCheckPort, 'canDecode'> }): Promise<boolean> {
  if (!isConvertibleImage(file) && !isHeicFile(file)) return false;
  try {
    const { info } = await readImageSource(file);
    if (info.format === 'heif') return await ports.raster.canDecode({ file, format: info.format });
    return info.format !== 'unknown';
  } catch {
    return false;
  }
}
