/**
 * The browser {@link RasterPort} and {@link ImageCheckPort}: the pixel work runs in Web Workers so
 * the page never freezes. A small pool lets the pages of a scan be decoded side by side.
 */
import type { FileLike } from '../ports.js';
import type { ImageCheckPort, PagePixelsPort, RasterPort } from '../pdf/raster.js';
import type { JobRequest, JobResult, WorkerJob, WorkerResponse } from './raster-worker.js';

/** Options of {@link createWorkerRaster}. */
export interface WorkerRasterOptions {
  /**
   * Makes a worker. By default the module `raster-worker.js` next to this one, as a module
   * worker — the form bundlers (Vite, webpack 5, Rollup plugins) recognise and bundle separately.
   */
  createWorker?: () => Worker;
  /**
   * The most workers started, each only when the others are busy. Two keep a phone's big cores busy
   * on a multi-page scan without holding more than two full-size photos in memory at once.
   */
  workers?: number;
}

/** The ports backed by lazily started Web Workers; `dispose` ends them. */
export interface WorkerRaster extends RasterPort, ImageCheckPort, PagePixelsPort {
  dispose(): void;
}

interface Waiting {
  resolve: (response: WorkerResponse) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  waiting: Map<number, Waiting>;
}

/** Creates the browser raster port (needs `Worker`, `createImageBitmap` and `OffscreenCanvas`). */
export function createWorkerRaster(options: WorkerRasterOptions = {}): WorkerRaster {
  const createWorker =
    options.createWorker ??
    (() => new Worker(new URL('./raster-worker.js', import.meta.url), { type: 'module' }));
  const size = Math.max(1, Math.floor(options.workers ?? 2));
  const pool: PoolWorker[] = [];
  let nextId = 1;

  function start(): PoolWorker {
    const entry: PoolWorker = { worker: createWorker(), waiting: new Map() };
    entry.worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      const waiting = entry.waiting.get(event.data.id);
      entry.waiting.delete(event.data.id);
      waiting?.resolve(event.data);
    };
    entry.worker.onerror = (event) => {
      // A worker that fails to load fails its requests; later requests start a fresh one.
      event.preventDefault();
      for (const waiting of entry.waiting.values())
        waiting.reject(new Error(event.message || 'The image worker failed'));
      entry.waiting.clear();
      entry.worker.terminate();
      const index = pool.indexOf(entry);
      if (index >= 0) pool.splice(index, 1);
    };
    pool.push(entry);
    return entry;
  }

  /** The idlest worker, or a new one while the pool is not full and all are busy. */
  function pick(): PoolWorker {
    const idlest = pool.reduce<PoolWorker | undefined>(
      (best, entry) => (!best || entry.waiting.size < best.waiting.size ? entry : best),
      undefined,
    );
    if (!idlest || (idlest.waiting.size > 0 && pool.length < size)) return start();
    return idlest;
  }

  async function run<K extends WorkerJob>(
    job: K,
    file: FileLike,
    request: Omit<JobRequest<K>, 'blob'>,
  ): Promise<JobResult<K>> {
    const blob = await asBlob(file);
    const id = nextId++;
    const entry = pick();
    const answer = new Promise<WorkerResponse>((resolve, reject) =>
      entry.waiting.set(id, { resolve, reject }),
    );
    entry.worker.postMessage({ id, job, request: { ...request, blob } });
    const response = await answer;
    if (!response.ok) throw new Error(response.error);
    return response.result;
  }

  return {
    toJpeg: ({ file, ...request }) => run('jpeg', file, request),
    measure: ({ file, ...request }) => run('measure', file, request),
    canDecode: ({ file, ...request }) => run('decodes', file, request).catch(() => false),
    pagePixels: ({ file, ...request }) => run('pixels', file, request),
    dispose() {
      for (const entry of pool.splice(0)) {
        entry.worker.terminate();
        for (const waiting of entry.waiting.values())
          waiting.reject(new Error('The image worker was disposed'));
      }
    },
  };
}

/** A Blob crosses to a worker as a handle; anything else is read once. */
export async function asBlob(file: FileLike): Promise<Blob> {
  return file instanceof Blob ? file : new Blob([await file.arrayBuffer()], { type: file.type });
}
