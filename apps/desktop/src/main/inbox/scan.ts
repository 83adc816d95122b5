/** What the inbox tells its users about a scan, derived from the ledger. */
import type { LedgerEntry, UploadAttempt } from './ledger.js';

/** The earlier scan with the same bytes. */
export interface DuplicateOf {
  id: string;
  name: string;
  /** True when that scan has already been uploaded (the new one is most likely a re-copy). */
  uploaded: boolean;
}

/** A scan waiting in the inbox. */
export interface Scan {
  id: string;
  /** File name without folders. */
  name: string;
  /** Path inside the watched folder, `/`-separated. */
  relPath: string;
  /** Absolute path on this machine; stays in the main process. */
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
  status: 'waiting' | 'uploading' | 'failed';
  /** Why the last upload failed. */
  error?: string;
  /** The last upload attempt, kept across a restart so the uploader can check the server first. */
  attempt?: UploadAttempt;
  duplicateOf?: DuplicateOf;
}

/**
 * A file the desk lists for someone to look at rather than to upload: a scan that could not be
 * read, or a duplicate of one uploaded already. Shown once; dismissed, it is not shown again.
 */
export interface InboxNotice {
  id: string;
  kind: 'damaged' | 'duplicate';
  name: string;
  relPath: string;
  /** For a duplicate: the name of the uploaded scan it repeats. */
  duplicateOf?: string;
}

/** Changes the inbox reports. `added` happens once per scan per run, when it is ready. */
export type InboxEvent =
  | { type: 'added'; scan: Scan }
  | { type: 'updated'; scan: Scan }
  | { type: 'removed'; id: string; reason: 'uploaded' | 'deleted' | 'changed' | 'dismissed' }
  /** A file that is no scan to offer: listed as damaged, or moved to `movedTo` (set aside). */
  | { type: 'problem'; kind: 'damaged' | 'duplicate'; relPath: string; movedTo?: string }
  /** The folder's watching changed (reachable or not, mode) or a notice went. */
  | { type: 'status' }
  | { type: 'error'; message: string };

/** The scan view of a ledger entry; `duplicateOf` points at the earliest other entry with the same sha256. */
export function scanOf(entry: LedgerEntry, path: string, all: ReadonlyMap<string, LedgerEntry>): Scan {
  const { status } = entry;
  if (status !== 'waiting' && status !== 'uploading' && status !== 'failed')
    throw new Error(`A ${status} entry is not a scan in the inbox.`);
  const original = [...all.values()]
    .filter(
      (other) =>
        other.id !== entry.id &&
        other.sha256 === entry.sha256 &&
        other.status !== 'damaged' &&
        other.status !== 'dismissed' &&
        isEarlier(other, entry),
    )
    .sort((a, b) => (isEarlier(a, b) ? -1 : 1))[0];
  const scan: Scan = {
    id: entry.id,
    name: entry.relPath.slice(entry.relPath.lastIndexOf('/') + 1),
    relPath: entry.relPath,
    path,
    size: entry.size,
    mtimeMs: entry.mtimeMs,
    sha256: entry.sha256,
    status,
  };
  if (entry.error !== undefined) scan.error = entry.error;
  if (entry.attempt !== undefined) scan.attempt = entry.attempt;
  if (original) {
    const name = original.relPath.slice(original.relPath.lastIndexOf('/') + 1);
    scan.duplicateOf = { id: original.id, name, uploaded: original.status === 'uploaded' };
  }
  return scan;
}

/** Ties on the clock (two files found in the same millisecond) are broken by id so exactly one is the original. */
function isEarlier(a: LedgerEntry, b: LedgerEntry): boolean {
  return a.firstSeenAt < b.firstSeenAt || (a.firstSeenAt === b.firstSeenAt && a.id < b.id);
}

/** A listener set whose faulty members cannot break the inbox or each other. */
export function createEmitter(): {
  emit: (event: InboxEvent) => void;
  subscribe: (listener: (event: InboxEvent) => void) => () => void;
} {
  const listeners = new Set<(event: InboxEvent) => void>();
  return {
    emit: (event) => {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // Ignored on purpose: see above.
        }
      }
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
