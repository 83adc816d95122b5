import { createXhrPutFile, saveAsDownload } from '@vita-docs/ui';
import type { Platform } from '@vita-docs/ui';

/** The browser's own dialogs, XHR uploads with progress, and downloads through a link. */
export const browserPlatform: Platform = {
  alert: (message) => window.alert(message),
  confirm: (message) => window.confirm(message),
  putFile: createXhrPutFile(),
  saveFile: saveAsDownload,
  // Where scripts/reader-assets.ts puts the reader's files.
  readerFolder: '/ocr',
};
