/**
 * A `DesktopBridge` for running the renderer in a plain browser during tests: each method is a
 * POST to the harness (test/bridge-server.ts), which runs main's real bridge handlers and inbox;
 * inbox changes arrive as server-sent events. Loaded before the renderer's entry by the harness.
 * Bytes (API bodies, scans) cross as `{ $bytes: base64 }`, as structured clone carries them over IPC.
 */
import type { DesktopBridge, InboxState } from '../../src/shared/bridge.js';

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

const encode = (_key: string, value: unknown): unknown =>
  value instanceof Uint8Array ? { $bytes: toBase64(value) } : value;
const decode = (_key: string, value: unknown): unknown =>
  value !== null && typeof value === 'object' && typeof (value as { $bytes?: unknown }).$bytes === 'string'
    ? Uint8Array.from(atob((value as { $bytes: string }).$bytes), (c) => c.charCodeAt(0))
    : value;

async function call<T>(method: string, payload?: unknown): Promise<T> {
  const response = await fetch(`/bridge/call/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ payload }, encode),
  });
  const body = JSON.parse(await response.text(), decode) as { result?: T; error?: string };
  if (!response.ok) throw new Error(body.error ?? response.statusText);
  return body.result as T;
}

const bridge = {
  getSettings: () => call('getSettings'),
  saveSettings: (settings) => call('saveSettings', settings),
  settingsAccess: () => call('settingsAccess'),
  chooseFolder: () => call('chooseFolder'),
  apiFetch: (request) => call('apiFetch', request),
  getInbox: () => call('getInbox'),
  onInboxChanged(listener) {
    const events = new EventSource('/bridge/events');
    events.onmessage = (event: MessageEvent) => listener(JSON.parse(String(event.data)) as InboxState);
    return () => events.close();
  },
  readScan: (id) => call('readScan', id),
  scanThumbnail: (id) => call('scanThumbnail', id),
  markScanUploading: (id, target) => call('markScanUploading', { id, target }),
  markScanUploaded: (id) => call('markScanUploaded', id),
  markScanFailed: (id, error) => call('markScanFailed', { id, error }),
  dismissScanNotice: (id) => call('dismissScanNotice', id),
  // A page cannot learn the paths of dropped files (only Electron's preload can, with webUtils):
  // the harness sends the names and main's real expansion runs on them inside its drop folder.
  expandDrop: (files) =>
    call(
      'expandDrop',
      files.filter((file): file is File => file instanceof File).map((file) => file.name),
    ),
  readDroppedFile: (token) => call('readDroppedFile', token),
  openKeptUploads: (owner) => call('openKeptUploads', owner),
  readKeptUpload: (id) => call('readKeptUpload', id),
  keepUpload: (file) => call('keepUpload', file),
  forgetKeptUpload: (id) => call('forgetKeptUpload', id),
  deleteKeptUploads: () => call('deleteKeptUploads'),
  saveSeasonArchive: (year) => call('saveSeasonArchive', year),
} satisfies DesktopBridge;

Object.defineProperty(window, 'vitaDesktop', { value: bridge });
