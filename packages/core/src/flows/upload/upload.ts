/**
 * The upload queue of the category screen (docs/behaviour.md#upload-queue): chosen files are queued — images
 * converted to PDF first when the toggle is on — and on Upload sent one by one; then the queue is
 * cleared and the list refreshed. A file that fails stays queued with its error while the others
 * go on, so nothing is lost; it can be retried.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import { uploadDocument } from '../../api/upload.js';
import type { PutFile, UploadTarget } from '../../api/upload.js';
import { isConvertibleImage } from '../../pdf/convertible.js';
import type { Dialogs, FileLike, KeyValueStorage } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';
import { readConvertPreference, writeConvertPreference } from './preference.js';

/** Turns an image into its PDF; returns the file unchanged when it cannot (see `imageToLetterPdf`). */
export type ConvertImage = (file: FileLike) => Promise<FileLike>;

/** One queued file's progress: exactly one of these at a time. */
export type FileProgress =
  | { status: 'converting' }
  | { status: 'queued' }
  | { status: 'uploading'; loaded: number; total: number }
  | { status: 'done' }
  | { status: 'failed'; error: string };

/** A file in the queue (after conversion, `file` is the PDF). */
export interface QueuedFile {
  id: string;
  file: FileLike;
  progress: FileProgress;
}

/** The queue; `status` says what the flow as a whole is doing. */
export interface UploadState {
  status: 'idle' | 'converting' | 'uploading' | 'refreshing';
  queue: readonly QueuedFile[];
  convertToPdf: boolean;
}

/** What the user does. */
export type UploadEvent =
  | { type: 'add'; files: readonly FileLike[] }
  | { type: 'remove'; id: string }
  | { type: 'setConvertToPdf'; enabled: boolean }
  /** Sends every queued (and previously failed) file. */
  | { type: 'upload' }
  /** Sends one failed file again. */
  | { type: 'retry'; id: string };

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
export type UploadFlowOptions = CategoryUploadPorts;

/** The upload queue flow. */
export type UploadFlow = Flow<UploadState, UploadEvent>;

/** Creates the upload queue flow. */
export function createUploadFlow(options: UploadFlowOptions): UploadFlow {
  const { api, putFile, convert, storage, platform, target, refresh } = options;
  const store = createStore<UploadState>({ status: 'idle', queue: [], convertToPdf: readConvertPreference(storage) });
  let nextId = 1;
  let preparing: Promise<void> = Promise.resolve();
  let converting = 0;

  const setProgress = (id: string, progress: FileProgress, file?: FileLike) =>
    store.setState((s) => ({
      ...s,
      queue: s.queue.map((item) => (item.id === id ? { ...item, progress, file: file ?? item.file } : item)),
    }));
  const setStatus = (status: UploadState['status']) => store.setState((s) => ({ ...s, status }));
  const find = (id: string) => store.getState().queue.find((item) => item.id === id);

  function add(files: readonly FileLike[]): Promise<void> {
    const convertNow = store.getState().convertToPdf;
    const added = files.map((file): QueuedFile => {
      const toConvert = convertNow && isConvertibleImage(file);
      return { id: `file-${nextId++}`, file, progress: toConvert ? { status: 'converting' } : { status: 'queued' } };
    });
    store.setState((s) => ({ ...s, queue: [...s.queue, ...added] }));
    const pending = added.filter((item) => item.progress.status === 'converting');
    if (!pending.length) return preparing;
    // One conversion at a time: phone photos are large and memory is not.
    preparing = preparing.then(async () => {
      converting += 1;
      if (store.getState().status === 'idle') setStatus('converting');
      for (const item of pending) {
        if (!find(item.id)) continue; // removed while waiting
        let file = item.file;
        try {
          file = await convert(item.file);
        } catch {
          // The converter port reports its own failures; the original is uploaded instead.
        }
        if (find(item.id)) setProgress(item.id, { status: 'queued' }, file);
      }
      converting -= 1;
      if (converting === 0 && store.getState().status === 'converting') setStatus('idle');
    });
    return preparing;
  }

  async function uploadBatch(only?: string): Promise<void> {
    setStatus('uploading');
    await preparing;
    const attempted = new Set<string>();
    const failures: { name: string; error: string }[] = [];
    let uploaded = 0;
    for (;;) {
      // Re-read the queue each round: files may have been added or removed meanwhile.
      const next = store
        .getState()
        .queue.find(
          (item) =>
            !attempted.has(item.id) &&
            (only ? item.id === only : item.progress.status === 'queued' || item.progress.status === 'failed'),
        );
      if (!next) break;
      attempted.add(next.id);
      setProgress(next.id, { status: 'uploading', loaded: 0, total: next.file.size });
      try {
        await uploadDocument(api, putFile, target, next.file, (loaded, total) => {
          if (find(next.id)?.progress.status === 'uploading') setProgress(next.id, { status: 'uploading', loaded, total });
        });
        setProgress(next.id, { status: 'done' });
        uploaded += 1;
      } catch (error) {
        const message = errorMessage(error);
        setProgress(next.id, { status: 'failed', error: message });
        failures.push({ name: next.file.name, error: message });
      }
    }
    store.setState((s) => ({ ...s, queue: s.queue.filter((item) => item.progress.status !== 'done') }));
    if (uploaded > 0) {
      setStatus('refreshing');
      try {
        await refresh();
      } catch {
        // The list shows its own load errors.
      }
    }
    setStatus(converting > 0 ? 'converting' : 'idle');
    const [single, ...others] = failures;
    if (single && !others.length) await platform.alert(single.error);
    else if (failures.length > 1) await platform.alert(failures.map((f) => `${f.name}: ${f.error}`).join('\n'));
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const state = store.getState();
      const busy = state.status === 'uploading' || state.status === 'refreshing';
      switch (event.type) {
        case 'add':
          return add(event.files);
        case 'remove': {
          const item = find(event.id);
          if (item && item.progress.status !== 'uploading') {
            store.setState((s) => ({ ...s, queue: s.queue.filter((q) => q.id !== event.id) }));
          }
          return;
        }
        case 'setConvertToPdf':
          writeConvertPreference(storage, event.enabled);
          store.setState((s) => ({ ...s, convertToPdf: event.enabled }));
          return;
        case 'upload':
          if (!busy && state.queue.length) await uploadBatch();
          return;
        case 'retry':
          if (!busy && find(event.id)?.progress.status === 'failed') await uploadBatch(event.id);
          return;
      }
    },
  };
}
