/**
 * The Web Worker behind `createWorkerRaster`: decodes with `createImageBitmap`, scales and
 * orients on an `OffscreenCanvas`, encodes with `convertToBlob`; measures photos for the quality
 * check and tells whether an image decodes at all. Nothing here touches the page.
 */
import type { DecodeRequest, MeasureRequest, RasterRequest, RasterResult } from '../pdf/raster.js';
import type { ImageMetrics } from '../quality/assess.js';
import { decodesHere, measureImage } from './measure.js';

/** What each kind of request asks and answers. */
interface WorkerJobs {
  jpeg: { request: RasterRequest; result: RasterResult };
  measure: { request: MeasureRequest; result: ImageMetrics };
  decodes: { request: DecodeRequest; result: boolean };
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
  | { id: number; ok: true; result: JobResult<WorkerJob> }
  | { id: number; ok: false; error: string };

// 2×1 images stored with EXIF orientation 6: a decoder that honours orientation returns 1×2.
const PROBES = {
  jpeg: '/9j/4QC8RXhpZgAASUkqAAgAAAAGABIBAwABAAAABgAAABoBBQABAAAAVgAAABsBBQABAAAAXgAAACgBAwABAAAAAgAAABMCAwABAAAAAQAAAGmHBAABAAAAZgAAAAAAAAA4YwAA6AMAADhjAADoAwAABgAAkAcABAAAADAyMTABkQcABAAAAAECAwAAoAcABAAAADAxMDABoAMAAQAAAP//AAACoAQAAQAAAAIAAAADoAQAAQAAAAEAAAAAAAAA/9sAQwAQCwwODAoQDg0OEhEQExgoGhgWFhgxIyUdKDozPTw5Mzg3QEhcTkBEV0U3OFBtUVdfYmdoZz5NcXlwZHhcZWdj/9sAQwEREhIYFRgvGhovY0I4QmNjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2Nj/8AAEQgAAQACAwEiAAIRAQMRAf/EABQAAQAAAAAAAAAAAAAAAAAAAAD/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AAAP/9k=',
  png: 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAtGVYSWZJSSoACAAAAAYAEgEDAAEAAAAGAAAAGgEFAAEAAABWAAAAGwEFAAEAAABeAAAAKAEDAAEAAAACAAAAEwIDAAEAAAABAAAAaYcEAAEAAABmAAAAAAAAADhjAADoAwAAOGMAAOgDAAAGAACQBwAEAAAAMDIxMAGRBwAEAAAAAQIDAACgBwAEAAAAMDEwMAGgAwABAAAA//8AAAKgBAABAAAAAgAAAAOgBAABAAAAAQAAAAAAAABnMuHxAAAAC0lEQVR42mNoAAMACocDAVdiaIEAAAAASUVORK5CYII=',
  webp: 'UklGRvIAAABXRUJQVlA4WAoAAAAIAAAAAQAAAAAAVlA4TBEAAAAvAQAAAAdQwAIWsP+BiOh/AABFWElGugAAAEV4aWYAAElJKgAIAAAABgASAQMAAQAAAAYAAAAaAQUAAQAAAFYAAAAbAQUAAQAAAF4AAAAoAQMAAQAAAAIAAAATAgMAAQAAAAEAAABphwQAAQAAAGYAAAAAAAAAOGMAAOgDAAA4YwAA6AMAAAYAAJAHAAQAAAAwMjEwAZEHAAQAAAABAgMAAKAHAAQAAAAwMTAwAaADAAEAAAD//wAAAqAEAAEAAAACAAAAA6AEAAEAAAABAAAAAAAAAA==',
} as const;

const honours = new Map<string, Promise<boolean>>();

/** Whether this browser's decoder applies EXIF orientation for a format (Chromium: JPEG and PNG, not WebP). */
function decoderHonoursOrientation(format: string): Promise<boolean> {
  if (!(format in PROBES)) return Promise.resolve(true);
  let answer = honours.get(format);
  if (!answer) {
    const bytes = Uint8Array.from(atob(PROBES[format as keyof typeof PROBES]), (c) => c.charCodeAt(0));
    answer = createImageBitmap(new Blob([bytes], { type: `image/${format}` })).then(
      (bitmap) => {
        const rotated = bitmap.height > bitmap.width;
        bitmap.close();
        return rotated;
      },
      () => true,
    );
    honours.set(format, answer);
  }
  return answer;
}

/** The canvas transform that draws a stored image upright, for a canvas of the upright size w×h. */
function orientationTransform(orientation: number, w: number, h: number): [number, number, number, number, number, number] {
  switch (orientation) {
    case 2: return [-1, 0, 0, 1, w, 0];
    case 3: return [-1, 0, 0, -1, w, h];
    case 4: return [1, 0, 0, -1, 0, h];
    case 5: return [0, 1, 1, 0, 0, 0];
    case 6: return [0, 1, -1, 0, w, 0];
    case 7: return [0, -1, -1, 0, w, h];
    case 8: return [0, -1, 1, 0, 0, h];
    default: return [1, 0, 0, 1, 0, 0];
  }
}

/** The clockwise turn as the canvas transform for a canvas of the turned size w×h. */
function turnTransform(turn: number, w: number, h: number): [number, number, number, number, number, number] {
  // A clockwise quarter turn is what EXIF orientation 6 asks for, a half turn 3, three quarters 8.
  return orientationTransform(turn === 90 ? 6 : turn === 180 ? 3 : turn === 270 ? 8 : 1, w, h);
}

/** Decodes, orients, turns, scales and encodes one image. */
export async function rasterToJpeg(
  request: Omit<RasterRequest, 'file'> & { blob: Blob },
): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const { format } = request;
  const bitmap = await createImageBitmap(request.blob);
  try {
    const manual = request.orientation !== 1 && !(await decoderHonoursOrientation(format));
    const swap = manual && request.orientation >= 5;
    const uprightWidth = swap ? bitmap.height : bitmap.width;
    const uprightHeight = swap ? bitmap.width : bitmap.height;
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
    context.drawImage(bitmap, 0, 0, swap ? height : width, swap ? width : height);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: request.quality });
    return { bytes: new Uint8Array(await blob.arrayBuffer()), width: canvasWidth, height: canvasHeight };
  } finally {
    bitmap.close();
  }
}

/** Does one request; a JPEG's bytes are transferred back, not copied. */
export async function runJob(message: WorkerRequest): Promise<{ result: JobResult<WorkerJob>; transfer: Transferable[] }> {
  switch (message.job) {
    case 'jpeg': {
      const result = await rasterToJpeg(message.request);
      return { result, transfer: [result.bytes.buffer as ArrayBuffer] };
    }
    case 'measure':
      return { result: await measureImage(message.request), transfer: [] };
    case 'decodes':
      return { result: await decodesHere(message.request), transfer: [] };
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
      (error: unknown) => scope.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  };
}
