/**
 * The sandboxed preload: exposes the bridge's named methods on `window.vitaDesktop` and nothing
 * else (no `ipcRenderer`, no generic invoke). Main validates every payload again.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { BRIDGE_GLOBAL, channels, type DesktopBridge, type InboxState } from '../shared/bridge.js';

const invoke = <T>(channel: string, payload?: unknown): Promise<T> =>
  ipcRenderer.invoke(channel, payload) as Promise<T>;

const bridge = {
  getSettings: () => invoke(channels.getSettings),
  saveSettings: (settings) => invoke(channels.saveSettings, settings),
  settingsAccess: () => invoke(channels.settingsAccess),
  chooseFolder: () => invoke(channels.chooseFolder),
  apiFetch: (request) => invoke(channels.apiFetch, request),
  getInbox: () => invoke(channels.getInbox),
  onInboxChanged(listener) {
    const handler = (_event: IpcRendererEvent, state: InboxState): void => listener(state);
    ipcRenderer.on(channels.inboxChanged, handler);
    return () => {
      ipcRenderer.removeListener(channels.inboxChanged, handler);
    };
  },
  readScan: (id) => invoke(channels.readScan, id),
  scanThumbnail: (id) => invoke(channels.scanThumbnail, id),
  markScanUploading: (id, target) => invoke(channels.markScanUploading, { id, target }),
  markScanUploaded: (id) => invoke(channels.markScanUploaded, id),
  markScanFailed: (id, error) => invoke(channels.markScanFailed, { id, error }),
  dismissScanNotice: (id) => invoke(channels.dismissScanNotice, id),
  expandDrop(files) {
    // Paths of dropped files are only visible here (the page never sees them), and only for real Files.
    const paths = files
      .filter((file): file is File => file instanceof File)
      .map((file) => webUtils.getPathForFile(file));
    return invoke(
      channels.expandDrop,
      paths.filter((path) => path !== ''),
    );
  },
  readDroppedFile: (token) => invoke(channels.readDroppedFile, token),
  openKeptUploads: (owner) => invoke(channels.openKeptUploads, owner),
  readKeptUpload: (id) => invoke(channels.readKeptUpload, id),
  keepUpload: (file) => invoke(channels.keepUpload, file),
  forgetKeptUpload: (id) => invoke(channels.forgetKeptUpload, id),
  deleteKeptUploads: () => invoke(channels.deleteKeptUploads),
  saveSeasonArchive: (year) => invoke(channels.saveSeasonArchive, year),
} satisfies DesktopBridge;

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
