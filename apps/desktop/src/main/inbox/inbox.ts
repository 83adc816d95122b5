/**
 * The scanner inbox: watches a folder (recursively) and offers each finished scan exactly once,
 * across restarts, until the server has confirmed it. Plain Node, no Electron, so the desktop
 * main process and the headless intake mode share it and tests run it against real folders.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { AfterUpload } from './after-upload.js';
import { createArrivals } from './arrivals.js';
import { createInboxContext } from './context.js';
import { createHandover } from './handover.js';
import { loadLedger } from './ledger.js';
import { lockFolder, type FolderLock } from './lock.js';
import type { InboxEvent, Scan } from './scan.js';
import { reconcile, watchFolder } from './watching.js';

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

/**
 * Creates an inbox for a folder. Nothing happens until {@link Inbox.start}. Its parts share one
 * context (`context.ts`): watching (`watching.ts`), settling new files into scans (`arrivals.ts`,
 * with `settle.ts`'s stability checks) and handing scans over (`handover.ts`).
 */
export function createInbox(options: InboxOptions): Inbox {
  const folder = resolve(options.folder);
  const ledgerPath = options.ledgerPath ?? join(folder, '.vita-inbox.json');
  const ctx = createInboxContext(folder, options.now ?? Date.now, options.afterUpload ?? 'move');
  const arrivals = createArrivals(ctx, { stableMs: options.stableMs ?? 1000, pollMs: options.pollMs });
  let watcher: FSWatcher | null = null;
  let lock: FolderLock | null = null;

  return {
    folder,
    async start() {
      if (lock) throw new Error('The scanner inbox is already started.');
      await mkdir(folder, { recursive: true });
      const held = await lockFolder(join(folder, '.vita-inbox.lock'));
      lock = held;
      try {
        ctx.ledger = await loadLedger(ledgerPath, (message) => ctx.emit({ type: 'error', message }));
        await reconcile(ctx);
        const w = watchFolder(ctx, arrivals, options.usePolling ?? false);
        watcher = w;
        await new Promise<void>((resolveReady) => w.once('ready', resolveReady));
      } catch (error) {
        await watcher?.close();
        await held.release();
        lock = null;
        throw error;
      }
    },
    ...createHandover(ctx),
    subscribe: ctx.subscribe,
    setAfterUpload(mode) {
      ctx.afterUpload = mode;
    },
    async close() {
      ctx.closed = true;
      arrivals.abortAll();
      await watcher?.close();
      await ctx.settled();
      await ctx.save();
      await lock?.release();
      lock = null;
    },
  };
}
