import type { ReaderAssets } from '@vita-docs/core/browser';

/** Where the reader's files are served by this app (scripts/reader-assets.ts puts them there). */
export const READER_ASSETS: ReaderAssets = {
  ocrWorker: '/ocr/worker.min.js',
  ocrCore: '/ocr/tesseract-core-simd-lstm.js',
  ocrLang: '/ocr',
  barcodeWasm: '/ocr/zxing_reader.wasm',
};
