import { errorMessage } from '../../api/errors.js';
import type { UploadTarget } from '../../api/upload.js';
import { messages } from '../../domain/messages.js';
import type { FileLike } from '../../ports.js';
import { createStore } from '../../store.js';
import type { UploadState } from '../upload/upload-state.js';
import type { UploadFlow } from '../upload/upload.js';
import type { InboxScanView, ScannerInboxSnapshot } from './inbox-snapshot.js';
import type { ScannerInbox } from './scanner-inbox.js';

/** What the "Scanner inbox" panel renders. */
export interface InboxQueueState {
  /** The watched folder; null while none is set. */
  folder: string | null;
  scans: readonly InboxScanView[];
  /** The watcher's last problem, if any. */
  watchError?: string;
  /** Scans now in this screen's upload queue: scan id → queue item id. */
  queued: Readonly<Record<string, string>>;
  /** Scans are being read into the queue. */
  adding: boolean;
  /** The last problem of the panel itself (a scan could not be read, the host refused a mark). */
  problem?: string;
}

export type InboxQueueEvent =
  /** Adds these scans to the upload queue (ids that cannot be added are skipped). */
  | { type: 'add'; ids: readonly string[] }
  /** Adds every scan that can be added, duplicates excepted. */
  | { type: 'addAll' }
  /**
   * Makes these scans (a scanner's one file per page, in this order) into one PDF and adds that; each
   * scan leaves the inbox only when the combined PDF is uploaded.
   */
  | { type: 'combine'; ids: readonly string[] };

export interface InboxQueue {
  getState(): InboxQueueState;
  /** Follows the inbox while anyone listens (the panel is on screen). */
  subscribe(listener: () => void): () => void;
  send(event: InboxQueueEvent): Promise<void>;
  /** Resolves once every mark sent to the host so far has been answered (tests, shutdown). */
  settled(): Promise<void>;
}

export interface InboxQueueOptions {
  inbox: ScannerInbox;
  upload: UploadFlow;
  target: UploadTarget;
  /** Makes one PDF of several scans, pages in the given order (`imagesToLetterPdf`). */
  combine: (files: readonly FileLike[]) => Promise<FileLike>;
}

/**
 * The key a scan's upload attempt records, the same one the headless intake writes.
 * @internal Exported for its unit test.
 */
export const attemptTarget = (target: UploadTarget): string =>
  JSON.stringify([target.clientId, target.docType]);

/** Whether a scan may join the queue now: not queued here and not being uploaded elsewhere. */
export function canAddScan(state: InboxQueueState, scan: InboxScanView): boolean {
  return state.queued[scan.id] === undefined && scan.status !== 'uploading';
}

type Patch = (patch: Partial<InboxQueueState>) => void;

const fromSnapshot = (snapshot: ScannerInboxSnapshot): Partial<InboxQueueState> => ({
  folder: snapshot.folder,
  scans: snapshot.scans,
  watchError: snapshot.error,
});

/** Follows the inbox: each snapshot it pushes, and the one it has now unless a push came first. */
function followInbox(inbox: ScannerInbox, set: Patch): () => void {
  let pushed = false;
  let live = true;
  const stop = inbox.subscribe((snapshot) => {
    pushed = true;
    set(fromSnapshot(snapshot));
  });
  void inbox.getInbox().then(
    // A pushed snapshot is newer than the answer: keep it.
    (snapshot) => live && !pushed && set(fromSnapshot(snapshot)),
    (error: unknown) => set({ problem: errorMessage(error) }),
  );
  return () => {
    live = false;
    stop();
  };
}

/** What to tell the host of a scan. */
type Mark = { scanId: string } & ({ mark: 'uploading' | 'uploaded' } | { mark: 'failed'; error: string });

/**
 * What the queue says of the queued scans since it was last read: a scan whose item is done is
 * uploaded; one whose item is gone without `done` was removed by the person and stays in the inbox
 * as it was; otherwise each new status of its item (`reported`: the last one told, per scan; several
 * scans may share a combined item).
 */
function readQueue(
  queued: InboxQueueState['queued'],
  reported: ReadonlyMap<string, string>,
  queue: UploadState['queue'],
): { queued: InboxQueueState['queued']; reported: Map<string, string>; marks: Mark[] } {
  const next = { ...queued };
  const told = new Map(reported);
  const marks: Mark[] = [];
  for (const [scanId, itemId] of Object.entries(queued)) {
    const item = queue.find((q) => q.id === itemId);
    if (!item || item.progress.status === 'done') {
      if (item) marks.push({ scanId, mark: 'uploaded' });
      told.delete(scanId);
      delete next[scanId];
      continue;
    }
    const { progress } = item;
    if (told.get(scanId) === progress.status) continue;
    told.set(scanId, progress.status);
    if (progress.status === 'uploading') marks.push({ scanId, mark: 'uploading' });
    else if (progress.status === 'failed') marks.push({ scanId, mark: 'failed', error: progress.error });
    else if (progress.status === 'waiting')
      marks.push({ scanId, mark: 'failed', error: messages.waitingForConnection });
  }
  const changed = Object.keys(next).length !== Object.keys(queued).length;
  return { queued: changed ? next : queued, reported: told, marks };
}

/** Reads the scans' bytes; each read keeps its scan (no index lookup back), a failed one is named with its reason. */
async function readScans(inbox: ScannerInbox, scans: readonly InboxScanView[]) {
  const read = await Promise.all(
    scans.map((scan) =>
      inbox.readScan(scan.id).then(
        (file) => ({ scan, file }),
        (error: unknown) => ({ scan, error }),
      ),
    ),
  );
  return {
    files: read.flatMap((r) => ('file' in r ? [r] : [])),
    failed: read.flatMap((r) => ('error' in r ? [`${r.scan.name}: ${errorMessage(r.error)}`] : [])),
  };
}

interface Adding extends Pick<InboxQueueOptions, 'inbox' | 'upload' | 'combine'> {
  get: () => InboxQueueState;
  set: Patch;
  /** Starts following the upload queue (scans are in it now). */
  follow: () => void;
}

/** Reads the scans and queues them, each as it is or (`combined`) all as one PDF. */
async function add(
  { inbox, upload, combine, get, set, follow }: Adding,
  ids: readonly string[],
  combined: boolean,
) {
  const scans = ids
    .map((id) => get().scans.find((scan) => scan.id === id))
    .filter((scan): scan is InboxScanView => scan !== undefined && canAddScan(get(), scan));
  if (!scans.length) return;
  set({ adding: true, problem: undefined });
  const { files, failed } = await readScans(inbox, scans);
  const problem = failed.length ? { problem: failed.join('\n') } : {};
  // Read while another add ran: a scan queued meanwhile is not queued twice.
  const fresh = files.filter(({ scan }) => get().queued[scan.id] === undefined);
  // A combination missing a page would be a wrong document: all of it, or nothing.
  if (combined && (failed.length || fresh.length < 2)) return set({ adding: false, ...problem });
  let toQueue: { scans: InboxScanView[]; file: FileLike }[] = fresh.map(({ scan, file }) => ({
    scans: [scan],
    file,
  }));
  if (combined) {
    try {
      toQueue = [
        { scans: fresh.map(({ scan }) => scan), file: await combine(fresh.map(({ file }) => file)) },
      ];
    } catch (error) {
      return set({ adding: false, problem: errorMessage(error) });
    }
  }
  // The watched folder and its ledger keep scans until they are uploaded: the journal does not.
  const added = upload.addFiles(
    toQueue.map(({ file }) => file),
    { keptByHost: true },
  );
  const queued = { ...get().queued };
  toQueue.forEach((entry, i) => {
    const id = added.ids[i];
    if (id) for (const scan of entry.scans) queued[scan.id] = id;
  });
  set({ queued, ...problem });
  if (Object.keys(queued).length) follow();
  await added.ready;
  set({ adding: false });
}

/**
 * Links the scanner inbox to the category's upload queue. Scans join the queue as ordinary files
 * (conversion and all); this follows each one's queue item and tells the host: `uploading` when its
 * upload starts, `uploaded` only when the upload flow reports it done (the server stored it: the
 * presign and the PUT both succeeded), `failed` with the error otherwise. A scan the person removes
 * from the queue simply stays in the inbox.
 */
export function createInboxQueue({ inbox, upload, target, combine }: InboxQueueOptions): InboxQueue {
  const store = createStore<InboxQueueState>({ folder: null, scans: [], queued: {}, adding: false });
  const get = store.getState;
  const set: Patch = (patch) => store.setState((s) => ({ ...s, ...patch }));
  // The inbox is followed while the panel listens (React may subscribe, drop and subscribe again).
  const listeners = new Set<() => void>();
  let stopInbox: (() => void) | null = null;

  // Marks go to the host one after another per scan, so `uploaded` never overtakes `uploading`.
  const chains = new Map<string, Promise<void>>();
  const tell = (mark: Mark) => {
    const { scanId } = mark;
    const call = () => {
      if (mark.mark === 'failed') return inbox.markFailed(scanId, mark.error);
      return mark.mark === 'uploaded'
        ? inbox.markUploaded(scanId)
        : inbox.markUploading(scanId, attemptTarget(target));
    };
    const next = (chains.get(scanId) ?? Promise.resolve())
      .then(call)
      .catch((error: unknown) => set({ problem: errorMessage(error) }));
    chains.set(scanId, next);
  };

  // The queue is followed while scans are in it, whether or not the panel is still on screen:
  // an upload under way reports to the host even after the person left the category.
  let reported: ReadonlyMap<string, string> = new Map();
  let unfollowQueue: (() => void) | null = null;
  const followQueue = () => {
    unfollowQueue?.();
    unfollowQueue = upload.subscribe(({ queue }) => {
      const read = readQueue(get().queued, reported, queue);
      reported = read.reported;
      read.marks.forEach(tell);
      if (read.queued !== get().queued) set({ queued: read.queued });
      if (Object.keys(read.queued).length === 0) {
        unfollowQueue?.();
        unfollowQueue = null;
      }
    });
  };
  const adding: Adding = { inbox, upload, combine, get, set, follow: followQueue };

  return {
    getState: get,
    subscribe(listener) {
      listeners.add(listener);
      const unsubscribe = store.subscribe(listener);
      stopInbox ??= followInbox(inbox, set);
      return () => {
        unsubscribe();
        listeners.delete(listener);
        if (listeners.size === 0 && stopInbox) {
          stopInbox();
          stopInbox = null;
        }
      };
    },
    async send(event) {
      switch (event.type) {
        case 'add':
          return add(adding, event.ids, false);
        case 'combine':
          return add(adding, event.ids, true);
        case 'addAll':
          return add(
            adding,
            get()
              .scans.filter((scan) => !scan.duplicateOf && canAddScan(get(), scan))
              .map((scan) => scan.id),
            false,
          );
      }
    },
    async settled() {
      await Promise.all([...chains.values()]);
    },
  };
}
