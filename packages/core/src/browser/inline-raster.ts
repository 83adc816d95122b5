import type { RasterPort } from '../pdf/raster.js';
import { rasterToJpeg } from './raster-worker.js';
import { asBlob } from './worker-raster.js';

/**
 * A {@link RasterPort} doing the work on the current thread with `createImageBitmap` and
 * `OffscreenCanvas`: for code already running in a worker of its own. On a page prefer
 * `createWorkerRaster`, which keeps the page responsive.
 */
export function createInlineRaster(): RasterPort {
  return { toJpeg: async ({ file, ...request }) => rasterToJpeg({ ...request, blob: await asBlob(file) }) };
}
