import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import { zipFileName } from '../../domain/constants.js';
import type { Dialogs, FileSaver } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

/**
 * A category as the download dialog lists it: labelled Has files or Empty
 * (docs/behaviour.md#download-all).
 */
export interface DownloadChoice {
  name: string;
  hasFiles: boolean;
}

/**
 * The "Choose types to include" dialog, then the download. `expected` is the archive's estimated
 * size from the server's `x-content-bytes` / `x-file-count` headers (null when it sent none).
 */
export type DownloadAllState =
  | { status: 'closed' }
  | { status: 'choosing'; choices: readonly DownloadChoice[]; selected: readonly string[] }
  | {
      status: 'downloading';
      choices: readonly DownloadChoice[];
      selected: readonly string[];
      received: number;
      expected: number | null;
    };

export type DownloadAllEvent =
  | { type: 'open'; choices: readonly DownloadChoice[] }
  | { type: 'toggle'; name: string }
  | { type: 'selectAll' }
  /** Closes the dialog; during a download it stops it. */
  | { type: 'cancel' }
  | { type: 'download' };

export type DownloadAllFlow = Flow<DownloadAllState, DownloadAllEvent>;

export interface DownloadAllFlowOptions {
  api: Pick<ApiClient, 'downloadAll'>;
  platform: Pick<Dialogs, 'alert'> & FileSaver;
  clientId: string;
}

/** Local header, data descriptor and central directory entry of one STORE entry, with a typical name. */
const ZIP_BYTES_PER_FILE = 160;
const ZIP_END_BYTES = 98;

/**
 * The archive size the server's headers promise, or null when they are missing.
 * @internal Exported for its unit test.
 */
export function expectedZipBytes(headers: Pick<Headers, 'get'>): number | null {
  const bytes = Number(headers.get('x-content-bytes'));
  const files = Number(headers.get('x-file-count'));
  if (!headers.get('x-content-bytes') || !Number.isFinite(bytes) || !Number.isFinite(files)) return null;
  return bytes + files * ZIP_BYTES_PER_FILE + ZIP_END_BYTES;
}

/** Progress as a whole percentage, held below 100 until the archive is complete (the size is an estimate). */
export function downloadPercent(state: DownloadAllState): number | null {
  if (state.status !== 'downloading' || !state.expected) return null;
  return Math.min(99, Math.floor((state.received / state.expected) * 100));
}

/** Download is disabled until at least one type is chosen. */
export function canDownload(state: DownloadAllState): boolean {
  return state.status === 'choosing' && state.selected.length > 0;
}

/** The request for the chosen types; everything chosen: no include list, so the archive is the client's whole folder. */
function downloadArgs(clientId: string, choices: readonly DownloadChoice[], selected: readonly string[]) {
  if (selected.length === choices.length) return { params: { id: clientId } };
  const include = choices
    .filter((c) => selected.includes(c.name))
    .map((c) => c.name)
    .join(',');
  return { params: { id: clientId }, query: { include } };
}

/** The whole answer, telling `onBytes` how much has arrived as it streams. */
async function readAll(response: Response, onBytes: (received: number) => void): Promise<Blob> {
  if (!response.body) return response.blob();
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onBytes(received);
  }
  return new Blob(chunks, { type: 'application/zip' });
}

/** Creates the Download All flow. */
export function createDownloadAllFlow({ api, platform, clientId }: DownloadAllFlowOptions): DownloadAllFlow {
  const store = createStore<DownloadAllState>({ status: 'closed' });
  let abort: AbortController | null = null;

  async function download(choices: readonly DownloadChoice[], selected: readonly string[]): Promise<void> {
    const controller = new AbortController();
    abort = controller;
    store.setState({ status: 'downloading', choices, selected, received: 0, expected: null });
    try {
      const response = await api.downloadAll(downloadArgs(clientId, choices, selected), {
        signal: controller.signal,
      });
      const expected = expectedZipBytes(response.headers);
      let shown = 0;
      const blob = await readAll(response, (received) => {
        // About a hundred updates for a whole archive, not one per network chunk.
        if (abort !== controller || (expected && received - shown < expected / 100)) return;
        shown = received;
        store.setState({ status: 'downloading', choices, selected, received, expected });
      });
      if (abort !== controller) return;
      await platform.saveFile(zipFileName(clientId), blob);
      store.setState({ status: 'closed' });
    } catch (error) {
      if (abort !== controller) return; // cancelled: the dialog is already closed
      store.setState({ status: 'choosing', choices, selected });
      await platform.alert(errorMessage(error));
    } finally {
      if (abort === controller) abort = null;
    }
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const state = store.getState();
      if (event.type === 'open' && state.status === 'closed') {
        // Types with files start ticked: an Empty one adds nothing to the archive.
        const selected = event.choices.filter((c) => c.hasFiles).map((c) => c.name);
        store.setState({ status: 'choosing', choices: event.choices, selected });
        return;
      }
      if (event.type === 'cancel') {
        abort?.abort();
        abort = null;
        store.setState({ status: 'closed' });
        return;
      }
      if (state.status !== 'choosing') return;
      if (event.type === 'toggle') {
        const selected = state.selected.includes(event.name)
          ? state.selected.filter((n) => n !== event.name)
          : state.choices
              .filter((c) => c.name === event.name || state.selected.includes(c.name))
              .map((c) => c.name);
        store.setState({ ...state, selected });
      } else if (event.type === 'selectAll') {
        store.setState({ ...state, selected: state.choices.map((c) => c.name) });
      } else if (event.type === 'download' && canDownload(state)) {
        await download(state.choices, state.selected);
      }
    },
  };
}
