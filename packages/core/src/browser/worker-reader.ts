/**
 * The browser reader (`readDocument` in a Web Worker): the page posts the bytes and waits; OCR and
 * barcode reading never run on its thread. The worker starts on first use, so a page that never
 * reads a document loads none of it.
 */
import type { DocumentReader, DocumentReading } from '../reading/reader.js';
import type { ReadResponse, ReaderAssets } from './reading-worker.js';

export type { ReaderAssets } from './reading-worker.js';

/**
 * The reader's files served from one folder under the names `apps/web/scripts/reader-assets.ts` gives
 * them: tesseract.js's worker and core, the English data (the folder itself) and zxing-wasm's reader.
 */
export function readerAssetsIn(folder: string): ReaderAssets {
  const at = folder.replace(/\/$/, '');
  return {
    ocrWorker: `${at}/worker.min.js`,
    ocrCore: `${at}/tesseract-core-simd-lstm.js`,
    ocrLang: at,
    barcodeWasm: `${at}/zxing_reader.wasm`,
  };
}

/** Options of {@link createWorkerReader}. */
export interface WorkerReaderOptions {
  assets: ReaderAssets;
  /** Makes the worker; by default the module `reading-worker.js` beside this one. */
  createWorker?: () => Worker;
}

/** Creates the browser reader. Documents are read one at a time, in the order asked. */
export function createWorkerReader(options: WorkerReaderOptions): DocumentReader {
  const createWorker =
    options.createWorker ??
    (() => new Worker(new URL('./reading-worker.js', import.meta.url), { type: 'module' }));
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (r: DocumentReading) => void; reject: (e: Error) => void }>();

  function start(): Worker {
    const w = createWorker();
    w.onmessage = (event: MessageEvent<ReadResponse>) => {
      const entry = waiting.get(event.data.id);
      waiting.delete(event.data.id);
      if ('error' in event.data) entry?.reject(new Error(event.data.error));
      else entry?.resolve(event.data.reading);
    };
    w.onerror = (event) => {
      event.preventDefault();
      for (const entry of waiting.values()) entry.reject(new Error(event.message || 'reader failed'));
      waiting.clear();
      w.terminate();
      worker = undefined;
    };
    return w;
  }

  return {
    readDocument(bytes) {
      worker ??= start();
      const id = nextId++;
      const copy = bytes.slice();
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker?.postMessage({ id, bytes: copy, assets: options.assets }, [copy.buffer]);
      });
    },
    close() {
      worker?.terminate();
      worker = undefined;
      for (const entry of waiting.values()) entry.reject(new Error('reader closed'));
      waiting.clear();
      return Promise.resolve();
    },
  };
}
