/**
 * Watching the folder: chokidar's events become settlings, withdrawals and forgotten entries; and
 * at start, entries whose file went while the kiosk was off are forgotten first.
 */
import { basename } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Arrivals } from './arrivals.js';
import type { InboxContext } from './context.js';
import { isSupportedScan, watchFilter, type WatchFilter } from './rules.js';
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

/** A file the watcher reports as gone: its settling stops and its scan is withdrawn. */
function onUnlink(ctx: InboxContext, arrivals: Arrivals, filter: WatchFilter, path: string): void {
  arrivals.abort(path);
  const rel = filter.relativeOf(path);
  const entry = rel === null ? undefined : ctx.offeredAt(rel);
  if (!entry) return;
  ctx.offered.delete(entry.id);
  ctx.entries().delete(entry.id);
  ctx.background('Forgetting a removed scan', () => ctx.save());
  ctx.emit({ type: 'removed', id: entry.id, reason: 'deleted' });
}

/**
 * Starts watching the folder (recursively, links not followed; hidden, temporary and `uploaded/`
 * files ignored). The watcher emits `ready` once the files already there have been found.
 */
export function watchFolder(ctx: InboxContext, arrivals: Arrivals, usePolling: boolean): FSWatcher {
  const filter = watchFilter(ctx.folder);
  const watcher = watch(ctx.folder, {
    ignored: filter.ignored,
    ignoreInitial: false,
    followSymlinks: false,
    usePolling,
    interval: usePolling ? 500 : undefined,
  });
  watcher.on('add', (path) => onFileEvent(ctx, arrivals, filter, path, 'add'));
  watcher.on('change', (path) => onFileEvent(ctx, arrivals, filter, path, 'change'));
  watcher.on('unlink', (path) => onUnlink(ctx, arrivals, filter, path));
  watcher.on('error', (error) => ctx.reportError('Watching the scanner folder', error));
  return watcher;
}
