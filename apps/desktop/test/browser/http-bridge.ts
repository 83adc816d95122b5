/**
 * A `DesktopBridge` for running the renderer in a plain browser during tests: each method is a
 * POST to the harness (test/bridge-server.ts), which runs main's real bridge handlers and inbox;
 * inbox changes arrive as server-sent events. Loaded before the renderer's entry by the harness.
 */
import type { DesktopBridge, InboxState } from '../../src/shared/bridge.js';

async function call<T>(method: string, payload?: unknown): Promise<T> {
  const response = await fetch(`/bridge/call/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ payload }),
  });
  const body = (await response.json()) as { result?: T; error?: string };
  if (!response.ok) throw new Error(body.error ?? response.statusText);
  return body.result as T;
}

const bridge = {
  getSettings: () => call('getSettings'),
  saveSettings: (settings) => call('saveSettings', settings),
  chooseFolder: () => call('chooseFolder'),
  apiFetch: () => Promise.reject(new Error('The browser harness does not relay API calls.')),
  getInbox: () => call('getInbox'),
  onInboxChanged(listener) {
    const events = new EventSource('/bridge/events');
    events.onmessage = (event: MessageEvent) => listener(JSON.parse(String(event.data)) as InboxState);
    return () => events.close();
  },
  readScan: () => Promise.reject(new Error('The browser harness does not transfer bytes.')),
  scanThumbnail: (id) => call('scanThumbnail', id),
  markScanUploading: (id, target) => call('markScanUploading', { id, target }),
  markScanUploaded: (id) => call('markScanUploaded', id),
  markScanFailed: (id, error) => call('markScanFailed', { id, error }),
  // A page cannot learn the paths of dropped files; only the Electron preload can.
  expandDrop: () => Promise.resolve({ files: [], skipped: [], truncated: false }),
  readDroppedFile: () => Promise.reject(new Error('The browser harness has no dropped files.')),
} satisfies DesktopBridge;

Object.defineProperty(window, 'vitaDesktop', { value: bridge });
