/**
 * Keeps the folder watched (native events) or polled, and notices when it stops being reachable (a
 * share unmounted, the folder renamed away or removed): nothing is withdrawn then, and when it is
 * back the files are found again without offering any scan twice (arrivals.ts offers each ledger
 * entry once per run).
 */
import { stat } from 'node:fs/promises';
import type { FSWatcher } from 'chokidar';
import type { Arrivals } from './arrivals.js';
import type { InboxContext } from './context.js';
import type { FolderMode, FsTypeReader } from './filesystem.js';
import { startPoller, type Poller } from './poller.js';
import { watchFilter } from './rules.js';
import { fileEvents, watchFolder, withdrawMissing } from './watching.js';

/** How the folder is followed. */
export interface FolderWatchOptions {
  mode: FolderMode;
  /** Poll interval, and how often a watched folder is checked for being there. */
  intervalMs: number;
  /** The folder's file-system type at start (a share unmounted leaves a local mount point). */
  fsType: number | undefined;
  readFsType: FsTypeReader;
  /** Called when the folder becomes reachable again (re-take the lock if it went with it). */
  onBack: () => Promise<void>;
}

/** A followed folder. */
export interface FolderWatch {
  /** Resolves once the files already there have been found. */
  readonly ready: Promise<void>;
  reachable(): boolean;
  /** Milliseconds the last poll pass took and the files it saw (poll mode). */
  lastPass(): { ms: number; files: number } | null;
  close(): Promise<void>;
}

/** True when the folder is a directory on the file system it was on at start. */
async function isThere(ctx: InboxContext, options: FolderWatchOptions): Promise<boolean> {
  const isDir = await stat(ctx.folder).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) return false;
  return options.fsType === undefined || (await options.readFsType(ctx.folder)) === options.fsType;
}

/** Starts following the folder in the chosen mode. */
export function startFolderWatch(
  ctx: InboxContext,
  arrivals: Arrivals,
  options: FolderWatchOptions,
): FolderWatch {
  const filter = watchFilter(ctx.folder);
  let reachable = true;
  let watcher: FSWatcher | null = null;
  let poller: Poller | null = null;
  let pass: { ms: number; files: number } | null = null;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  /** Checks the folder and acts on a change: true when it is reachable now. */
  const check = async (): Promise<boolean> => {
    const now = await isThere(ctx, options);
    if (now === reachable || closed) return now;
    reachable = now;
    if (now) {
      await options.onBack();
      await withdrawMissing(ctx);
      poller?.forget();
      if (options.mode === 'watch') openWatcher();
    } else if (watcher) {
      const gone = watcher;
      watcher = null;
      await gone.close();
    }
    ctx.emit({ type: 'status' });
    return now;
  };
  const events = fileEvents(ctx, arrivals, filter, check);
  const openWatcher = (): FSWatcher => {
    const opened = watchFolder(ctx, filter, events);
    watcher = opened;
    return opened;
  };

  let ready: Promise<void>;
  if (options.mode === 'poll') {
    poller = startPoller(ctx.folder, filter, options.intervalMs, {
      reachable: check,
      events: { ...events, pass: (info) => void (info.ok && (pass = info)) },
    });
    ready = poller.ready;
  } else {
    const first = openWatcher();
    ready = new Promise<void>((resolve) => first.once('ready', resolve));
    const tick = (): void => {
      timer = setTimeout(() => void check().finally(() => !closed && tick()), options.intervalMs);
    };
    tick();
  }
  return {
    ready,
    reachable: () => reachable,
    lastPass: () => pass,
    async close() {
      closed = true;
      clearTimeout(timer);
      await poller?.close();
      await watcher?.close();
    },
  };
}
