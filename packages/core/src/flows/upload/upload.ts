/**
 * The upload queue of the category screen (docs/behaviour.md#upload-queue): chosen files are queued — images
 * converted to PDF first when the toggle is on — and on Upload sent one by one; then the queue is
 * cleared and the list refreshed. A file that fails stays queued with its error while the others
 * go on, so nothing is lost; it can be retried. Every image is also checked for quality
 * (docs/behaviour.md#quality-warnings): the warnings show on the queued file, which can be retaken,
 * kept anyway or turned; nothing is blocked by them.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage, isApiError } from '../../api/errors.js';
import { uploadDocument } from '../../api/upload.js';
import type { PutFile, UploadTarget } from '../../api/upload.js';
import { captureFileName, fileExtension, refusalBeforeUpload } from '../../domain/files.js';
import { messages } from '../../domain/messages.js';
import { isHeicFile, isPhotoFile } from '../../pdf/convertible.js';
import { turnBy } from '../../pdf/raster.js';
import type { QuarterTurn } from '../../pdf/raster.js';
import type { Dialogs, FileLike, KeyValueStorage } from '../../ports.js';
import type { QualityWarning } from '../../quality/assess.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';
import { readConvertPreference, writeConvertPreference } from './preference.js';

/**
 * Turns an image to its PDF (turned clockwise by `rotate` after its EXIF orientation); returns the file
 * unchanged when it cannot (see `imageToLetterPdf`).
 */
export type ConvertImage = (file: FileLike, options?: { rotate?: QuarterTurn }) => Promise<FileLike>;

/** The quality warnings of a photo (see `assessImage`); rejects when the image cannot be read here. */
export type InspectImage = (file: FileLike) => Promise<readonly QualityWarning[]>;

/** One queued file's progress: exactly one of these at a time. */
export type FileProgress =
  | { status: 'converting' }
  | { status: 'queued' }
  | { status: 'uploading'; loaded: number; total: number }
  | { status: 'done' }
  /** `retryable: false` when sending it again cannot help (too large, a refused type, no permission). */
  | { status: 'failed'; error: string; retryable: boolean };

/** A file in the queue (after conversion, `file` is the PDF). */
export interface QueuedFile {
  id: string;
  /** What is uploaded: the PDF made from the photo, or the chosen file itself. */
  file: FileLike;
  /** The file as chosen (the photo a PDF was made from): what a thumbnail shows. */
  original: FileLike;
  progress: FileProgress;
  /** The turn applied in the conversion; null when the file is not converted, so cannot be turned. */
  rotate: QuarterTurn | null;
  /** What the quality check found; emptied by `keep`. */
  warnings: readonly QualityWarning[];
  /** A note on how the file goes up (a HEIC photo this platform cannot convert). */
  notice?: string;
}

/** The queue; `status` says what the flow as a whole is doing. */
export interface UploadState {
  status: 'idle' | 'converting' | 'uploading' | 'refreshing';
  queue: readonly QueuedFile[];
  convertToPdf: boolean;
  /** How many files the last finished batch stored (0 until one has, and while the next runs). */
  lastUploaded: number;
}

/** What the user does. */
export type UploadEvent =
  /** `camera`: photos just taken, named after the category (`Banking Info 1.pdf`); others keep their names. */
  | { type: 'add'; files: readonly FileLike[]; camera?: boolean }
  | { type: 'remove'; id: string }
  | { type: 'setConvertToPdf'; enabled: boolean }
  /** Sends every queued (and previously failed) file. */
  | { type: 'upload' }
  /** Sends one failed file again. */
  | { type: 'retry'; id: string }
  /** Turns a converted photo a quarter clockwise (90) or anticlockwise (-90) and converts it again. */
  | { type: 'rotate'; id: string; by: 90 | -90 }
  /** Dismisses the quality warnings of a file: it is uploaded as it is. */
  | { type: 'keep'; id: string }
  /** Retake: `file` takes the queued file's place (same position), checked and converted afresh. */
  | { type: 'replace'; id: string; file: FileLike };

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
}

/**
 * Whether sending the file again could work. Not for too large (413), a refused type (415) or no
 * permission (403 from the API); a 403 from the file store is an expired URL, which a retry renews.
 */
function canRetry(error: unknown): boolean {
  if (!isApiError(error)) return true;
  if (error.status === 413 || error.status === 415) return false;
  return !(error.status === 403 && error.origin === 'api');
}

/** The file under another name, bytes untouched. */
function renamed(file: FileLike, name: string): FileLike {
  if (file instanceof Blob) return new File([file], name, { type: file.type, lastModified: Date.now() });
  return {
    name,
    type: file.type,
    size: file.size,
    arrayBuffer: () => file.arrayBuffer(),
    ...(file.slice ? { slice: file.slice.bind(file) } : {}),
  };
}

/** The upload queue flow. */
export type UploadFlow = Flow<UploadState, UploadEvent>;

/** Creates the upload queue flow. */
export function createUploadFlow(options: UploadFlowOptions): UploadFlow {
  const { api, putFile, convert, inspect, storage, platform, target, refresh, uploadedNames, maxUploadBytes } = options;
  const store = createStore<UploadState>({
    status: 'idle',
    queue: [],
    convertToPdf: readConvertPreference(storage),
    lastUploaded: 0,
  });
  let nextId = 1;
  let preparing: Promise<void> = Promise.resolve();
  let converting = 0;
  /** Per queued file, the latest conversion asked for: an older one finishing late is dropped. */
  const conversions = new Map<string, number>();

  const update = (id: string, patch: Partial<Omit<QueuedFile, 'id'>>) =>
    store.setState((s) => ({ ...s, queue: s.queue.map((item) => (item.id === id ? { ...item, ...patch } : item)) }));
  const setProgress = (id: string, progress: FileProgress) => update(id, { progress });
  const setStatus = (status: UploadState['status']) => store.setState((s) => ({ ...s, status }));
  const find = (id: string) => store.getState().queue.find((item) => item.id === id);

  /** Ready to send, or refused at once when over the server's limit (sending it could only fail). */
  const readiness = (file: FileLike): FileProgress => {
    const refusal = refusalBeforeUpload(file, maxUploadBytes?.() ?? 0);
    return refusal ? { status: 'failed', error: refusal, retryable: false } : { status: 'queued' };
  };

  /** A new queue entry: a photo is converted first when the toggle is on (its PDF is what counts). */
  function entry(id: string, file: FileLike): QueuedFile {
    const toConvert = store.getState().convertToPdf && isPhotoFile(file);
    return {
      id,
      file,
      original: file,
      progress: toConvert ? { status: 'converting' } : readiness(file),
      rotate: toConvert ? 0 : null,
      warnings: [],
    };
  }

  /** Camera photos named `<category> <n>` after every name the category and the queue already hold. */
  function nameCaptures(files: readonly FileLike[]): FileLike[] {
    const taken = [
      ...(uploadedNames?.() ?? []),
      ...store.getState().queue.flatMap((item) => [item.file.name, item.original.name]),
    ];
    return files.map((file) => {
      const name = captureFileName(target.docType, taken, fileExtension(file.name).toLowerCase() || '.jpg');
      taken.push(name);
      return renamed(file, name);
    });
  }

  /** Starts the quality check of a photo; its warnings land on the entry if the entry still holds it. */
  function check(item: QueuedFile): void {
    if (!inspect || !isPhotoFile(item.original)) return;
    inspect(item.original).then(
      (warnings) => {
        if (find(item.id)?.original === item.original && warnings.length) update(item.id, { warnings });
      },
      // A photo this platform cannot read has nothing to say about its quality.
      () => undefined,
    );
  }

  /** Queues the conversion of an entry's photo at its current turn. */
  function convertLater(item: QueuedFile): Promise<void> {
    const ticket = (conversions.get(item.id) ?? 0) + 1;
    conversions.set(item.id, ticket);
    const current = () => conversions.get(item.id) === ticket && find(item.id)?.original === item.original;
    // One conversion at a time: phone photos are large and memory is not.
    preparing = preparing.then(async () => {
      if (!current()) return; // removed, replaced or turned again while waiting
      converting += 1;
      if (store.getState().status === 'idle') setStatus('converting');
      let file = item.original;
      try {
        file = await convert(item.original, { rotate: item.rotate ?? 0 });
      } catch {
        // The converter port reports its own failures; the original is uploaded instead.
      }
      converting -= 1;
      if (current()) {
        const asIs = file === item.original && isHeicFile(item.original);
        update(item.id, { progress: readiness(file), file, notice: asIs ? messages.heicUploadedAsIs : undefined });
      }
      if (converting === 0 && store.getState().status === 'converting') setStatus('idle');
    });
    return preparing;
  }

  function add(chosen: readonly FileLike[], camera: boolean): Promise<void> {
    const files = camera ? nameCaptures(chosen) : chosen;
    const added = files.map((file) => entry(`file-${nextId++}`, file));
    store.setState((s) => ({ ...s, queue: [...s.queue, ...added] }));
    for (const item of added) {
      check(item);
      if (item.progress.status === 'converting') void convertLater(item);
    }
    return preparing;
  }

  const retryable = (item: QueuedFile | undefined) => item?.progress.status === 'failed' && item.progress.retryable;

  /** Whether a file may be changed now: not while it is sent, nor while the queue is being sent. */
  const changeable = (item: QueuedFile | undefined): item is QueuedFile => {
    const { status } = store.getState();
    return (
      item !== undefined &&
      status !== 'uploading' &&
      status !== 'refreshing' &&
      (item.progress.status === 'queued' || item.progress.status === 'failed' || item.progress.status === 'converting')
    );
  };

  function rotate(id: string, by: 90 | -90): Promise<void> {
    const item = find(id);
    if (!changeable(item) || item.rotate === null) return preparing;
    const turned: QueuedFile = {
      ...item,
      rotate: turnBy(item.rotate, by),
      progress: { status: 'converting' },
    };
    update(id, turned);
    return convertLater(turned);
  }

  function replace(id: string, file: FileLike): Promise<void> {
    const item = find(id);
    if (!changeable(item)) return preparing;
    // The retake takes the name of what it replaces (a camera's `image.jpg` would say nothing).
    const previous = item.original.name;
    const base = previous.slice(0, previous.length - fileExtension(previous).length);
    const replaced = entry(id, renamed(file, `${base}${fileExtension(file.name).toLowerCase() || '.jpg'}`));
    update(id, { ...replaced, notice: undefined });
    check(replaced);
    return replaced.progress.status === 'converting' ? convertLater(replaced) : preparing;
  }

  async function uploadBatch(only?: string): Promise<void> {
    store.setState((s) => ({ ...s, status: 'uploading', lastUploaded: 0 }));
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
            (only
              ? item.id === only
              : item.progress.status === 'queued' || (item.progress.status === 'failed' && item.progress.retryable)),
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
        setProgress(next.id, { status: 'failed', error: message, retryable: canRetry(error) });
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
    store.setState((s) => ({ ...s, status: converting > 0 ? 'converting' : 'idle', lastUploaded: uploaded }));
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
          return add(event.files, event.camera ?? false);
        case 'remove': {
          const item = find(event.id);
          if (item && item.progress.status !== 'uploading') {
            conversions.delete(event.id);
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
          if (!busy && retryable(find(event.id))) await uploadBatch(event.id);
          return;
        case 'rotate':
          return rotate(event.id, event.by);
        case 'keep':
          if (find(event.id)) update(event.id, { warnings: [] });
          return;
        case 'replace':
          return replace(event.id, event.file);
      }
    },
  };
}
