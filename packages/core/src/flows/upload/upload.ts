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
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage, isApiError } from '../../api/errors.js';
import type { ApiErrorKind } from '../../api/errors.js';
import { rememberFingerprint, uploadDocument } from '../../api/upload.js';
import type { PutFile, UploadTarget } from '../../api/upload.js';
import { captureFileName, fileExtension, refusalBeforeUpload } from '../../domain/files.js';
import { messages } from '../../domain/messages.js';
import { isHeicFile, isPhotoFile } from '../../pdf/convertible.js';
import { turnBy } from '../../pdf/raster.js';
import type { QuarterTurn } from '../../pdf/raster.js';
import type { Clock, Connectivity, Dialogs, FileLike, KeyValueStorage } from '../../ports.js';
import type { QualityWarning } from '../../quality/assess.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';
import type { JournalEntry, KeptFile, UploadJournal } from './journal.js';
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
  /** Being kept on the device (the journal) before it counts as queued. */
  | { status: 'saving' }
  | { status: 'queued' }
  | { status: 'uploading'; loaded: number; total: number }
  /** Its upload found no network: it goes again by itself when the connection is back. */
  | { status: 'waiting' }
  | { status: 'done' }
  | FailedProgress;

/** Why a file could not be uploaded. */
export interface FailedProgress {
  status: 'failed';
  error: string;
  /** `false` when sending it again cannot help (too large, a refused type, no permission). */
  retryable: boolean;
  /** What failed: an HTTP answer, no answer, an answer outside the contract, or something else. */
  kind: ApiErrorKind | 'other';
  /** The HTTP status of the answer; 0 without one. */
  httpStatus: number;
  /** When it is sent again by itself (ms since the epoch); absent when only Retry sends it. */
  retryAt?: number;
}

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
  /** Kept on the device: a reload or a closed tab does not lose it. */
  saved: boolean;
  /** Kept by the host itself (a scan in the watched folder, whose ledger says what became of it): never journaled. */
  keptByHost?: boolean;
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
  /**
   * `camera`: photos just taken, named after the category (`Banking Info 1.pdf`); others keep their
   * names. `keptByHost`: files the host keeps until they are uploaded (scans), so not journaled.
   */
  | { type: 'add'; files: readonly FileLike[]; camera?: boolean; keptByHost?: boolean }
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
  | { type: 'replace'; id: string; file: FileLike }
  /** Files kept on the device from an earlier visit, queued again as they were (already converted). */
  | { type: 'restore'; files: readonly KeptFile[] };

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
}

/** Seconds before each automatic retry of a file; the last repeats. */
export const RETRY_DELAYS_SECONDS: readonly number[] = [0, 3, 5, 10, 20, 30];

/**
 * Whether sending the file again could work. Not for too large (413), a refused type (415) or no
 * permission (403 from the API); a 403 from the file store is an expired URL, which a retry renews.
 */
function canRetry(error: unknown): boolean {
  if (!isApiError(error)) return true;
  if (error.status === 413 || error.status === 415) return false;
  return !(error.status === 403 && error.origin === 'api');
}

/**
 * Whether the failure is the server's or the way's, which time may fix by itself: a server error,
 * too many requests, a timeout, or an expired upload URL (the retry asks for a new one).
 */
function retriesByItself(error: unknown): boolean {
  if (!isApiError(error) || error.kind !== 'http') return false;
  const { status, origin } = error;
  return status >= 500 || status === 408 || status === 429 || (status === 403 && origin === 'storage');
}

/** Whether `Retry` may send the file now: it failed in a way retrying can fix, or waits for the network. */
export function canRetryNow(progress: FileProgress): boolean {
  return (progress.status === 'failed' && progress.retryable) || progress.status === 'waiting';
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

/** Creates the upload queue flow. */
export function createUploadFlow(options: UploadFlowOptions): UploadFlow {
  const { api, putFile, convert, inspect, storage, platform, target, refresh, uploadedNames, maxUploadBytes } = options;
  const { journal, clientName, connectivity, clock } = options;
  const store = createStore<UploadState>({
    status: 'idle',
    queue: [],
    convertToPdf: readConvertPreference(storage),
    lastUploaded: 0,
  });
  let counter = 1;
  const newId = options.newId ?? (() => `file-${counter++}`);
  let preparing: Promise<void> = Promise.resolve();
  let converting = 0;
  /** Per queued file, the latest conversion asked for: an older one finishing late is dropped. */
  const conversions = new Map<string, number>();
  /** Automatic retries so far, per file: they set the next pause. */
  const attempts = new Map<string, number>();
  let timer: { handle: unknown } | null = null;
  let disposed = false;
  /** Aborted by `dispose`: an upload under way stops before its next request. */
  const stopping = new AbortController();
  /** Upload was asked while a retry round ran: a full round follows it (restored files, say). */
  let again = false;
  /** Whether the round under way is the person's Upload (which takes files queued meanwhile). */
  let manualRound = false;

  const update = (id: string, patch: Partial<Omit<QueuedFile, 'id'>>) =>
    store.setState((s) => ({ ...s, queue: s.queue.map((item) => (item.id === id ? { ...item, ...patch } : item)) }));
  const setProgress = (id: string, progress: FileProgress) => update(id, { progress });
  const setStatus = (status: UploadState['status']) => store.setState((s) => ({ ...s, status }));
  const find = (id: string) => store.getState().queue.find((item) => item.id === id);
  const forget = (id: string) => {
    attempts.delete(id);
    journal?.remove(id).catch(() => undefined); // a leftover is found by its SHA-256 if ever sent again
  };

  /** Ready to send, or refused at once when over the server's limit (sending it could only fail). */
  const readiness = (file: FileLike): FileProgress => {
    const refusal = refusalBeforeUpload(file, maxUploadBytes?.() ?? 0);
    return refusal
      ? { status: 'failed', error: refusal, retryable: false, kind: 'other', httpStatus: 413 }
      : { status: 'queued' };
  };

  /**
   * Settles a file that is ready to send: kept on the device first when there is a journal (it shows
   * as queued only then), so a reload cannot lose it. A file that cannot be kept is queued anyway,
   * with a note, rather than lost now.
   */
  async function keep(id: string, file: FileLike, notice: string | undefined): Promise<void> {
    if (disposed) return; // the queue is gone (another person): nothing of it is kept
    const ready = readiness(file);
    const byHost = find(id)?.keptByHost === true;
    if (!journal || byHost || ready.status !== 'queued') {
      update(id, { progress: ready, file, notice, saved: byHost });
      return;
    }
    update(id, { progress: { status: 'saving' }, file, notice, saved: false });
    const entry: JournalEntry = {
      id,
      target,
      name: file.name,
      type: file.type,
      size: file.size,
      ...(clientName?.() ? { clientName: clientName() } : {}),
    };
    let saved = true;
    try {
      // Read once: kept from these bytes, and fingerprinted from them for the presign.
      const bytes = await file.arrayBuffer();
      rememberFingerprint(file, bytes);
      await journal.save(entry, file, bytes);
    } catch {
      saved = false;
    }
    const item = find(id);
    // Removed, turned or replaced while it was being kept: the newer version settles itself.
    if (!item || item.file !== file || item.progress.status !== 'saving') {
      if (!item) forget(id);
      return;
    }
    update(id, { progress: ready, saved, notice: saved ? notice : (notice ?? messages.notKeptOnDevice) });
  }

  /** A new queue entry: a photo is converted first when the toggle is on (its PDF is what counts). */
  function entry(id: string, file: FileLike, keptByHost = false): QueuedFile {
    const toConvert = store.getState().convertToPdf && isPhotoFile(file);
    return {
      id,
      file,
      original: file,
      progress: toConvert ? { status: 'converting' } : journal && !keptByHost ? { status: 'saving' } : readiness(file),
      rotate: toConvert ? 0 : null,
      warnings: [],
      saved: keptByHost,
      ...(keptByHost ? { keptByHost } : {}),
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

  /** Queues the conversion of an entry's photo at its current turn, then keeps the result. */
  function convertLater(item: QueuedFile): Promise<void> {
    const ticket = (conversions.get(item.id) ?? 0) + 1;
    conversions.set(item.id, ticket);
    const current = () => conversions.get(item.id) === ticket && find(item.id)?.original === item.original;
    // One conversion at a time: phone photos are large and memory is not.
    preparing = preparing.then(async () => {
      if (!current() || disposed) return; // removed, replaced or turned again while waiting; or dropped
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
        await keep(item.id, file, asIs ? messages.heicUploadedAsIs : undefined);
      }
      if (converting === 0 && store.getState().status === 'converting') setStatus('idle');
    });
    return preparing;
  }

  /** Keeps a file that needs no conversion, in turn with the conversions (so `add` resolves after both). */
  function keepLater(item: QueuedFile): Promise<void> {
    preparing = preparing.then(() => (find(item.id)?.file === item.file ? keep(item.id, item.file, item.notice) : undefined));
    return preparing;
  }

  function add(chosen: readonly FileLike[], camera: boolean, keptByHost: boolean): { ids: readonly string[]; ready: Promise<void> } {
    const files = camera ? nameCaptures(chosen) : chosen;
    const added = files.map((file) => entry(newId(), file, keptByHost));
    store.setState((s) => ({ ...s, queue: [...s.queue, ...added] }));
    for (const item of added) {
      check(item);
      if (item.progress.status === 'converting') void convertLater(item);
      else if (item.progress.status === 'saving') void keepLater(item);
    }
    return { ids: added.map((item) => item.id), ready: preparing };
  }

  function restore(kept: readonly KeptFile[]): void {
    const present = new Set(store.getState().queue.map((item) => item.id));
    const restored = kept
      .filter(({ entry: e }) => !present.has(e.id))
      .map(({ entry: e, file }): QueuedFile => ({
        id: e.id,
        file,
        original: file,
        progress: readiness(file),
        rotate: null,
        warnings: [],
        saved: true,
      }));
    store.setState((s) => ({ ...s, queue: [...s.queue, ...restored] }));
  }

  /** Whether a file may be changed now: not while it is sent, nor while the queue is being sent. */
  const changeable = (item: QueuedFile | undefined): item is QueuedFile => {
    const { status } = store.getState();
    return (
      item !== undefined &&
      status !== 'uploading' &&
      status !== 'refreshing' &&
      (item.progress.status === 'queued' ||
        item.progress.status === 'failed' ||
        item.progress.status === 'waiting' ||
        item.progress.status === 'converting')
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
    attempts.delete(id);
    // The retake takes the name of what it replaces (a camera's `image.jpg` would say nothing).
    const previous = item.original.name;
    const base = previous.slice(0, previous.length - fileExtension(previous).length);
    // The retake is a new file: the host (a scan's folder) does not keep it, the journal does.
    const replaced = entry(id, renamed(file, `${base}${fileExtension(file.name).toLowerCase() || '.jpg'}`));
    update(id, { ...replaced, notice: undefined, keptByHost: false });
    check(replaced);
    return replaced.progress.status === 'converting' ? convertLater(replaced) : keepLater(replaced);
  }

  /** What an upload that threw leaves on its file: waiting for the network, or failed (maybe to go again later). */
  function afterFailure(id: string, error: unknown): FileProgress {
    if (isApiError(error) && error.kind === 'network') return { status: 'waiting' };
    const failed: FailedProgress = {
      status: 'failed',
      error: errorMessage(error),
      retryable: canRetry(error),
      kind: isApiError(error) ? error.kind : 'other',
      httpStatus: isApiError(error) ? error.status : 0,
    };
    if (!clock || !retriesByItself(error)) return failed;
    const done = attempts.get(id) ?? 0;
    attempts.set(id, done + 1);
    const pause = RETRY_DELAYS_SECONDS[Math.min(done, RETRY_DELAYS_SECONDS.length - 1)] ?? 30;
    return { ...failed, retryAt: clock.now() + pause * 1000 };
  }

  /** Files an automatic round sends: those whose pause is over, and the waiting ones while online. */
  function dueByItself(item: QueuedFile, now: number): boolean {
    const { progress } = item;
    if (progress.status === 'waiting') return connectivity?.online() ?? true;
    return progress.status === 'failed' && progress.retryAt !== undefined && progress.retryAt <= now;
  }

  /**
   * Sends files one by one: `manual` (Upload) every queued, waiting and retryable one, including
   * files added meanwhile; `only` that one; `auto` those {@link dueByItself}. Failures of a round the
   * person started are shown in one alert; automatic rounds show them on the files only.
   */
  async function uploadBatch(mode: { manual: true } | { only: string } | { auto: true }): Promise<void> {
    clearTimer();
    manualRound = 'manual' in mode;
    store.setState((s) => ({ ...s, status: 'uploading', lastUploaded: 0 }));
    const attempted = new Set<string>();
    const failures: { name: string; error: string }[] = [];
    const startedAt = clock?.now() ?? 0;
    let uploaded = 0;
    const wanted = (item: QueuedFile): boolean => {
      if ('only' in mode) return item.id === mode.only;
      if ('auto' in mode) return dueByItself(item, startedAt);
      const { progress } = item;
      return (
        progress.status === 'queued' || progress.status === 'waiting' || (progress.status === 'failed' && progress.retryable)
      );
    };
    /** Still being converted or kept: Upload sends it once it is ready, in its turn. */
    const preparingNow = (item: QueuedFile) =>
      'manual' in mode && (item.progress.status === 'converting' || item.progress.status === 'saving');
    for (;;) {
      // Re-read the queue each round: files may have been added or removed meanwhile.
      const next = store.getState().queue.find((item) => !attempted.has(item.id) && (wanted(item) || preparingNow(item)));
      if (!next || disposed) break;
      if (preparingNow(next)) {
        // The files before it are sent while it is made ready: keeping a file overlaps the uploads.
        await new Promise<void>((resolve) => {
          const stop = store.subscribe(() => {
            stop();
            resolve();
          });
        });
        continue;
      }
      attempted.add(next.id);
      setProgress(next.id, { status: 'uploading', loaded: 0, total: next.file.size });
      try {
        await uploadDocument(
          api,
          putFile,
          target,
          next.file,
          (loaded, total) => {
            if (find(next.id)?.progress.status === 'uploading') setProgress(next.id, { status: 'uploading', loaded, total });
          },
          { signal: stopping.signal },
        );
        setProgress(next.id, { status: 'done' });
        forget(next.id);
        uploaded += 1;
      } catch (error) {
        const progress = afterFailure(next.id, error);
        setProgress(next.id, progress);
        // No network: the files after it would find none either; they wait for it too.
        if (progress.status === 'waiting') {
          for (const item of store.getState().queue) {
            if (!attempted.has(item.id) && wanted(item) && item.progress.status !== 'failed') {
              attempted.add(item.id);
              setProgress(item.id, { status: 'waiting' });
            }
          }
        }
        if (progress.status === 'failed' && !('auto' in mode)) failures.push({ name: next.file.name, error: progress.error });
      }
    }
    if (disposed) return; // dropped meanwhile: nothing more to show anyone
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
    if (again) {
      again = false;
      void uploadBatch({ manual: true });
    } else schedule();
    const [single, ...others] = failures;
    if (single && !others.length) await platform.alert(single.error);
    else if (failures.length > 1) await platform.alert(failures.map((f) => `${f.name}: ${f.error}`).join('\n'));
  }

  function clearTimer(): void {
    if (timer) clock?.clearTimeout(timer.handle);
    timer = null;
  }

  /**
   * Sets the one timer of the next automatic round: when the first failed file's pause ends, or —
   * for files waiting for the network while the device says it is online (a server out of reach) —
   * after the next pause of the retry schedule.
   */
  function schedule(): void {
    clearTimer();
    if (!clock || disposed) return;
    const now = clock.now();
    let at = Infinity;
    for (const item of store.getState().queue) {
      const { progress } = item;
      if (progress.status === 'failed' && progress.retryAt !== undefined) at = Math.min(at, progress.retryAt);
      if (progress.status === 'waiting' && (connectivity?.online() ?? true)) {
        const done = attempts.get(item.id) ?? 0;
        const pause = RETRY_DELAYS_SECONDS[Math.min(done + 1, RETRY_DELAYS_SECONDS.length - 1)] ?? 30;
        attempts.set(item.id, done + 1);
        at = Math.min(at, now + pause * 1000);
      }
    }
    if (at === Infinity) return;
    const handle = clock.setTimeout(() => void runByItself(), Math.max(0, at - now));
    timer = { handle };
  }

  async function runByItself(): Promise<void> {
    timer = null;
    const { status, queue } = store.getState();
    if (disposed) return;
    // Busy: the round under way schedules the next one when it ends.
    if (status === 'uploading' || status === 'refreshing') return;
    const now = clock?.now() ?? Infinity;
    if (queue.some((item) => dueByItself(item, now))) await uploadBatch({ auto: true });
    else schedule();
  }

  const stopWatching = connectivity?.onOnline(() => {
    // Back online: every waiting file goes now, whatever pause it was in.
    for (const item of store.getState().queue) if (item.progress.status === 'waiting') attempts.delete(item.id);
    void runByItself();
  });

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    addFiles: (files, { camera = false, keptByHost = false } = {}) => add(files, camera, keptByHost),
    dispose() {
      disposed = true;
      stopping.abort();
      clearTimer();
      stopWatching?.();
    },
    async send(event) {
      const state = store.getState();
      const busy = state.status === 'uploading' || state.status === 'refreshing';
      switch (event.type) {
        case 'add':
          return add(event.files, event.camera ?? false, event.keptByHost ?? false).ready;
        case 'remove': {
          const item = find(event.id);
          if (item && item.progress.status !== 'uploading') {
            conversions.delete(event.id);
            forget(event.id);
            store.setState((s) => ({ ...s, queue: s.queue.filter((q) => q.id !== event.id) }));
          }
          return;
        }
        case 'setConvertToPdf':
          writeConvertPreference(storage, event.enabled);
          store.setState((s) => ({ ...s, convertToPdf: event.enabled }));
          return;
        case 'upload':
          if (busy) again ||= !manualRound;
          else if (state.queue.length) await uploadBatch({ manual: true });
          return;
        case 'retry': {
          const item = find(event.id);
          if (!busy && item && canRetryNow(item.progress)) await uploadBatch({ only: event.id });
          return;
        }
        case 'rotate':
          return rotate(event.id, event.by);
        case 'keep':
          if (find(event.id)) update(event.id, { warnings: [] });
          return;
        case 'replace':
          return replace(event.id, event.file);
        case 'restore':
          restore(event.files);
          return;
      }
    },
  };
}
