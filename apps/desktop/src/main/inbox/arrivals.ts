/**
 * A file the watcher saw becomes a scan: it settles (size and mtime stable, hashed, unchanged while
 * hashed, and it opens as a whole document), then is matched with the ledger and offered — or, when
 * the ledger says it was uploaded and only its move was cut off, its move is finished instead. A
 * file that stays stable but never opens whole becomes a damaged scan: listed, never offered.
 */
import { randomUUID } from 'node:crypto';
import { setAsideFile } from './after-upload.js';
import type { InboxContext } from './context.js';
import type { LedgerEntry } from './ledger.js';
import { COULD_NOT_READ_FOLDER, DUPLICATES_FOLDER } from './rules.js';
import {
  sameSnapshot,
  sha256File,
  snapshot,
  waitUntilStable,
  type FileSnapshot,
  type SettleOptions,
} from './settle.js';
import { opensWhole } from './whole.js';

/** How a file settles (see `waitUntilStable`), and how long it may fail to open before it is damaged. */
export type ArrivalOptions = Pick<SettleOptions, 'stableMs' | 'pollMs'> & { damagedAfterMs: number };

/** Files being settled, by absolute path. */
export interface Arrivals {
  /** Settles the file at `path` (`rel` inside the folder) and offers it; restarts a settling under way. */
  settle(path: string, rel: string): void;
  /** Stops settling the file at `path`, if it is. */
  abort(path: string): void;
  /** Stops every settling (close). */
  abortAll(): void;
}

/** A settled file whose bytes the ledger knows. */
interface Settled {
  relPath: string;
  snap: FileSnapshot;
  sha256: string;
}

/** Drops the ledger's other not-uploaded entries for this path (older bytes); returns those kept. */
function dropStale(ctx: InboxContext, relPath: string, keep?: LedgerEntry): LedgerEntry[] {
  const entries = ctx.entries();
  const known = [...entries.values()].filter((e) => e.relPath === relPath);
  for (const stale of known) {
    if (stale !== keep && stale.status !== 'uploaded') entries.delete(stale.id);
  }
  return known;
}

/** Moves a problem file into its sub-folder (the desk's setting) and says so; false when it is listed. */
async function setAside(ctx: InboxContext, file: Settled, kind: 'damaged' | 'duplicate'): Promise<boolean> {
  if (ctx.problemScans !== 'move') return false;
  const sub = kind === 'damaged' ? COULD_NOT_READ_FOLDER : DUPLICATES_FOLDER;
  const movedTo = await setAsideFile(ctx.folder, file.relPath, sub);
  dropStale(ctx, file.relPath);
  await ctx.save();
  ctx.emit({ type: 'problem', kind, relPath: file.relPath, movedTo });
  return true;
}

/** A file that never opened whole: listed as damaged (or set aside), never offered nor touched otherwise. */
async function damaged(ctx: InboxContext, file: Settled): Promise<void> {
  if (ctx.closed || (await setAside(ctx, file, 'damaged'))) return;
  let entry = [...ctx.entries().values()].find(
    (e) => e.relPath === file.relPath && e.status === 'damaged' && e.sha256 === file.sha256,
  );
  if (!entry) {
    const { relPath, snap, sha256 } = file;
    entry = { id: randomUUID(), relPath, ...snap, sha256, firstSeenAt: ctx.now(), status: 'damaged' };
    ctx.entries().set(entry.id, entry);
  }
  dropStale(ctx, file.relPath, entry);
  await ctx.save();
  ctx.emit({ type: 'problem', kind: 'damaged', relPath: file.relPath });
}

/** True when these bytes repeat a scan uploaded already. */
const repeatsUploaded = (ctx: InboxContext, sha256: string): boolean =>
  [...ctx.entries().values()].some((e) => e.status === 'uploaded' && e.sha256 === sha256);

/** A settled, whole file: match it with the ledger and offer it (or finish an interrupted upload). */
async function accept(ctx: InboxContext, file: Settled): Promise<void> {
  if (ctx.closed) return;
  const { relPath, snap, sha256 } = file;
  const known = [...ctx.entries().values()].filter((e) => e.relPath === relPath);
  const interrupted = known.find((e) => e.status === 'uploaded' && !e.fileDone && e.sha256 === sha256);
  if (interrupted) return ctx.finishFile(interrupted);
  let entry = known.find(
    (e) =>
      (e.status === 'waiting' || e.status === 'uploading' || e.status === 'failed') && e.sha256 === sha256,
  );
  if (!entry && repeatsUploaded(ctx, sha256) && (await setAside(ctx, file, 'duplicate'))) return;
  dropStale(ctx, relPath, entry);
  if (entry) {
    entry.size = snap.size;
    entry.mtimeMs = snap.mtimeMs;
    // An upload cut off by a stop is offered again; the attempt stays so the uploader can check the server.
    if (entry.status === 'uploading' && !ctx.offered.has(entry.id)) entry.status = 'waiting';
  } else {
    entry = { id: randomUUID(), relPath, ...snap, sha256, firstSeenAt: ctx.now(), status: 'waiting' };
    ctx.entries().set(entry.id, entry);
  }
  await ctx.save();
  // Offered once per run: a folder that went away and came back finds its scans offered already.
  if (ctx.closed || ctx.offered.has(entry.id)) return;
  ctx.offered.add(entry.id);
  ctx.emit({ type: 'added', scan: ctx.view(entry) });
}

/** What the ledger says of these bytes at this path: dismissed, damaged, or nothing. */
function recalled(ctx: InboxContext, file: Settled): 'dismissed' | 'damaged' | null {
  for (const e of ctx.entries().values()) {
    if (e.relPath !== file.relPath || e.sha256 !== file.sha256) continue;
    if (e.status === 'dismissed' || e.status === 'damaged') return e.status;
  }
  return null;
}

/** One settled, unchanged state of the file, or null when it went or the settling was stopped. */
async function settledOnce(
  path: string,
  rel: string,
  options: SettleOptions,
): Promise<Settled | 'again' | null> {
  const snap = await waitUntilStable(path, options);
  if (!snap || options.signal?.aborted) return null;
  let sha: string | null = null;
  try {
    sha = await sha256File(path);
  } catch {
    // Locked or vanished while reading (Windows scanners hold files open): settle again.
  }
  const after = await snapshot(path);
  if (options.signal?.aborted || !after) return null;
  return sha && sameSnapshot(snap, after) ? { relPath: rel, snap: after, sha256: sha } : 'again';
}

/** Settles one file until it is offered, listed as damaged, recalled as dismissed, or gone. */
async function settleFile(
  ctx: InboxContext,
  path: string,
  rel: string,
  options: ArrivalOptions & { signal: AbortSignal },
): Promise<void> {
  // Since when the file has stayed the same while failing to open whole.
  let failing = { since: 0, sha256: '' };
  for (;;) {
    const file = await settledOnce(path, rel, options);
    if (file === null) return;
    if (file === 'again') continue;
    const memory = recalled(ctx, file);
    if (memory === 'dismissed') return;
    if (memory === 'damaged') return damaged(ctx, file);
    if (await opensWhole(path)) return accept(ctx, file);
    if (failing.sha256 !== file.sha256) failing = { since: ctx.now(), sha256: file.sha256 };
    if (ctx.now() - failing.since >= options.damagedAfterMs) return damaged(ctx, file);
  }
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
          await settleFile(ctx, path, rel, { ...options, signal: controller.signal });
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
