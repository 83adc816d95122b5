/**
 * The quality check's pixel work in a browser worker: decode to a small copy (straight to 1/8 size
 * where the JPEG decoder can), read its pixels off an OffscreenCanvas and measure them with the shared
 * metrics. Only the numbers leave the worker.
 */
import type { DecodeRequest, MeasureRequest } from '../pdf/raster.js';
import type { ImageMetrics } from '../quality/assess.js';
import { grayFromPixels, measureGray, sampleSize } from '../quality/metrics.js';

type Blobbed<T> = Omit<T, 'file'> & { blob: Blob };

/** A decoded picture to draw, with its size and how to let it go. */
interface Decoded {
  source: CanvasImageSource;
  width: number;
  height: number;
  close(): void;
}

/**
 * JPEG straight to about the sample size with WebCodecs' `ImageDecoder` (Chromium, Firefox): the
 * decoder scales in the DCT, so a 12 MP photo is never held at full size. Null where unavailable.
 */
async function decodeJpegSmall(request: Blobbed<MeasureRequest>): Promise<Decoded | null> {
  const { width, height } = request;
  if (request.format !== 'jpeg' || !width || !height || typeof ImageDecoder === 'undefined') return null;
  if (!(await ImageDecoder.isTypeSupported('image/jpeg'))) return null;
  const target = sampleSize(width, height, request.maxSide);
  const decoder = new ImageDecoder({
    data: request.blob.stream(),
    type: 'image/jpeg',
    desiredWidth: target.width,
    desiredHeight: target.height,
  });
  try {
    const { image } = await decoder.decode();
    return { source: image, width: image.displayWidth, height: image.displayHeight, close: () => image.close() };
  } finally {
    decoder.close();
  }
}

async function decode(request: Blobbed<MeasureRequest>): Promise<Decoded> {
  const small = await decodeJpegSmall(request).catch(() => null);
  if (small) return small;
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
