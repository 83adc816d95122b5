/**
 * The Web Worker behind `createWorkerRaster`: decodes with `createImageBitmap`, scales and
 * orients on an `OffscreenCanvas`, encodes with `convertToBlob`; measures photos for the quality
 * check and tells whether an image decodes at all. Nothing here touches the page.
 */
import type {
  DecodeRequest,
  MeasureRequest,
  PagePixels,
  RasterRequest,
  RasterResult,
} from '../pdf/raster.js';
import { grayFromPixels } from '../quality/metrics.js';
import { QUALITY_SAMPLE_SIDE } from '../quality/metrics.js';
import { resolveCrop, straightenPixels } from '../straighten/page.js';
import { scaleQuad } from '../straighten/geometry.js';
import type { Quad } from '../straighten/geometry.js';
import type { ImageMetrics } from '../quality/assess.js';
import { decodeJpegScaled, decoderHonoursOrientation } from './decode.js';
import type { Decoded } from './decode.js';
import { decodesHere, measureImage } from './measure.js';

/** What each kind of request asks and answers. */
interface WorkerJobs {
  jpeg: { request: RasterRequest; result: RasterResult };
  measure: { request: MeasureRequest; result: ImageMetrics };
  decodes: { request: DecodeRequest; result: boolean };
  pixels: { request: RasterRequest; result: PagePixels };
}

/** The kinds of work the worker does. */
export type WorkerJob = keyof WorkerJobs;

/** A request of one kind, the image as a Blob (cloned as a handle, not copied). */
export type JobRequest<K extends WorkerJob> = Omit<WorkerJobs[K]['request'], 'file'> & { blob: Blob };

/** What one kind of request resolves to. */
export type JobResult<K extends WorkerJob> = WorkerJobs[K]['result'];

/** A request as posted to the worker. */
export type WorkerRequest = { [K in WorkerJob]: { id: number; job: K; request: JobRequest<K> } }[WorkerJob];

/** The worker's answer to one request. */
export type WorkerResponse =
  { id: number; ok: true; result: JobResult<WorkerJob> } | { id: number; ok: false; error: string };

/** The canvas transform that draws a stored image upright, for a canvas of the upright size w×h. */
function orientationTransform(
  orientation: number,
  w: number,
  h: number,
): [number, number, number, number, number, number] {
  switch (orientation) {
    case 2:
      return [-1, 0, 0, 1, w, 0];
    case 3:
      return [-1, 0, 0, -1, w, h];
    case 4:
      return [1, 0, 0, -1, 0, h];
    case 5:
      return [0, 1, 1, 0, 0, 0];
    case 6:
      return [0, 1, -1, 0, w, 0];
    case 7:
      return [0, -1, -1, 0, w, h];
    case 8:
      return [0, -1, 1, 0, 0, h];
    default:
      return [1, 0, 0, 1, 0, 0];
  }
}

/** The clockwise turn as the canvas transform for a canvas of the turned size w×h. */
function turnTransform(turn: number, w: number, h: number): [number, number, number, number, number, number] {
  // A clockwise quarter turn is what EXIF orientation 6 asks for, a half turn 3, three quarters 8.
  return orientationTransform(turn === 90 ? 6 : turn === 180 ? 3 : turn === 270 ? 8 : 1, w, h);
}

/**
 * The image decoded, and whether it still has to be turned upright by hand. A JPEG larger than
 * `maxSide` is decoded straight to the smallest n/8 of its size that is still at least `maxSide`,
 * where the browser can; anything else, or a decoded size that came out too small, by
 * `createImageBitmap`.
 */
async function decodeForJpeg(
  request: Omit<RasterRequest, 'file'> & { blob: Blob },
): Promise<Decoded & { manual: boolean }> {
  const { width, height, maxSide, orientation } = request;
  const longest = Math.max(width ?? 0, height ?? 0);
  const eighths = longest ? Math.ceil((8 * maxSide) / longest) : 8;
  if (request.format === 'jpeg' && width && height && eighths < 8) {
    const scaled = await decodeJpegScaled(request.blob, (longest * eighths) / 8, orientation).catch(
      () => null,
    );
    if (scaled && Math.max(scaled.width, scaled.height) >= maxSide) return { ...scaled, manual: false };
    scaled?.close();
  }
  const bitmap = await createImageBitmap(request.blob);
  const manual = orientation !== 1 && !(await decoderHonoursOrientation(request.format));
  return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close(), manual };
}

/** A 2D context of a new canvas, or an error where there is none. */
function context2d(width: number, height: number): OffscreenCanvasRenderingContext2D {
  const context = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('OffscreenCanvas 2D is not available');
  return context;
}

/**
 * The straightened page, RGBA and upright (not yet turned): the photo drawn upright at the decoded
 * size (at most twice `maxSide`, so the page inside it still has `maxSide` pixels to give), the page
 * found in a grey copy of the quality check's size, then warped out of it.
 */
async function straightenedPage(request: Omit<RasterRequest, 'file'> & { blob: Blob }): Promise<{
  data: Uint8ClampedArray<ArrayBuffer>;
  width: number;
  height: number;
  outline: RasterResult['outline'];
}> {
  const decoded = await decodeForJpeg(request);
  try {
    const { manual } = decoded;
    const swap = manual && request.orientation >= 5;
    const uprightWidth = swap ? decoded.height : decoded.width;
    const uprightHeight = swap ? decoded.width : decoded.height;
    const scale = Math.min(1, (2 * request.maxSide) / Math.max(uprightWidth, uprightHeight));
    const width = Math.max(1, Math.round(uprightWidth * scale));
    const height = Math.max(1, Math.round(uprightHeight * scale));
    const context = context2d(width, height);
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingQuality = 'high';
    if (manual) context.setTransform(...orientationTransform(request.orientation, width, height));
    context.drawImage(decoded.source, 0, 0, swap ? height : width, swap ? width : height);
    context.setTransform(1, 0, 0, 1, 0, 0);
    const outline = resolveCrop(request.crop, () => {
      const copyScale = Math.min(1, QUALITY_SAMPLE_SIDE / Math.max(width, height));
      const w = Math.max(1, Math.round(width * copyScale));
      const h = Math.max(1, Math.round(height * copyScale));
      const small = context2d(w, h);
      small.drawImage(context.canvas, 0, 0, w, h);
      return { gray: grayFromPixels(small.getImageData(0, 0, w, h).data, 4), width: w, height: h };
    });
    // Only the page's bounding box is read back: reading a 3 MP canvas costs as much as the warp.
    const box = boundingBox(outline.corners, width, height);
    const photo = context.getImageData(box.x, box.y, box.width, box.height).data;
    const corners = outline.corners
      ? scaleQuad(outline.corners, width / box.width, height / box.height).map((p) => ({
          x: p.x - box.x / box.width,
          y: p.y - box.y / box.height,
        }))
      : null;
    const page = straightenPixels(
      { data: photo, width: box.width, height: box.height, channels: 4 },
      corners as Quad | null,
      request.maxSide,
    );
    return {
      data: page.data as Uint8ClampedArray<ArrayBuffer>,
      width: page.width,
      height: page.height,
      outline,
    };
  } finally {
    decoded.close();
  }
}

/** The pixels around the corners (shares of the photo), whole pixels, inside the photo. */
function boundingBox(corners: Quad | null, width: number, height: number) {
  if (!corners) return { x: 0, y: 0, width, height };
  const xs = corners.map((p) => p.x * width);
  const ys = corners.map((p) => p.y * height);
  const x = Math.max(0, Math.floor(Math.min(...xs)) - 1);
  const y = Math.max(0, Math.floor(Math.min(...ys)) - 1);
  const right = Math.min(width, Math.ceil(Math.max(...xs)) + 1);
  const bottom = Math.min(height, Math.ceil(Math.max(...ys)) + 1);
  return { x, y, width: Math.max(1, right - x), height: Math.max(1, bottom - y) };
}

/** The straightened page drawn turned on a canvas of its turned size. */
function turnedCanvas(
  page: { data: Uint8ClampedArray<ArrayBuffer>; width: number; height: number },
  turn: number,
) {
  const flat = context2d(page.width, page.height);
  flat.putImageData(new ImageData(page.data, page.width, page.height), 0, 0);
  if (!turn) return flat;
  const sideways = turn === 90 || turn === 270;
  const w = sideways ? page.height : page.width;
  const h = sideways ? page.width : page.height;
  const turned = context2d(w, h);
  turned.setTransform(...turnTransform(turn, w, h));
  turned.drawImage(flat.canvas, 0, 0, page.width, page.height);
  return turned;
}

/** The page straightened as asked (`crop`), turned, and encoded; the whole photo as before when no page is used. */
async function straightenedJpeg(
  request: Omit<RasterRequest, 'file'> & { blob: Blob },
): Promise<RasterResult> {
  const page = await straightenedPage(request);
  const canvas = turnedCanvas(page, request.rotate ?? 0).canvas;
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: request.quality });
  return {
    bytes: new Uint8Array(await blob.arrayBuffer()),
    width: canvas.width,
    height: canvas.height,
    ...(page.outline ? { outline: page.outline } : {}),
  };
}

/** The straightened page's pixels, turned, for readers of the page. */
export async function pagePixels(request: Omit<RasterRequest, 'file'> & { blob: Blob }): Promise<PagePixels> {
  const page = await straightenedPage({ ...request, crop: request.crop ?? { mode: 'find' } });
  const context = turnedCanvas(page, request.rotate ?? 0);
  const { width, height } = context.canvas;
  return {
    data: context.getImageData(0, 0, width, height).data,
    width,
    height,
    outline: page.outline ?? { corners: null, reason: null },
  };
}

/** Decodes, orients, turns, scales and encodes one image; straightens it first when a `crop` asks. */
export async function rasterToJpeg(
  request: Omit<RasterRequest, 'file'> & { blob: Blob },
): Promise<RasterResult> {
  if (request.crop && request.crop.mode !== 'whole') return straightenedJpeg(request);
  const { format } = request;
  const decoded = await decodeForJpeg(request);
  try {
    const { manual } = decoded;
    const swap = manual && request.orientation >= 5;
    const uprightWidth = swap ? decoded.height : decoded.width;
    const uprightHeight = swap ? decoded.width : decoded.height;
    const scale = Math.min(1, request.maxSide / Math.max(uprightWidth, uprightHeight));
    const width = Math.max(1, Math.round(uprightWidth * scale));
    const height = Math.max(1, Math.round(uprightHeight * scale));
    const turn = request.rotate ?? 0;
    const sideways = turn === 90 || turn === 270;
    const canvasWidth = sideways ? height : width;
    const canvasHeight = sideways ? width : height;
    const canvas = new OffscreenCanvas(canvasWidth, canvasHeight);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('OffscreenCanvas 2D is not available');
    // The result is a JPEG, which has no alpha: transparent areas become white, as on paper, not black.
    if (format !== 'jpeg') {
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvasWidth, canvasHeight);
    }
    context.imageSmoothingQuality = 'high';
    // Composed so the stored image is first made upright (EXIF), then turned by the person's choice.
    context.setTransform(...turnTransform(turn, canvasWidth, canvasHeight));
    if (manual) context.transform(...orientationTransform(request.orientation, width, height));
    context.drawImage(decoded.source, 0, 0, swap ? height : width, swap ? width : height);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: request.quality });
    return { bytes: new Uint8Array(await blob.arrayBuffer()), width: canvasWidth, height: canvasHeight };
  } finally {
    decoded.close();
  }
}

/** Does one request; a JPEG's bytes are transferred back, not copied. */
export async function runJob(
  message: WorkerRequest,
): Promise<{ result: JobResult<WorkerJob>; transfer: Transferable[] }> {
  switch (message.job) {
    case 'jpeg': {
      const result = await rasterToJpeg(message.request);
      return { result, transfer: [result.bytes.buffer as ArrayBuffer] };
    }
    case 'measure':
      return { result: await measureImage(message.request), transfer: [] };
    case 'decodes':
      return { result: await decodesHere(message.request), transfer: [] };
    case 'pixels': {
      const result = await pagePixels(message.request);
      return { result, transfer: [result.data.buffer as ArrayBuffer] };
    }
  }
}

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
}

// Only install the handler when actually running as a worker (the module is also imported for types and tests).
if (typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined') {
  const scope = globalThis as unknown as WorkerScope;
  scope.onmessage = (event) => {
    const { id } = event.data;
    runJob(event.data).then(
      ({ result, transfer }) => scope.postMessage({ id, ok: true, result }, transfer),
      (error: unknown) =>
        scope.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  };
}
