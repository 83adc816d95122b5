/**
 * `@vita-docs/core/browser`: browser implementations of core's ports, kept out of the main entry so
 * the worker is only bundled by apps that use it.
 */
export { createWorkerRaster } from './worker-raster.js';
export type { WorkerRaster, WorkerRasterOptions } from './worker-raster.js';
export { createInlineRaster } from './inline-raster.js';
export { createWorkerReader, readerAssetsIn } from './worker-reader.js';
export type { WorkerReaderOptions, ReaderAssets } from './worker-reader.js';
