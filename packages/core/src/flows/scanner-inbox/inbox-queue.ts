import { errorMessage } from '../../api/errors.js';
import type { UploadTarget } from '../../api/upload.js';
import { messages } from '../../domain/messages.js';
import type { FileLike } from '../../ports.js';
import type { UploadState } from '../upload/upload-state.js';
import type { UploadFlow } from '../upload/upload.js';
import type { InboxScanView, ScannerInbox, ScannerInboxSnapshot } from './scanner-inbox.js';

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
export const attemptTarget = (target: UploadTarget): string => JSON.stringify([target.clientId, target.docType]);

/** Whether a scan may join the queue now: not queued here and not being uploaded elsewhere. */
export function canAddScan(state: InboxQueueState, scan: InboxScanView): boolean {
  return state.queued[scan.id] === undefined && scan.status !== 'uploading';
}

/**
 * Links the scanner inbox to the category's upload queue. Scans join the queue as ordinary files
 * (conversion and all); this follows each one's queue item and tells the host: `uploading` when its
 * upload starts, `uploaded` only when the upload flow reports it done (the server stored it: the
 * presign and the PUT both succeeded), `failed` with the error otherwise. A scan the person removes
 * from the queue simply stays in the inbox.
 */
export function createInboxQueue({ inbox, upload, target, combine }: InboxQueueOptions): InboxQueue {
  let state: InboxQueueState = { folder: null, scans: [], queued: {}, adding: false };
  const listeners = new Set<() => void>();
  const setState = (patch: Partial<InboxQueueState>) => {
    state = { ...state, ...patch };
    for (const listener of [...listeners]) listener();
  };
  const fromSnapshot = (snapshot: ScannerInboxSnapshot): Partial<InboxQueueState> => ({
    folder: snapshot.folder,
    scans: snapshot.scans,
    watchError: snapshot.error,
  });

  // The inbox is followed while the panel listens (React may subscribe, drop and subscribe again).
  let stopInbox: (() => void) | null = null;
  const followInbox = () => {
    let pushed = false;
    const stop = inbox.subscribe((snapshot) => {
      pushed = true;
      setState(fromSnapshot(snapshot));
    });
    void inbox.getInbox().then(
      // A pushed snapshot is newer than the answer: keep it.
      (snapshot) => !pushed && stopInbox === stop && setState(fromSnapshot(snapshot)),
      (error: unknown) => setState({ problem: errorMessage(error) }),
    );
    return stop;
  };

  // Marks go to the host one after another per scan, so `uploaded` never overtakes `uploading`.
  const chains = new Map<string, Promise<void>>();
  const mark = (scanId: string, call: () => Promise<void>) => {
    const next = (chains.get(scanId) ?? Promise.resolve())
      .then(call)
      .catch((error: unknown) => setState({ problem: errorMessage(error) }));
    chains.set(scanId, next);
  };

  /** The queue item status last reported to the host, per scan (several scans may share a combined item). */
  const reported = new Map<string, string>();
  const followQueue = (queue: UploadState['queue']) => {
    let queued = state.queued;
    for (const [scanId, itemId] of Object.entries(state.queued)) {
      const item = queue.find((q) => q.id === itemId);
      if (!item || item.progress.status === 'done') {
        if (item) mark(scanId, () => inbox.markUploaded(scanId));
        // Gone without `done`: removed by the person; the scan stays in the inbox as it was.
        reported.delete(scanId);
        const { [scanId]: _, ...rest } = queued;
        queued = rest;
        continue;
      }
      const { progress } = item;
      if (reported.get(scanId) === progress.status) continue;
      reported.set(scanId, progress.status);
      if (progress.status === 'uploading') mark(scanId, () => inbox.markUploading(scanId, attemptTarget(target)));
      else if (progress.status === 'failed') mark(scanId, () => inbox.markFailed(scanId, progress.error));
      else if (progress.status === 'waiting') mark(scanId, () => inbox.markFailed(scanId, messages.waitingForConnection));
    }
    if (queued !== state.queued) setState({ queued });
    if (Object.keys(queued).length === 0) unfollowQueue();
  };
  // The queue is followed while scans are in it, whether or not the panel is still on screen:
  // an upload under way reports to the host even after the person left the category.
  let unfollowQueue = () => {};
  const startFollowingQueue = () => {
    unfollowQueue();
    const stop = upload.subscribe((s) => followQueue(s.queue));
    unfollowQueue = () => {
      stop();
      unfollowQueue = () => {};
    };
  };

  async function add(ids: readonly string[], combined = false): Promise<void> {
    const scans = ids
      .map((id) => state.scans.find((scan) => scan.id === id))
      .filter((scan): scan is InboxScanView => scan !== undefined && canAddScan(state, scan));
    if (!scans.length) return;
    setState({ adding: true, problem: undefined });
    // Each read keeps its scan: no index lookup back into `scans`.
    const read = await Promise.all(
      scans.map((scan) =>
        inbox.readScan(scan.id).then(
          (file) => ({ scan, file }),
          (error: unknown) => ({ scan, error }),
        ),
      ),
    );
    const files = read.flatMap((r) => ('file' in r ? [r] : []));
    const failed = read.flatMap((r) => ('error' in r ? [`${r.scan.name}: ${errorMessage(r.error)}`] : []));
    // Read while another add ran: a scan queued meanwhile is not queued twice.
    const fresh = files.filter(({ scan }) => state.queued[scan.id] === undefined);
    // A combination missing a page would be a wrong document: all of it, or nothing.
    if (combined && (failed.length || fresh.length < 2)) {
      setState({ adding: false, ...(failed.length ? { problem: failed.join('\n') } : {}) });
      return;
    }
    let toQueue: { scans: InboxScanView[]; file: FileLike }[] = fresh.map(({ scan, file }) => ({ scans: [scan], file }));
    if (combined) {
      try {
        toQueue = [{ scans: fresh.map(({ scan }) => scan), file: await combine(fresh.map(({ file }) => file)) }];
      } catch (error) {
        setState({ adding: false, problem: errorMessage(error) });
        return;
      }
    }
    // The watched folder and its ledger keep scans until they are uploaded: the journal does not.
    const { ids: itemIds, ready: adding } = upload.addFiles(
      toQueue.map(({ file }) => file),
      { keptByHost: true },
    );
    const queued = { ...state.queued };
    toQueue.forEach((entry, i) => {
      const id = itemIds[i];
      if (id) for (const scan of entry.scans) queued[scan.id] = id;
    });
    setState({ queued, ...(failed.length ? { problem: failed.join('\n') } : {}) });
    if (Object.keys(queued).length) startFollowingQueue();
    await adding;
    setState({ adding: false });
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      stopInbox ??= followInbox();
      return () => {
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
          return add(event.ids);
        case 'combine':
          return add(event.ids, true);
        case 'addAll':
          return add(state.scans.filter((scan) => !scan.duplicateOf && canAddScan(state, scan)).map((scan) => scan.id));
      }
    },
    async settled() {
      await Promise.all([...chains.values()]);
    },
  };
}
