/**
 * The upload queues' code (`upload-queues-engine.ts`, with core's upload flow) is a chunk of its own:
 * the landing page does not need it. Its own module so that the provider (`upload-queues.tsx`) and
 * the header's lazy parts (`components/lazy-parts.tsx`) both load it without importing each other.
 */
import type * as EngineCode from './upload-queues-engine';

let engineCode: typeof EngineCode | undefined;
let loadingEngine: Promise<void> | undefined;

/**
 * Loads the upload queues' code. Started at sign-in; the parts that queue files (the category
 * screen's adding of files, the kept-files offer) wait for it before they render, so the queues are
 * always there when they are used. A failed
 * load is tried again next time.
 */
export function loadUploadQueues(): Promise<void> {
  loadingEngine ??= import('./upload-queues-engine').then(
    (code) => {
      engineCode = code;
    },
    (error: unknown) => {
      loadingEngine = undefined;
      throw error;
    },
  );
  return loadingEngine;
}

/** The upload queues' code once {@link loadUploadQueues} has loaded it. */
export function loadedUploadQueues(): typeof EngineCode | undefined {
  return engineCode;
}
