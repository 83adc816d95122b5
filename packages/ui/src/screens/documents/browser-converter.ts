/**
 * The photo tools with their pixel work in Web Workers: the image → Letter PDF converter, the quality
 * check, the HEIC question and the multi-page scan. Only ever loaded through `lazy-converter.ts`, so
 * pdf-lib and the worker are fetched the first time a photo is queued.
 */
import { assessImage, canConvertImage, createImageConverter, imagesToLetterPdf } from '@vita-docs/core';
import type { Logger } from '@vita-docs/core';
import { createWorkerRaster } from '@vita-docs/core/browser';
import type { PhotoTools } from './lazy-converter';

export function createBrowserConverter(logger: Logger): PhotoTools {
  const raster = createWorkerRaster();
  return {
    // Every photo becomes the page found in it, straightened; the whole photo where none is found.
    convert: createImageConverter({ raster, logger }, { crop: { mode: 'find' } }),
    inspect: async (file) => (await assessImage(file, { raster }, { page: true })).warnings,
    canUse: (file) => canConvertImage(file, { raster }),
    buildScan: (pages, name) => imagesToLetterPdf(pages, { raster }, { name, crop: { mode: 'find' } }),
    dispose: () => raster.dispose(),
  };
}
