import type { ConvertImage, FileLike, InspectImage, Logger, ScanFlowOptions } from '@vita-docs/core';

/** What the category screen does with photos; `dispose` stops the worker (it restarts if used again). */
export interface PhotoTools {
  convert: ConvertImage;
  inspect: InspectImage;
  /** Whether a photo can be a scan page here (HEIC only where the browser decodes it). */
  canUse: (file: FileLike) => Promise<boolean>;
  buildScan: ScanFlowOptions['build'];
  dispose: () => void;
}

/**
 * The photo tools the upload queue and the Scan pages dialog get. Nothing is downloaded until a
 * photo is actually queued: a volunteer who only uploads PDFs never fetches pdf-lib or the worker.
 */
export function createLazyConverter(logger: Logger): PhotoTools {
  let loaded: Promise<PhotoTools> | null = null;
  const tools = () =>
    (loaded ??= import('./browser-converter').then((m) => m.createBrowserConverter(logger)));
  const unavailable = (error: unknown) => {
    // A chunk that failed to load (offline) must not stick: the next use tries again.
    loaded = null;
    logger.warn('Image conversion is unavailable.', error);
  };
  return {
    async convert(file, options) {
      try {
        return await (await tools()).convert(file, options);
      } catch (error) {
        // Uploads must not break: the original goes instead.
        unavailable(error);
        return file;
      }
    },
    async inspect(file) {
      return (await tools()).inspect(file);
    },
    async canUse(file) {
      try {
        return await (await tools()).canUse(file);
      } catch (error) {
        unavailable(error);
        return false;
      }
    },
    async buildScan(pages, name) {
      return (await tools()).buildScan(pages, name);
    },
    dispose() {
      void loaded?.then((t) => t.dispose());
    },
  };
}
