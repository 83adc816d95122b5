/**
 * The image → Letter PDF converter with its pixel work in a Web Worker. Only ever loaded through
 * `lazy-converter.ts`, so pdf-lib and the worker are fetched the first time a photo is converted.
 */
import { createImageConverter } from '@vita-docs/core';
import type { ConvertImage, Logger } from '@vita-docs/core';
import { createWorkerRaster } from '@vita-docs/core/browser';

export function createBrowserConverter(logger: Logger): { convert: ConvertImage; dispose: () => void } {
  const raster = createWorkerRaster();
  return { convert: createImageConverter({ raster, logger }), dispose: () => raster.dispose() };
}
