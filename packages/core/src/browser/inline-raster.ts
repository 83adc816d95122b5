import type { ImageCheckPort, PagePixelsPort, RasterPort } from '../pdf/raster.js';
import { decodesHere, measureImage } from './measure.js';
import { pagePixels, rasterToJpeg } from './raster-worker.js';
import { asBlob } from './worker-raster.js';

/**
 * The ports doing the work on the current thread with `createImageBitmap` and `OffscreenCanvas`:
 * for code already running in a worker of its own. On a page prefer `createWorkerRaster`, which keeps
 * the page responsive.
 */
export function createInlineRaster(): RasterPort & ImageCheckPort & PagePixelsPort {
  return {
    toJpeg: async ({ file, ...request }) => rasterToJpeg({ ...request, blob: await asBlob(file) }),
    measure: async ({ file, ...request }) => measureImage({ ...request, blob: await asBlob(file) }),
    pagePixels: async ({ file, ...request }) => pagePixels({ ...request, blob: await asBlob(file) }),
    canDecode: ({ file, ...request }) =>
      asBlob(file).then(
        (blob) => decodesHere({ ...request, blob }),
        () => false,
      ),
  };
}
