/**
 * Can this platform turn the file into a PDF page? Any png, jpg, jpeg, webp or bmp, yes. A HEIC or
 * HEIF photo only where the platform decodes it (Safari and a libvips with HEVC do; Chromium, Firefox
 * and sharp's prebuilt binaries do not): elsewhere the app uploads it unchanged and says so with
 * `messages.heicUploadedAsIs`.
 */
import type { FileLike } from '../ports.js';
import { isConvertibleImage, isHeicFile } from './convertible.js';
import { readImageSource } from './letter-pdf.js';
import type { ImageCheckPort } from './raster.js';

/**
 * Whether the file can become a page of a PDF here: convertible images by their bytes, HEIC/HEIF by
 * trying to decode it (in the worker, in browsers). False for anything else, and for a file that
 * cannot be read. Never rejects.
 */
export async function canConvertImage(
  file: FileLike,
  ports: { raster: Pick<ImageCheckPort, 'canDecode'> },
): Promise<boolean> {
  if (!isConvertibleImage(file) && !isHeicFile(file)) return false;
  try {
    const { info } = await readImageSource(file);
    if (info.format === 'heif') return await ports.raster.canDecode({ file, format: info.format });
    return info.format !== 'unknown';
  } catch {
    return false;
  }
}
