/**
 * The quality check's pixel work in a browser worker: decode to a small copy (a JPEG straight to 1/8
 * of its size in the DCT where `ImageDecoder` can), read its pixels off an OffscreenCanvas, and
 * measure them with the shared code. Only the numbers leave the worker.
 */
import type { DecodeRequest, MeasureRequest } from '../pdf/raster.js';
import type { ImageMetrics } from '../quality/assess.js';
import { copySize, measurePixels } from '../quality/metrics.js';
import { decodeJpegScaled } from './decode.js';
import type { Decoded } from './decode.js';

type Blobbed<T> = Omit<T, 'file'> & { blob: Blob };

/** Decodes, shrinks to the sample size (see `copySize`), converts to grey and measures. */
export async function measureImage(request: Blobbed<MeasureRequest>): Promise<ImageMetrics> {
  const { maxSide } = request;
  let original = request.width && request.height ? { width: request.width, height: request.height } : null;
  let decoded: Decoded | null = null;
  if (request.format === 'jpeg' && original) {
    // Straight to the copy's size in the DCT, as sharp's shrink-on-load does; orientation does not
    // matter to the metrics.
    const copy = copySize(original.width, original.height, maxSide);
    decoded = await decodeJpegScaled(request.blob, Math.max(copy.width, copy.height), 1).catch(() => null);
  }
  if (!decoded) {
    const bitmap = await createImageBitmap(request.blob);
    decoded = { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
  }
  try {
    original ??= { width: decoded.width, height: decoded.height };
    let copy = copySize(original.width, original.height, maxSide);
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
    const pixels = context.getImageData(0, 0, copy.width, copy.height).data;
    return { ...measurePixels(pixels, 4, copy.width, copy.height, maxSide), ...original };
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
