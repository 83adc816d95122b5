/**
 * The page the reading benchmark drives, served by the real server beside the built app (whose
 * /ocr/ files it reads with): each document read by the browser reader (in its worker), timed,
 * with the same photo's conversion to a Letter PDF timed beside it as the baseline, and the longest
 * main-thread task seen while reading (a long-task observer).
 */
import { createImageConverter } from '@vita-docs/core';
import type { DocumentReading } from '@vita-docs/core';
import { createWorkerRaster, createWorkerReader } from '@vita-docs/core/browser';

const reader = createWorkerReader({
  assets: {
    ocrWorker: '/ocr/worker.min.js',
    ocrCore: '/ocr/tesseract-core-simd-lstm.js',
    ocrLang: '/ocr',
    barcodeWasm: '/ocr/zxing_reader.wasm',
  },
});
const convert = createImageConverter({ raster: createWorkerRaster(), logger: console });
let longest = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
}).observe({ type: 'longtask', buffered: false });

interface Result {
  reading: DocumentReading;
  readMs: number;
  convertMs: number | null;
  /** The longest main-thread task while this document was read (0: none over 50 ms). */
  longestMs: number;
}

async function readOne(url: string, type: string): Promise<Result> {
  const blob = await (await fetch(url)).blob();
  const bytes = new Uint8Array(await blob.arrayBuffer());
  longest = 0;
  const start = performance.now();
  const reading = await reader.readDocument(bytes);
  const readMs = performance.now() - start;
  // Long tasks are reported a moment after they end: one frame later, this read's are in.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const longestMs = longest;
  let convertMs: number | null = null;
  if (type.startsWith('image/')) {
    const file = new File([blob], 'page.jpg', { type });
    const began = performance.now();
    await convert(file);
    convertMs = performance.now() - began;
  }
  return { reading, readMs, convertMs, longestMs };
}

Object.assign(window, { readOne });
document.title = 'ready';
