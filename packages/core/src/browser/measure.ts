/**
 * The quality check's pixel work in a browser worker: decode to a small copy (a JPEG straight to 1/8
 * of its size in the DCT where `ImageDecoder` can), read its pixels, and measure them with the shared
 * code. Only the numbers leave the worker.
 */
import type { DecodeRequest, MeasureRequest } from '../pdf/raster.js';
import type { ImageMetrics } from '../quality/assess.js';
import { copySize, measurePixels } from '../quality/metrics.js';
import type { PixelOrder } from '../quality/metrics.js';
import { measurePagePixels } from '../quality/page-metrics.js';
import { decodeJpegScaled } from './decode.js';
import type { Decoded } from './decode.js';

type Blobbed<T> = Omit<T, 'file'> & { blob: Blob };

/** Interleaved 4-byte pixels of a copy, as read. */
interface CopyPixels {
  pixels: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
  order: PixelOrder;
}

/** The 4-byte formats an `ImageDecoder` frame can be copied out in as they are. */
const FRAME_ORDERS: Partial<Record<VideoPixelFormat, PixelOrder>> = {
  RGBA: {},
  RGBX: { opaque: true },
  BGRA: { blueFirst: true },
  BGRX: { blueFirst: true, opaque: true },
};

/**
 * A decoder's frame copied out as it is (Chromium's JPEG frames are BGRX): no canvas to draw on and
 * read back, which cost as much as the metrics. Null for other formats and for a frame smaller than
 * the copy (the canvas then scales it up to it).
 */
async function framePixels(source: CanvasImageSource, copy: { width: number; height: number }) {
  if (typeof VideoFrame === 'undefined' || !(source instanceof VideoFrame)) return null;
  const order = source.format ? FRAME_ORDERS[source.format] : undefined;
  const { width, height } = source.visibleRect ?? { width: source.codedWidth, height: source.codedHeight };
  if (!order || Math.max(width, height) < Math.max(copy.width, copy.height)) return null;
  const pixels = new Uint8Array(width * height * 4);
  await source.copyTo(pixels, { layout: [{ offset: 0, stride: width * 4 }] });
  return { pixels, width, height, order } satisfies CopyPixels;
}

/** The decoded picture drawn at the copy's size on a canvas and read back, RGBA. */
function canvasPixels(decoded: Decoded, size: { width: number; height: number }): CopyPixels {
  let copy = size;
  // The header gives the size as stored; the decoder may have turned the picture upright.
  if (decoded.width > decoded.height !== copy.width > copy.height)
    copy = { width: copy.height, height: copy.width };
  const canvas = new OffscreenCanvas(copy.width, copy.height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('OffscreenCanvas 2D is not available');
  // Transparent areas read as white paper, as in the PDF.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, copy.width, copy.height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(decoded.source, 0, 0, copy.width, copy.height);
  return { pixels: context.getImageData(0, 0, copy.width, copy.height).data, ...copy, order: {} };
}

/** Decodes to the copy's size (see `copySize`), converts to grey, shrinks to the sample size and measures. */
export async function measureImage(request: Blobbed<MeasureRequest>): Promise<ImageMetrics> {
  const { maxSide } = request;
  let original = request.width && request.height ? { width: request.width, height: request.height } : null;
  let decoded: Decoded | null = null;
  if (request.format === 'jpeg' && original) {
    // Straight to the copy's size in the DCT, as sharp's shrink-on-load does; orientation does not
    // matter to the metrics.
    const copy = copySize(original.width, original.height, maxSide);
    decoded = await decodeJpegScaled(request.blob, copy, 1).catch(() => null);
  }
  if (!decoded) {
    const bitmap = await createImageBitmap(request.blob);
    decoded = { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
  }
  try {
    original ??= { width: decoded.width, height: decoded.height };
    const copy = copySize(original.width, original.height, maxSide);
    const { pixels, width, height, order } =
      (await framePixels(decoded.source, copy)) ?? canvasPixels(decoded, copy);
    const measured = request.page
      ? measurePagePixels(pixels, 4, width, height, maxSide, order)
      : measurePixels(pixels, 4, width, height, maxSide, order);
    return { ...measured, ...original };
  } finally {
    decoded.close();
  }
}

/** Whether `createImageBitmap` decodes the image here (Safari decodes HEIC; Chromium and Firefox do not). */
export async function decodesHere(request: Blobbed<DecodeRequest>): Promise<boolean> {
  try {
    const bitmap = await createImageBitmap(request.blob);
    bitmap.close();
    return true;
  } catch {
    return false;
  }
}
