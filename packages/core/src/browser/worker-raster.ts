/** The browser {@link RasterPort}: the pixel work runs in a Web Worker so the page never freezes. */
import type { FileLike } from '../ports.js';
import type { RasterPort } from '../pdf/raster.js';
import type { WorkerRequest, WorkerResponse } from './raster-worker.js';

/** Options of {@link createWorkerRaster}. */
export interface WorkerRasterOptions {
  /**
   * Makes the worker. By default the module `raster-worker.js` next to this one, as a module
   * worker — the form bundlers (Vite, webpack 5, Rollup plugins) recognise and bundle separately.
   */
  createWorker?: () => Worker;
}

/** A {@link RasterPort} backed by one lazily started Web Worker; `dispose` ends the worker. */
export interface WorkerRaster extends RasterPort {
  dispose(): void;
}

/** Creates the browser raster port (needs `Worker`, `createImageBitmap` and `OffscreenCanvas`). */
export function createWorkerRaster(options: WorkerRasterOptions = {}): WorkerRaster {
  const createWorker =
    options.createWorker ?? (() => new Worker(new URL('./raster-worker.js', import.meta.url), { type: 'module' }));
  let worker: Worker | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (r: WorkerResponse) => void; reject: (e: Error) => void }>();

  function start(): Worker {
    if (worker) return worker;
    const started = createWorker();
    started.onmessage = (event: MessageEvent<WorkerResponse>) => {
      const entry = waiting.get(event.data.id);
      waiting.delete(event.data.id);
      entry?.resolve(event.data);
    };
    started.onerror = (event) => {
      // A worker that fails to load fails every request; the next request starts a fresh one.
      event.preventDefault();
      for (const entry of waiting.values()) entry.reject(new Error(event.message || 'The image worker failed'));
      waiting.clear();
      started.terminate();
      worker = null;
    };
    worker = started;
    return started;
  }

  return {
    async toJpeg(request) {
      const id = nextId++;
      const answer = new Promise<WorkerResponse>((resolve, reject) => waiting.set(id, { resolve, reject }));
      const { file, ...rest } = request;
      const message: WorkerRequest = { id, ...rest, blob: await asBlob(file) };
      start().postMessage(message);
      const response = await answer;
      if (!response.ok) throw new Error(response.error);
      return { bytes: response.bytes, width: response.width, height: response.height };
    },
    dispose() {
      worker?.terminate();
      worker = null;
      for (const entry of waiting.values()) entry.reject(new Error('The image worker was disposed'));
      waiting.clear();
    },
  };
}

/** A Blob crosses to a worker as a handle; anything else is read once. */
export async function asBlob(file: FileLike): Promise<Blob> {
  return file instanceof Blob ? file : new Blob([await file.arrayBuffer()], { type: file.type });
}
