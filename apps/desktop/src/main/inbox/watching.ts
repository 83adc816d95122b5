/**
 * Watching the folder: chokidar's events become settlings, withdrawals and forgotten entries; and
 * at start, entries whose file went while the kiosk was off are forgotten first.
 */
import { basename } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Arrivals } from './arrivals.js';
import type { InboxContext } from './context.js';
import { isSupportedScan, type WatchFilter } from './rules.js';
import { sameSnapshot, snapshot } from './settle.js';

/** Ledger entries whose file disappeared while the kiosk was off are forgotten. */
export async function reconcile(ctx: InboxContext): Promise<void> {
  const entries = ctx.entries();
  let changed = false;
  for (const entry of [...entries.values()]) {
    const missing = !(await snapshot(ctx.absolute(entry.relPath)));
    if (!missing) continue;
    if (entry.status !== 'uploaded') {
      entries.delete(entry.id);
      changed = true;
    } else if (!entry.fileDone) {
      entry.fileDone = true;
      changed = true;
    }
  }
  if (changed) await ctx.save();
}

/** A file the watcher reports as added or changed. */
function onFileEvent(
  ctx: InboxContext,
  arrivals: Arrivals,
  filter: WatchFilter,
  path: string,
  kind: 'add' | 'change',
): void {
  const rel = filter.relativeOf(path);
  if (rel === null || filter.ignored(path) || !isSupportedScan(basename(path))) return;
  const current = ctx.offeredAt(rel);
  if (current && kind === 'change') {
    ctx.background('Checking a changed scan', async () => {
      const snap = await snapshot(path);
      if (snap && sameSnapshot(snap, current)) return;
      // The file was rewritten after it was offered (an uploader reading it now gets whatever it read):
      // withdraw the old version and settle the new one as a fresh scan.
      if (current.status === 'uploading') return;
      ctx.offered.delete(current.id);
      ctx.entries().delete(current.id);
      await ctx.save();
      ctx.emit({ type: 'removed', id: current.id, reason: 'changed' });
      arrivals.settle(path, rel);
    });
    return;
  }
  if (!current) arrivals.settle(path, rel);
}

/** A file the watcher reports as gone: its settling stops and its scan is withdrawn, unless the whole folder went. */
function onUnlink(
  ctx: InboxContext,
  arrivals: Arrivals,
  filter: WatchFilter,
  path: string,
  reachable: () => Promise<boolean>,
): void {
  arrivals.abort(path);
  const rel = filter.relativeOf(path);
  if (rel === null) return;
  ctx.background('Forgetting a removed scan', async () => {
    // A share unmounted or a folder renamed away takes every file with it: they are not deleted
    // scans, and when the folder is back they are there again, offered already.
    if (!(await reachable())) return;
    await withdraw(ctx, rel);
  });
}

/** Withdraws the offered scan, or forgets the damaged entry, of a file that is gone. */
async function withdraw(ctx: InboxContext, rel: string): Promise<void> {
  if (await snapshot(ctx.absolute(rel))) return;
  const entry = ctx.offeredAt(rel);
  if (entry) {
    ctx.offered.delete(entry.id);
    ctx.entries().delete(entry.id);
    await ctx.save();
    ctx.emit({ type: 'removed', id: entry.id, reason: 'deleted' });
    return;
  }
  const listed = [...ctx.entries().values()].filter((e) => e.relPath === rel && e.status === 'damaged');
  for (const e of listed) ctx.entries().delete(e.id);
  if (listed.length === 0) return;
  await ctx.save();
  ctx.emit({ type: 'status' });
}

/** After the folder came back: offered scans and damaged entries whose file went meanwhile are withdrawn. */
export async function withdrawMissing(ctx: InboxContext): Promise<void> {
  const rels = new Set<string>();
  for (const id of ctx.offered) {
    const entry = ctx.entries().get(id);
    if (entry) rels.add(entry.relPath);
  }
  for (const e of ctx.entries().values()) if (e.status === 'damaged') rels.add(e.relPath);
  for (const rel of rels) await withdraw(ctx, rel);
}

/** What watching and polling report, for one folder. */
export interface FileEvents {
  add: (path: string) => void;
  change: (path: string) => void;
  unlink: (path: string) => void;
}

/** The handlers of file events for the inbox; `reachable` tells a deleted file from a folder gone. */
export function fileEvents(
  ctx: InboxContext,
  arrivals: Arrivals,
  filter: WatchFilter,
  reachable: () => Promise<boolean>,
): FileEvents {
  return {
    add: (path) => onFileEvent(ctx, arrivals, filter, path, 'add'),
    change: (path) => onFileEvent(ctx, arrivals, filter, path, 'change'),
    unlink: (path) => onUnlink(ctx, arrivals, filter, path, reachable),
  };
}

/**
 * Starts watching the folder with native events (recursively, links not followed; hidden,
 * temporary and our own folders ignored). The watcher emits `ready` once the files already there
 * have been found.
 */
export function watchFolder(ctx: InboxContext, filter: WatchFilter, events: FileEvents): FSWatcher {
  const watcher = watch(ctx.folder, {
    ignored: filter.ignored,
    ignoreInitial: false,
    followSymlinks: false,
  });
  watcher.on('add', events.add);
  watcher.on('change', events.change);
  watcher.on('unlink', events.unlink);
  watcher.on('error', (error) => ctx.reportError('Watching the scanner folder', error));
  return watcher;
}
