/**
 * The scanner inbox: watches or polls a folder (recursively) and offers each finished scan exactly
 * once, across restarts, until the server has confirmed it. Plain Node, no Electron, so the
 * desktop main process and the headless intake mode share it and tests run it against real folders.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AfterUpload } from './after-upload.js';
import { createArrivals } from './arrivals.js';
import { createInboxContext, type InboxContext, type ProblemScans } from './context.js';
import {
  chooseMode,
  readFsType,
  type FolderMode,
  type FolderModeSetting,
  type FsTypeReader,
} from './filesystem.js';
import { startFolderWatch, type FolderWatch } from './folder-watch.js';
import { remoteVolume, type RunCommand } from './volume.js';
import { createHandover } from './handover.js';
import { loadLedger } from './ledger.js';
import { lockFolder, type FolderLock } from './lock.js';
import type { InboxEvent, InboxNotice, Scan } from './scan.js';
import { reconcile } from './watching.js';

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
  /** `auto` (default): poll a folder on a network file system, watch the rest; or forced. */
  mode?: FolderModeSetting;
  /** Same as `mode: 'poll'` (kept for callers that only know this switch). */
  usePolling?: boolean;
  /** How often a polled folder is walked (and a watched one checked for being there); default 2000 ms. */
  intervalMs?: number;
  /** How long a stable file may fail to open whole before it is a damaged scan; default 60 s. */
  damagedAfterMs?: number;
  /** Damaged scans and duplicates of uploaded ones: `list` (default) or `move` to sub-folders. */
  problemScans?: ProblemScans;
  /** The file-system type reader (tests give a network type); default `statfs`. */
  readFsType?: FsTypeReader;
  /** Runs the OS commands that tell a remote volume on macOS and Windows (tests give recorded outputs). */
  runCommand?: RunCommand;
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Clock for ledger timestamps. */
  now?: () => number;
}

/** How the inbox follows its folder, for the desk's status line. */
export interface InboxStatus {
  mode: FolderMode;
  setting: FolderModeSetting;
  /** The network file system found, if any (`cifs`, `nfs`, `unc` …). */
  network: string | null;
  intervalMs: number;
  reachable: boolean;
  /** When the newest scan was first seen (ms since the epoch), from the ledger. */
  lastScanAt: number | null;
  /** The last poll pass (poll mode). */
  lastPass: { ms: number; files: number } | null;
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
  /** Damaged scans and duplicates of uploaded ones, listed until dismissed. */
  notices(): InboxNotice[];
  /** Dismisses a notice: that path with those bytes is never listed nor offered again. */
  dismiss(id: string): Promise<void>;
  status(): InboxStatus;
  /** Listens to inbox changes; returns the unsubscribe function. */
  subscribe(listener: (event: InboxEvent) => void): () => void;
  /** Records that an upload is starting, so a restart can check the server before trying again. */
  markUploading(id: string, target: string): Promise<Scan>;
  /** The server confirmed the upload: the scan leaves the inbox and the file is moved or deleted. */
  markUploaded(id: string): Promise<void>;
  /** The upload failed: the scan stays (file untouched) with the error for the person to see. */
  markFailed(id: string, error: string): Promise<Scan>;
  setAfterUpload(mode: AfterUpload): void;
  setProblemScans(mode: ProblemScans): void;
  /** Stops watching; waits for ledger writes in flight. */
  close(): Promise<void>;
}

/** The newest `firstSeenAt` in the ledger. */
function lastScanAt(ctx: InboxContext): number | null {
  let last: number | null = null;
  for (const e of ctx.ledger?.entries.values() ?? []) last = Math.max(last ?? 0, e.firstSeenAt);
  return last;
}

/** Resolves the options' defaults. */
function settingsOf(options: InboxOptions) {
  return {
    setting: options.mode ?? (options.usePolling ? 'poll' : 'auto'),
    intervalMs: options.intervalMs ?? 2000,
    readFsType: options.readFsType ?? readFsType,
    platform: options.platform ?? process.platform,
  } as const;
}

/**
 * Creates an inbox for a folder. Nothing happens until {@link Inbox.start}. Its parts share one
 * context (`context.ts`): following the folder (`folder-watch.ts`: `watching.ts` or `poller.ts`),
 * settling new files into scans (`arrivals.ts`, with `settle.ts` and `whole.ts`) and handing
 * scans over (`handover.ts`).
 */
export function createInbox(options: InboxOptions): Inbox {
  const folder = resolve(options.folder);
  const ledgerPath = options.ledgerPath ?? join(folder, '.vita-inbox.json');
  const lockPath = join(folder, '.vita-inbox.lock');
  const ctx = createInboxContext(folder, options.now ?? Date.now, options.afterUpload ?? 'move');
  ctx.problemScans = options.problemScans ?? 'list';
  const arrivals = createArrivals(ctx, {
    stableMs: options.stableMs ?? 1000,
    pollMs: options.pollMs,
    damagedAfterMs: options.damagedAfterMs ?? 60_000,
  });
  const { setting, intervalMs, ...place } = settingsOf(options);
  let choice = chooseMode(setting, { platform: place.platform, path: folder });
  let follow: FolderWatch | null = null;
  let lock: FolderLock | null = null;
  // The folder came back without the lock file (removed and made again): take the lock again.
  const onBack = async (): Promise<void> => {
    if (
      await stat(lockPath).then(
        () => false,
        () => true,
      )
    )
      lock = await lockFolder(lockPath);
  };

  return {
    folder,
    async start() {
      if (lock) throw new Error('The scanner inbox is already started.');
      await mkdir(folder, { recursive: true });
      const held = await lockFolder(lockPath);
      lock = held;
      try {
        ctx.ledger = await loadLedger(ledgerPath, (message) => ctx.emit({ type: 'error', message }));
        await reconcile(ctx);
        const fsType = await place.readFsType(folder);
        const remote = await remoteVolume(place.platform, folder, options.runCommand);
        choice = chooseMode(setting, { platform: place.platform, path: folder, fsType, remote });
        follow = startFolderWatch(ctx, arrivals, { mode: choice.mode, intervalMs, fsType, ...place, onBack });
        await follow.ready;
      } catch (error) {
        await follow?.close();
        await held.release();
        lock = null;
        throw error;
      }
    },
    ...createHandover(ctx),
    status: () => ({
      mode: choice.mode,
      setting,
      network: choice.network,
      intervalMs,
      reachable: follow?.reachable() ?? true,
      lastScanAt: lastScanAt(ctx),
      lastPass: follow?.lastPass() ?? null,
    }),
    subscribe: ctx.subscribe,
    setAfterUpload(mode) {
      ctx.afterUpload = mode;
    },
    setProblemScans(mode) {
      ctx.problemScans = mode;
    },
    async close() {
      ctx.closed = true;
      arrivals.abortAll();
      await follow?.close();
      await ctx.settled();
      await ctx.save();
      await lock?.release();
      lock = null;
    },
  };
}
