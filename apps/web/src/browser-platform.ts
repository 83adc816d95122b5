import type { Clock } from '@vita-docs/core';
import { createXhrPutFile } from '@vita-docs/ui';
import type { Platform } from '@vita-docs/ui';

/**
 * Saves a blob as a download: an object URL on a temporary `download` link. The URL is revoked a
 * minute later, not at once: the browser reads it after the click returns.
 */
function saveFile(name: string, data: Blob): Promise<void> {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return Promise.resolve();
}

/** The browser's own dialogs (SPEC §8), XHR uploads with progress, and downloads through a link. */
export const browserPlatform: Platform = {
  alert: (message) => window.alert(message),
  confirm: (message) => window.confirm(message),
  putFile: createXhrPutFile(),
  saveFile,
};

/** Wall-clock time and the window's timers. */
export const browserClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => window.setTimeout(callback, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
};
