/**
 * A file the watcher saw becomes a scan: it settles (size and mtime stable, hashed, unchanged while
 * hashed), then is matched with the ledger and offered — or, when the ledger says it was uploaded and
 * only its move was cut off, its move is finished instead.
 */
import { randomUUID } from 'node:crypto';
import type { InboxContext } from './context.js';
import {
  sameSnapshot,
  sha256File,
  snapshot,
  waitUntilStable,
  type FileSnapshot,
  type SettleOptions,
} from './settle.js';

/** How a file settles (see `waitUntilStable`). */
export type ArrivalOptions = Pick<SettleOptions, 'stableMs' | 'pollMs'>;

/** Files being settled, by absolute path. */
export interface Arrivals {
  /** Settles the file at `path` (`rel` inside the folder) and offers it; restarts a settling under way. */
  settle(path: string, rel: string): void;
  /** Stops settling the file at `path`, if it is. */
  abort(path: string): void;
  /** Stops every settling (close). */
  abortAll(): void;
}

/** A settled, hashed file: match it with the ledger and offer it (or finish an interrupted upload). */
async function accept(ctx: InboxContext, relPath: string, snap: FileSnapshot, sha256: string): Promise<void> {
  if (ctx.closed) return;
  const entries = ctx.entries();
  const known = [...entries.values()].filter((e) => e.relPath === relPath);
  const interrupted = known.find((e) => e.status === 'uploaded' && !e.fileDone && e.sha256 === sha256);
  if (interrupted) return ctx.finishFile(interrupted);
  let entry = known.find((e) => e.status !== 'uploaded' && e.sha256 === sha256);
  for (const stale of known) {
    if (stale !== entry && stale.status !== 'uploaded') entries.delete(stale.id);
  }
  if (entry) {
    entry.size = snap.size;
    entry.mtimeMs = snap.mtimeMs;
    // An upload cut off by a stop is offered again; the attempt stays so the uploader can check the server.
    if (entry.status === 'uploading') entry.status = 'waiting';
  } else {
    entry = { id: randomUUID(), relPath, ...snap, sha256, firstSeenAt: ctx.now(), status: 'waiting' };
    entries.set(entry.id, entry);
  }
  await ctx.save();
  if (ctx.closed) return;
  ctx.offered.add(entry.id);
  ctx.emit({ type: 'added', scan: ctx.view(entry) });
}

/** Settling for an inbox; each file's settling runs as the inbox's background work. */
export function createArrivals(ctx: InboxContext, options: ArrivalOptions): Arrivals {
  const settling = new Map<string, AbortController>();
  return {
    settle(path, rel) {
      settling.get(path)?.abort();
      const controller = new AbortController();
      settling.set(path, controller);
      ctx.background(`Reading ${rel}`, async () => {
        try {
          for (;;) {
            const snap = await waitUntilStable(path, { ...options, signal: controller.signal });
            if (!snap || controller.signal.aborted) return;
            let sha: string | null = null;
            try {
              sha = await sha256File(path);
            } catch {
              // Locked or vanished while reading (Windows scanners hold files open): settle again.
            }
            const after = await snapshot(path);
            if (controller.signal.aborted || !after) return;
            if (sha && sameSnapshot(snap, after)) return await accept(ctx, rel, after, sha);
          }
        } finally {
          if (settling.get(path) === controller) settling.delete(path);
        }
      });
    },
    abort(path) {
      settling.get(path)?.abort();
    },
    abortAll() {
      for (const controller of settling.values()) controller.abort();
    },
  };
}
