/**
 * The browser reader, loaded by itself when a file is first queued: a queued PDF is read without
 * fetching the photo tools (pdf-lib, the raster worker), which only a photo needs. It shares no code
 * with them: `createWorkerReader` is a message port to its own worker.
 */
export { createWorkerReader, readerAssetsIn } from '@vita-docs/core/browser';
