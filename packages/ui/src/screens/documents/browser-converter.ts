/**
 * The photo tools with their pixel work in Web Workers: the image → Letter PDF converter, the quality
 * check, the HEIC question and the multi-page scan. Only ever loaded through `lazy-converter.ts`, so
 * pdf-lib and the worker are fetched the first time a photo is queued.
 */
import {
  assessImage,
  canConvertImage,
  createImageConverter,
  imagesToLetterPdf,
  readImageInfo,
} from '@vita-docs/core';
import type { FileLike, Logger, PageCrop, PageOutline, QuarterTurn, RasterPort } from '@vita-docs/core';
import { createWorkerRaster } from '@vita-docs/core/browser';
import type { PhotoTools } from './lazy-converter';

/**
 * The outline each photo's conversion found, by photo: the corner editor starts from it and the
 * queue's thumbnail shows the same page the PDF does, without finding it again.
 */
const found = new WeakMap<object, PageOutline>();
/** The raster of the latest converter, which previews share rather than start workers of their own. */
let shared: RasterPort | null = null;

export function createBrowserConverter(logger: Logger): PhotoTools {
  const worker = createWorkerRaster();
  const raster: typeof worker = {
    ...worker,
    async toJpeg(request) {
      const result = await worker.toJpeg(request);
      if (request.crop?.mode === 'find' && result.outline) found.set(request.file, result.outline);
      return result;
    },
  };
  shared = raster;
  return {
    // Every photo becomes the page found in it, straightened; the whole photo where none is found.
    convert: createImageConverter({ raster, logger }, { crop: { mode: 'find' } }),
    inspect: async (file) => (await assessImage(file, { raster }, { page: true })).warnings,
    canUse: (file) => canConvertImage(file, { raster }),
    buildScan: (pages, name) => imagesToLetterPdf(pages, { raster }, { name, crop: { mode: 'find' } }),
    dispose: () => {
      if (shared === raster) shared = null;
      raster.dispose();
    },
  };
}

/** The part of the photo its PDF shows: the person's choice, else the outline its conversion found. */
function pageCrop(file: FileLike, crop: PageCrop | undefined): PageCrop {
  if (crop) return crop;
  const outline = found.get(file);
  if (!outline) return { mode: 'find' };
  return outline.corners ? { mode: 'corners', corners: outline.corners } : { mode: 'whole' };
}

/**
 * A small JPEG of the photo upright and turned by `rotate`: its page as the PDF shows it (`crop`
 * absent), or the part `crop` names; with the outline used.
 */
export async function pagePreview(
  file: FileLike,
  options: { rotate?: QuarterTurn; crop?: PageCrop; maxSide: number },
): Promise<{ jpeg: Blob; outline: PageOutline | null }> {
  const raster = shared ?? (shared = createWorkerRaster());
  // The headers are within the first 256 KiB (EXIF within 64 KiB); the rest goes to the worker unread.
  const head = file.slice ? file.slice(0, 256 * 1024) : file;
  const info = readImageInfo(new Uint8Array(await head.arrayBuffer()));
  const result = await raster.toJpeg({
    file,
    format: info.format,
    orientation: info.orientation,
    width: info.width,
    height: info.height,
    rotate: options.rotate ?? 0,
    maxSide: options.maxSide,
    quality: 0.85,
    crop: pageCrop(file, options.crop),
  });
  if (options.crop === undefined && result.outline && !found.has(file)) found.set(file, result.outline);
  return {
    jpeg: new Blob([result.bytes as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }),
    outline: options.crop === undefined ? (found.get(file) ?? null) : (result.outline ?? null),
  };
}

/** The outline the photo's conversion found (found now if it has not been converted here). */
export async function foundOutline(file: FileLike): Promise<PageOutline> {
  const known = found.get(file);
  if (known) return known;
  return (await pagePreview(file, { maxSide: 1000 })).outline ?? { corners: null, reason: null };
}
