/**
 * The upload queue of the category screen (docs/behaviour.md#upload-queue): chosen files are queued — images
 * converted to PDF first when the toggle is on — and on Upload sent one by one; then the queue is
 * cleared and the list refreshed. A file that fails stays queued with its error while the others
 * go on, so nothing is lost; it can be retried. Every image is also checked for quality
 * (docs/behaviour.md#quality-warnings): the warnings show on the queued file, which can be retaken,
 * kept anyway or turned; nothing is blocked by them.
 *
 * Queued files are kept on the device before they count as queued, when the host gives a journal
 * (docs/behaviour.md#kept-uploads). A file whose upload found no network waits for the connection
 * and goes again by itself; one the server failed goes again after a growing pause
 * (docs/behaviour.md#automatic-retries). The presign's SHA-256 makes a repeat of a stored upload a
 * no-op, so none of this stores a file twice.
 *
 * The rules are one pure function (`transition.ts`, sending in `round.ts`), what is retried and when
 * a policy (`retry-policy.ts`), and `runner.ts` performs what they ask against the ports; this file
 * puts them together.
 */
import type { ApiClient } from '../../api/client.js';
import type { PutFile, UploadTarget } from '../../api/upload.js';
import type { Clock, Connectivity, Dialogs, FileLike, KeyValueStorage } from '../../ports.js';
import type { Flow } from '../../store.js';
import type { UploadJournal } from './journal.js';
import { initialMachine } from './machine.js';
import { nameCaptures, retakeFile } from './naming.js';
import { readConvertPreference, writeConvertPreference } from './preference.js';
import { defaultRetryPolicy } from './retry-policy.js';
import type { RetryPolicy } from './retry-policy.js';
import { createUploadRunner } from './runner.js';
import type { ConvertImage, InspectImage, UploadEvent, UploadState } from './upload-state.js';

/** What storing files into one category needs: the upload queue's and the retake's ports. */
export interface CategoryUploadPorts {
  api: Pick<ApiClient, 'presignUpload' | 'completeUpload'>;
  putFile: PutFile;
  convert: ConvertImage;
  /** Local storage: holds the convert-to-PDF preference (it applies to retakes too). */
  storage: KeyValueStorage;
  platform: Pick<Dialogs, 'alert'>;
  target: UploadTarget;
  /** Reloads the file list afterwards (usually `fileList.send({ type: 'refresh' })`). */
  refresh: () => unknown;
}

/** The ports of {@link createUploadFlow}. */
export interface UploadFlowOptions extends CategoryUploadPorts {
  /** Checks each queued photo's quality; without it no warnings are shown. */
  inspect?: InspectImage;
  /** The names already in the category (the file list), so camera captures get the next number. */
  uploadedNames?: () => readonly string[];
  /** The server's upload limit once known (`GET /config`); larger files are refused in the queue. */
  maxUploadBytes?: () => number | null;
  /** Keeps each queued file on the device before it counts as queued; without it nothing is kept. */
  journal?: UploadJournal;
  /** The client's name, kept with each file for the resume offer and the tray. */
  clientName?: () => string | undefined;
  /** Tells when the network comes back, so waiting files go again. */
  connectivity?: Connectivity;
  /** Times the automatic retries; without it files go again only when the network comes back or on Retry. */
  clock?: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  /** Makes the id of a new queue item (unique across every queue of the app when a journal keeps them). */
  newId?: () => string;
  /** What becomes of a failed upload, and the pauses of the automatic retries; the product's by default. */
  retry?: RetryPolicy;
}

/** The upload queue flow. */
export interface UploadFlow extends Flow<UploadState, UploadEvent> {
  /**
   * Adds files (as the `add` event does) and returns the new items' ids at once, in order; `ready`
   * resolves when they are converted and kept.
   */
  addFiles(
    files: readonly FileLike[],
    options?: { camera?: boolean; keptByHost?: boolean },
  ): { ids: readonly string[]; ready: Promise<void> };
  /** Stops the automatic retries and the connection watch (the queue is dropped). */
  dispose(): void;
}

/**
 * Creates the upload queue flow for one category of one client.
 *
 * @example Queue two files and upload them (the kiosk's headless intake does this in Node):
 * ```ts
 * import { createApiClient, createFetchPutFile, createImageConverter, createUploadFlow } from '@vita-docs/core';
 * import { createSharpRaster } from '@vita-docs/core/node';
 *
 * const api = createApiClient({ baseUrl: 'https://vita.example.org/api', fetch: signedInFetch });
 * const flow = createUploadFlow({
 *   api,
 *   putFile: createFetchPutFile(fetch),
 *   convert: createImageConverter({ raster: createSharpRaster() }),
 *   storage: preferences, // any KeyValueStorage: getItem, setItem, removeItem
 *   platform: { alert: console.log },
 *   target: { clientId, docType: 'W-2' },
 *   refresh: () => undefined,
 * });
 * await flow.addFiles([w2Photo, w2Pdf]).ready; // photos become Letter PDFs first
 * flow.send({ type: 'upload' });
 * flow.subscribe((state) => console.log(state.queue.map((item) => item.progress.status)));
 * ```
 */
export function createUploadFlow(options: UploadFlowOptions): UploadFlow {
  const { storage, target, uploadedNames, maxUploadBytes, journal, connectivity, clock } = options;
  let counter = 1;
  const newId = options.newId ?? (() => `file-${counter++}`);
  const retry = options.retry ?? defaultRetryPolicy;
  const runner = createUploadRunner(
    { ...options, writePreference: (enabled) => writeConvertPreference(storage, enabled) },
    initialMachine(readConvertPreference(storage)),
    () => ({
      now: clock?.now() ?? 0,
      online: connectivity?.online() ?? true,
      maxUploadBytes: maxUploadBytes?.() ?? 0,
      journal: journal !== undefined,
      timed: clock !== undefined,
      retry,
    }),
  );
  const { getState, subscribe } = runner.store;

  function add(chosen: readonly FileLike[], camera: boolean, keptByHost: boolean) {
    const taken = () => [
      ...(uploadedNames?.() ?? []),
      ...getState().queue.flatMap((item) => [item.file.name, item.original.name]),
    ];
    const files = camera ? nameCaptures(chosen, target.docType, taken()) : chosen;
    const added = files.map((file) => ({ id: newId(), file }));
    void runner.dispatch({ type: 'add', files: added, keptByHost });
    return { ids: added.map((item) => item.id), ready: runner.prepared() };
  }

  return {
    getState,
    subscribe,
    addFiles: (files, { camera = false, keptByHost = false } = {}) => add(files, camera, keptByHost),
    dispose: () => runner.dispose(),
    async send(event) {
      switch (event.type) {
        case 'add':
          return add(event.files, event.camera ?? false, event.keptByHost ?? false).ready;
        case 'upload':
        case 'retry': {
          const round = runner.dispatchRound(event);
          if (round) await round;
          return;
        }
        case 'rotate':
        case 'crop':
          await runner.dispatch(event);
          return runner.prepared();
        case 'replace': {
          const item = getState().queue.find((queued) => queued.id === event.id);
          await runner.dispatch({
            ...event,
            file: item ? retakeFile(item.original.name, event.file) : event.file,
          });
          return runner.prepared();
        }
        case 'restore':
          // Resolves once photos kept before their PDF are made again (and kept), as `add`'s `ready`.
          await runner.dispatch(event);
          return runner.prepared();
        case 'remove':
        case 'setConvertToPdf':
        case 'keep':
          return runner.dispatch(event);
      }
    },
  };
}
