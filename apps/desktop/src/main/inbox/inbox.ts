/**
 * The scanner inbox: watches a folder (recursively) and offers each finished scan exactly once,
 * across restarts, until the server has confirmed it. Plain Node, no Electron, so the desktop
 * main process and the headless intake mode share it and tests run it against real folders.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { finishScanFile, type AfterUpload } from './after-upload.js';
import { loadLedger, type Ledger, type LedgerEntry, type UploadAttempt } from './ledger.js';
import { lockFolder, type FolderLock } from './lock.js';
import { isSupportedScan, watchFilter } from './rules.js';
import { sameSnapshot, sha256File, snapshot, waitUntilStable } from './settle.js';
import { createEmitter, scanOf, type InboxEvent, type Scan } from './scan.js';

/** How to watch. Only `folder` is required. */
export interface InboxOptions {
  folder: string;
  /** Ledger file; default `<folder>/.vita-inbox.json` (hidden, so never taken for a scan). */
  ledgerPath?: string;
  /** How long size and mtime must stay unchanged before a file counts; default 1000 ms. */
  stableMs?: number;
  pollMs?: number;
  /** What to do with a scan after a confirmed upload; default `move`. */
  afterUpload?: AfterUpload;
  /** Poll the file system instead of native events (network shares). */
  usePolling?: boolean;
  /** Clock for ledger timestamps. */
  now?: () => number;
}

/** The inbox as its users (the Electron main process, the headless intake) see it. */
export interface Inbox {
  readonly folder: string;
  /**
   * Locks the folder (one watcher per folder), loads the ledger and starts watching; resolves when
   * the existing files have been found (they may still be settling). Rejects with
   * `FolderLockedError` when another intake watches the folder.
   */
  start(): Promise<void>;
  /** Waiting, uploading and failed scans, oldest first. */
  list(): Scan[];
  get(id: string): Scan | undefined;
  /** Listens to inbox changes; returns the unsubscribe function. */
  subscribe(listener: (event: InboxEvent) => void): () => void;
  /** Records that an upload is starting, so a restart can check the server before trying again. */
  markUploading(id: string, target: string): Promise<Scan>;
  /** The server confirmed the upload: the scan leaves the inbox and the file is moved or deleted. */
  markUploaded(id: string): Promise<void>;
  /** The upload failed: the scan stays (file untouched) with the error for the person to see. */
  markFailed(id: string, error: string): Promise<Scan>;
  setAfterUpload(mode: AfterUpload): void;
  /** Stops watching; waits for ledger writes in flight. */
  close(): Promise<void>;
}

/** Creates an inbox for a folder. Nothing happens until {@link Inbox.start}. */
export function createInbox(options: InboxOptions): Inbox {
  const folder = resolve(options.folder);
  const ledgerPath = options.ledgerPath ?? join(folder, '.vita-inbox.json');
  const stableMs = options.stableMs ?? 1000;
  const now = options.now ?? Date.now;
  let afterUpload: AfterUpload = options.afterUpload ?? 'move';

  let ledger: Ledger | null = null;
  let watcher: FSWatcher | null = null;
  let lock: FolderLock | null = null;
  let closed = false;
  /** Ids of ledger entries whose file has been seen and verified in this run. */
  const offered = new Set<string>();
  /** Files being settled, by absolute path; aborting one restarts or stops its settling. */
  const settling = new Map<string, AbortController>();
  const pendingWork = new Set<Promise<unknown>>();
  const { emit, subscribe } = createEmitter();

  const entries = (): Map<string, LedgerEntry> => {
    if (!ledger) throw new Error('The scanner inbox has not been started.');
    return ledger.entries;
  };
  const save = (): Promise<void> => (ledger ? ledger.save() : Promise.resolve());
  const absolute = (relPath: string): string => join(folder, ...relPath.split('/'));
  const view = (entry: LedgerEntry): Scan => scanOf(entry, absolute(entry.relPath), entries());

  const reportError = (what: string, error: unknown): void =>
    emit({ type: 'error', message: `${what}: ${error instanceof Error ? error.message : String(error)}` });

  /** Runs background work so that close() can wait for it and failures surface as events. */
  const background = (what: string, work: () => Promise<void>): void => {
    const task = work().catch((error: unknown) => reportError(what, error));
    pendingWork.add(task);
    void task.finally(() => pendingWork.delete(task));
  };

  const { relativeOf, ignored } = watchFilter(folder);

  const offeredAt = (relPath: string): LedgerEntry | undefined =>
    [...offered].map((id) => entries().get(id)).find((e) => e?.relPath === relPath);

  const onFileEvent = (path: string, kind: 'add' | 'change'): void => {
    const rel = relativeOf(path);
    if (rel === null || ignored(path) || !isSupportedScan(basename(path))) return;
    const current = offeredAt(rel);
    if (current && kind === 'change') {
      background('Checking a changed scan', async () => {
        const snap = await snapshot(path);
        if (snap && sameSnapshot(snap, current)) return;
        // The file was rewritten after it was offered (an uploader reading it now gets whatever it read):
        // withdraw the old version and settle the new one as a fresh scan.
        if (current.status === 'uploading') return;
        offered.delete(current.id);
        entries().delete(current.id);
        await save();
        emit({ type: 'removed', id: current.id, reason: 'changed' });
        settle(path, rel);
      });
      return;
    }
    if (!current) settle(path, rel);
  };

  const settle = (path: string, rel: string): void => {
    settling.get(path)?.abort();
    const controller = new AbortController();
    settling.set(path, controller);
    background(`Reading ${rel}`, async () => {
      try {
        for (;;) {
          const snap = await waitUntilStable(path, { stableMs, signal: controller.signal, ...pollOption(options) });
          if (!snap || controller.signal.aborted) return;
          let sha: string | null = null;
          try {
            sha = await sha256File(path);
          } catch {
            // Locked or vanished while reading (Windows scanners hold files open): settle again.
          }
          const after = await snapshot(path);
          if (controller.signal.aborted || !after) return;
          if (sha && sameSnapshot(snap, after)) return await accept(rel, after, sha);
        }
      } finally {
        if (settling.get(path) === controller) settling.delete(path);
      }
    });
  };

  /** A settled, hashed file: match it with the ledger and offer it (or finish an interrupted upload). */
  const accept = async (relPath: string, snap: { size: number; mtimeMs: number }, sha256: string): Promise<void> => {
    if (closed) return;
    const known = [...entries().values()].filter((e) => e.relPath === relPath);
    const interrupted = known.find((e) => e.status === 'uploaded' && !e.fileDone && e.sha256 === sha256);
    if (interrupted) return finishFile(interrupted);
    let entry = known.find((e) => e.status !== 'uploaded' && e.sha256 === sha256);
    for (const stale of known) {
      if (stale !== entry && stale.status !== 'uploaded') entries().delete(stale.id);
    }
    if (entry) {
      entry.size = snap.size;
      entry.mtimeMs = snap.mtimeMs;
      // An upload cut off by a stop is offered again; the attempt stays so the uploader can check the server.
      if (entry.status === 'uploading') entry.status = 'waiting';
    } else {
      entry = { id: randomUUID(), relPath, ...snap, sha256, firstSeenAt: now(), status: 'waiting' };
      entries().set(entry.id, entry);
    }
    await save();
    if (closed) return;
    offered.add(entry.id);
    emit({ type: 'added', scan: view(entry) });
  };

  const finishFile = async (entry: LedgerEntry): Promise<void> => {
    try {
      await finishScanFile(folder, entry.relPath, afterUpload);
      entry.fileDone = true;
      await save();
    } catch (error) {
      reportError(`Could not ${afterUpload === 'move' ? 'move' : 'delete'} uploaded scan ${entry.relPath}`, error);
    }
  };

  const onUnlink = (path: string): void => {
    settling.get(path)?.abort();
    const rel = relativeOf(path);
    const entry = rel === null ? undefined : offeredAt(rel);
    if (!entry) return;
    offered.delete(entry.id);
    entries().delete(entry.id);
    background('Forgetting a removed scan', save);
    emit({ type: 'removed', id: entry.id, reason: 'deleted' });
  };

  /** Ledger entries whose file disappeared while the kiosk was off are forgotten. */
  const reconcile = async (): Promise<void> => {
    let changed = false;
    for (const entry of [...entries().values()]) {
      const missing = !(await snapshot(absolute(entry.relPath)));
      if (!missing) continue;
      if (entry.status !== 'uploaded') {
        entries().delete(entry.id);
        changed = true;
      } else if (!entry.fileDone) {
        entry.fileDone = true;
        changed = true;
      }
    }
    if (changed) await save();
  };

  const requireScan = (id: string): LedgerEntry => {
    const entry = entries().get(id);
    if (!entry || entry.status === 'uploaded' || !offered.has(id)) throw new Error('This scan is no longer in the inbox.');
    return entry;
  };

  const refreshDuplicatesOf = (sha256: string, except: string): void => {
    for (const id of offered) {
      const other = entries().get(id);
      if (other && other.id !== except && other.sha256 === sha256) emit({ type: 'updated', scan: view(other) });
    }
  };

  return {
    folder,
    async start() {
      if (lock) throw new Error('The scanner inbox is already started.');
      await mkdir(folder, { recursive: true });
      const held = await lockFolder(join(folder, '.vita-inbox.lock'));
      lock = held;
      try {
        ledger = await loadLedger(ledgerPath, (message) => emit({ type: 'error', message }));
        await reconcile();
        watcher = watch(folder, {
          ignored,
          ignoreInitial: false,
          followSymlinks: false,
          usePolling: options.usePolling ?? false,
          interval: options.usePolling ? 500 : undefined,
        });
        const w = watcher;
        w.on('add', (path) => onFileEvent(path, 'add'));
        w.on('change', (path) => onFileEvent(path, 'change'));
        w.on('unlink', onUnlink);
        w.on('error', (error) => reportError('Watching the scanner folder', error));
        await new Promise<void>((resolveReady) => w.once('ready', resolveReady));
      } catch (error) {
        await watcher?.close();
        await held.release();
        lock = null;
        throw error;
      }
    },
    list() {
      return [...offered]
        .map((id) => entries().get(id))
        .filter((e): e is LedgerEntry => e !== undefined && e.status !== 'uploaded')
        .sort((a, b) => a.firstSeenAt - b.firstSeenAt || a.relPath.localeCompare(b.relPath))
        .map(view);
    },
    get(id) {
      const entry = ledger?.entries.get(id);
      return entry && offered.has(id) && entry.status !== 'uploaded' ? view(entry) : undefined;
    },
    subscribe,
    async markUploading(id, target) {
      const entry = requireScan(id);
      const attempt: UploadAttempt = { target, startedAt: now() };
      Object.assign(entry, { status: 'uploading', attempt, error: undefined });
      await save();
      const scan = view(entry);
      emit({ type: 'updated', scan });
      return scan;
    },
    async markUploaded(id) {
      const entry = requireScan(id);
      Object.assign(entry, { status: 'uploaded', uploadedAt: now(), error: undefined, attempt: undefined, fileDone: false });
      offered.delete(id);
      await save();
      emit({ type: 'removed', id, reason: 'uploaded' });
      await finishFile(entry);
      refreshDuplicatesOf(entry.sha256, id);
    },
    async markFailed(id, error) {
      const entry = requireScan(id);
      Object.assign(entry, { status: 'failed', error: error || 'Upload failed' });
      await save();
      const scan = view(entry);
      emit({ type: 'updated', scan });
      return scan;
    },
    setAfterUpload(mode) {
      afterUpload = mode;
    },
    async close() {
      closed = true;
      for (const controller of settling.values()) controller.abort();
      await watcher?.close();
      await Promise.allSettled([...pendingWork]);
      await save();
      await lock?.release();
      lock = null;
    },
  };
}

function pollOption(options: InboxOptions): { pollMs?: number } {
  return options.pollMs === undefined ? {} : { pollMs: options.pollMs };
}
