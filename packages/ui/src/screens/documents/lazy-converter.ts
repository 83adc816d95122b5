import type { ConvertImage, Logger } from '@vita-docs/core';

/** A converter that loads itself on first use; `dispose` stops its worker (it restarts if used again). */
export interface LazyConverter {
  convert: ConvertImage;
  dispose: () => void;
}

/**
 * The converter the upload queue gets. Nothing is downloaded until an image is actually converted:
 * a volunteer who only uploads PDFs, or turns conversion off, never fetches pdf-lib or the worker.
 */
export function createLazyConverter(logger: Logger): LazyConverter {
  let loaded: Promise<{ convert: ConvertImage; dispose: () => void }> | null = null;
  return {
    async convert(file) {
      loaded ??= import('./browser-converter').then((m) => m.createBrowserConverter(logger));
      try {
        return await (await loaded).convert(file);
      } catch (error) {
        // A chunk that failed to load (offline) must not break uploads: the original goes instead.
        loaded = null;
        logger.warn('Image conversion is unavailable; uploading the original file.', error);
        return file;
      }
    },
    dispose() {
      void loaded?.then((c) => c.dispose());
    },
  };
}
