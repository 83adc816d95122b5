/**
 * Handing scans over to an uploader: what is offered, and the ledger's record of each upload as it
 * starts, fails, or is confirmed by the server (then the file is moved or deleted).
 */
import type { InboxContext } from './context.js';
import type { LedgerEntry, UploadAttempt } from './ledger.js';
import type { InboxNotice, Scan } from './scan.js';

/** The inbox's methods for its uploader (see `Inbox`). */
export interface Handover {
  list(): Scan[];
  get(id: string): Scan | undefined;
  markUploading(id: string, target: string): Promise<Scan>;
  markUploaded(id: string): Promise<void>;
  markFailed(id: string, error: string): Promise<Scan>;
  notices(): InboxNotice[];
  dismiss(id: string): Promise<void>;
}

/** The entry of an offered scan; throws when it left the inbox. */
function requireScan(ctx: InboxContext, id: string): LedgerEntry {
  const entry = ctx.entries().get(id);
  if (!entry || entry.status === 'uploaded' || !ctx.offered.has(id))
    throw new Error('This scan is no longer in the inbox.');
  return entry;
}

/** Tells the listeners about the other offered scans with these bytes (their `duplicateOf` changed). */
function refreshDuplicatesOf(ctx: InboxContext, sha256: string, except: string): void {
  for (const id of ctx.offered) {
    const other = ctx.entries().get(id);
    if (other && other.id !== except && other.sha256 === sha256)
      ctx.emit({ type: 'updated', scan: ctx.view(other) });
  }
}

/** Records a change to an offered scan and tells the listeners. */
async function update(ctx: InboxContext, entry: LedgerEntry, change: Partial<LedgerEntry>): Promise<Scan> {
  Object.assign(entry, change);
  await ctx.save();
  const scan = ctx.view(entry);
  ctx.emit({ type: 'updated', scan });
  return scan;
}

/** Damaged scans, and waiting scans that repeat an uploaded one: what the desk lists to dismiss. */
function notices(ctx: InboxContext): InboxNotice[] {
  const found: Array<InboxNotice & { at: number }> = [];
  for (const e of ctx.entries().values()) {
    const name = e.relPath.slice(e.relPath.lastIndexOf('/') + 1);
    if (e.status === 'damaged')
      found.push({ id: e.id, kind: 'damaged', name, relPath: e.relPath, at: e.firstSeenAt });
    if ((e.status !== 'waiting' && e.status !== 'failed') || !ctx.offered.has(e.id)) continue;
    const original = ctx.view(e).duplicateOf;
    if (original?.uploaded) {
      const notice = { id: e.id, kind: 'duplicate' as const, name, relPath: e.relPath };
      found.push({ ...notice, duplicateOf: original.name, at: e.firstSeenAt });
    }
  }
  return found
    .sort((a, b) => a.at - b.at || a.relPath.localeCompare(b.relPath))
    .map(({ at: _at, ...notice }) => notice);
}

/** Dismisses a listed notice: remembered by path and bytes, so neither this run nor the next shows it. */
async function dismiss(ctx: InboxContext, id: string): Promise<void> {
  const entry = ctx.entries().get(id);
  if (!entry || !notices(ctx).some((n) => n.id === id)) throw new Error('This scan is no longer listed.');
  const wasOffered = ctx.offered.delete(id);
  Object.assign(entry, { status: 'dismissed', error: undefined, attempt: undefined });
  await ctx.save();
  ctx.emit(wasOffered ? { type: 'removed', id, reason: 'dismissed' } : { type: 'status' });
}

/** The handover of an inbox's scans. */
export function createHandover(ctx: InboxContext): Handover {
  return {
    list() {
      return [...ctx.offered]
        .map((id) => ctx.entries().get(id))
        .filter((e): e is LedgerEntry => e !== undefined && e.status !== 'uploaded')
        .sort((a, b) => a.firstSeenAt - b.firstSeenAt || a.relPath.localeCompare(b.relPath))
        .map((entry) => ctx.view(entry));
    },
    get(id) {
      const entry = ctx.ledger?.entries.get(id);
      return entry && ctx.offered.has(id) && entry.status !== 'uploaded' ? ctx.view(entry) : undefined;
    },
    async markUploading(id, target) {
      const attempt: UploadAttempt = { target, startedAt: ctx.now() };
      return update(ctx, requireScan(ctx, id), { status: 'uploading', attempt, error: undefined });
    },
    async markUploaded(id) {
      const entry = requireScan(ctx, id);
      Object.assign(entry, {
        status: 'uploaded',
        uploadedAt: ctx.now(),
        error: undefined,
        attempt: undefined,
        fileDone: false,
      });
      ctx.offered.delete(id);
      await ctx.save();
      ctx.emit({ type: 'removed', id, reason: 'uploaded' });
      await ctx.finishFile(entry);
      refreshDuplicatesOf(ctx, entry.sha256, id);
    },
    async markFailed(id, error) {
      return update(ctx, requireScan(ctx, id), { status: 'failed', error: error || 'Upload failed' });
    },
    notices: () => (ctx.ledger ? notices(ctx) : []),
    dismiss: (id) => dismiss(ctx, id),
  };
}
