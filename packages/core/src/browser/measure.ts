/**
 * The quality check's pixel work in a browser worker: decode to a small copy (a JPEG straight to 1/8
 * of its size where `ImageDecoder` can), read its pixels off an OffscreenCanvas and measure them with
 * the shared metrics. Only the numbers leave the worker.
 */
import type { DecodeRequest, MeasureRequest } from '../pdf/raster.js';
import type { ImageMetrics } from '../quality/assess.js';
import { grayFromPixels, measureGray, sampleSize } from '../quality/metrics.js';
import { decodeJpegScaled } from './decode.js';
import type { Decoded } from './decode.js';

type Blobbed<T> = Omit<T, 'file'> & { blob: Blob };

async function decode(request: Blobbed<MeasureRequest>): Promise<Decoded> {
  const { width, height } = request;
  if (request.format === 'jpeg' && width && height) {
    // Straight to about the sample size: the orientation does not matter to the metrics.
    const longSide = Math.min(request.maxSide, Math.max(width, height));
    const small = await decodeJpegScaled(request.blob, longSide, 1).catch(() => null);
    if (small) return small;
  }
  const bitmap = await createImageBitmap(request.blob);
  return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
}

/** Decodes, downscales to at most `maxSide`, converts to grey and measures. */
export async function measureImage(request: Blobbed<MeasureRequest>): Promise<ImageMetrics> {
  const decoded = await decode(request);
  try {
    const sample = sampleSize(decoded.width, decoded.height, request.maxSide);
    const canvas = new OffscreenCanvas(sample.width, sample.height);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('OffscreenCanvas 2D is not available');
    // Transparent areas read as white paper, as in the PDF.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, sample.width, sample.height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(decoded.source, 0, 0, sample.width, sample.height);
    const pixels = context.getImageData(0, 0, sample.width, sample.height).data;
    const metrics = measureGray(grayFromPixels(pixels, 4), sample.width, sample.height);
    // The photo's own size: the header's when known (the decoder may have scaled already).
    const width = request.width ?? decoded.width;
    const height = request.height ?? decoded.height;
    return { ...metrics, width, height };
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
