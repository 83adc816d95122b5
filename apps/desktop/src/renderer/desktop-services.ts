/**
 * The desktop composition root for the shared screens: `AppServices` built from the bridge. The API
 * client talks to the configured server through main (`apiFetch`), so the page never holds the
 * session cookie; the scanner inbox and folder drop come from main too.
 */
import { createApiClient, createFetchPutFile, CSRF_COOKIE } from '@vita-docs/core';
import { browserClock, browserConnectivity, readProgrammeUrl, saveAsDownload } from '@vita-docs/ui';
import type { AppServices, Platform } from '@vita-docs/ui';
import type { DesktopBridge } from '../shared/bridge.js';
import { createBridgeTransport } from './bridge-fetch.js';
import { createBridgeJournals, toFile } from './kept-uploads.js';

/** The platform of the kiosk: the page's dialogs, uploads through main, the scanner inbox, folder drop. */
function createDesktopPlatform(
  bridge: DesktopBridge,
  fetch: (input: string, init?: RequestInit) => Promise<Response>,
): Platform {
  return {
    alert: (message) => window.alert(message),
    confirm: (message) => window.confirm(message),
    // Through main, which allows only the server and the presigned URLs it handed out. IPC has no
    // upload progress, so the bar goes from 0 to done (scans are small; the queue shows each file).
    putFile: createFetchPutFile(fetch),
    // A download: Electron asks where to save it.
    saveFile: saveAsDownload,
    scannerInbox: {
      getInbox: () => bridge.getInbox(),
      subscribe: (listener) => bridge.onInboxChanged(listener),
      readScan: async (id) => toFile(await bridge.readScan(id)),
      thumbnail: (id) => bridge.scanThumbnail(id),
      markUploading: (id, target) => bridge.markScanUploading(id, target),
      markUploaded: (id) => bridge.markScanUploaded(id),
      markFailed: (id, error) => bridge.markScanFailed(id, error),
    },
    async expandDrop(files) {
      const result = await bridge.expandDrop(files);
      const read = await Promise.all(
        result.files.map(async (file) => toFile(await bridge.readDroppedFile(file.token))),
      );
      if (result.truncated) window.alert(`Only the first ${read.length} files of this drop were added.`);
      return { files: read, skipped: result.skipped };
    },
    // The archive can hold every client's documents: main streams it to the file the person picks.
    saveSeasonArchive: (year) => bridge.saveSeasonArchive(year),
  };
}

/** The services for the configured server (`serverUrl` as saved in the desk settings). */
export function createDesktopServices(bridge: DesktopBridge, serverUrl: string): AppServices {
  const transport = createBridgeTransport(bridge, CSRF_COOKIE);
  return {
    // Presigned URLs are used as they come: the server always answers absolute ones (docs/behaviour.md#storage).
    api: createApiClient({
      baseUrl: `${serverUrl.replace(/\/+$/, '')}/api`,
      fetch: (input, init) => transport.fetch(input, init),
      getCookie: (name) => transport.getCookie(name),
    }),
    platform: createDesktopPlatform(bridge, (input, init) => transport.fetch(input, init)),
    clock: browserClock,
    sessionStorage: window.sessionStorage,
    localStorage: window.localStorage,
    // The kiosk's page carries no programme meta tag: the default link.
    config: { programmeUrl: readProgrammeUrl() },
    // Files waiting for the network go again when it is back.
    connectivity: browserConnectivity,
    // Files chosen or dropped at the desk are kept on its disk until uploaded; scans are not (the
    // watched folder and its ledger keep them until the server has them).
    uploadJournals: createBridgeJournals(bridge),
  };
}
