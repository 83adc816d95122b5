import type { JournalEntry, KeptFile, OpenedJournal, UploadJournals } from '../flows/upload/journal.js';
import type { FileLike } from '../ports.js';

/** {@link UploadJournals} in memory, with what they hold open to a test. */
export interface MemoryJournals extends UploadJournals {
  /** Every kept file, by id, with its owner. */
  readonly kept: ReadonlyMap<string, KeptFile & { owner: string; bytes: boolean }>;
  /** Makes every later save keep the entry but fail to keep the bytes (a full device). */
  failSaves(fail: boolean): void;
  /** Deleted-for-others counts not yet told, per owner. */
  readonly untold: ReadonlyMap<string, number>;
  /**
   * With no connection (no key from the server) every later open is seal-only: it reads nothing,
   * counts the owner's kept files, and keeps what is saved for the next live open.
   */
  setOffline(offline: boolean): void;
}

/** Creates {@link MemoryJournals}; `now` stamps kept files, `lifetimeMs` drops older ones at open. */
export function createMemoryJournals(
  options: { now?: () => number; lifetimeMs?: number } = {},
): MemoryJournals {
  const now = options.now ?? (() => 0);
  const lifetime = options.lifetimeMs ?? Infinity;
  const kept = new Map<string, KeptFile & { owner: string; bytes: boolean }>();
  const untold = new Map<string, number>();
  let failing = false;
  let offline = false;
  const journalOf = (owner: string) => ({
    async save(entry: JournalEntry, file: FileLike) {
      kept.set(entry.id, { entry, file, savedAt: now(), owner, bytes: !failing });
      if (failing) throw new Error('QuotaExceededError');
    },
    async remove(id: string) {
      kept.delete(id);
    },
  });
  return {
    kept,
    untold,
    failSaves: (fail) => void (failing = fail),
    setOffline: (value) => void (offline = value),
    async open(owner): Promise<OpenedJournal> {
      if (offline) {
        const mine = [...kept.values()].filter((r) => r.owner === owner && now() - r.savedAt <= lifetime);
        const sealed = { files: [], lost: [], deletedForOthers: 0, sealOnly: true as const };
        return { ...sealed, sealedCount: mine.length, journal: journalOf(owner) };
      }
      const files: KeptFile[] = [];
      const lost: JournalEntry[] = [];
      for (const [id, record] of [...kept]) {
        if (record.owner !== owner) {
          untold.set(record.owner, (untold.get(record.owner) ?? 0) + 1);
          kept.delete(id);
        } else if (now() - record.savedAt > lifetime) kept.delete(id);
        else if (record.bytes)
          files.push({ entry: record.entry, file: record.file, savedAt: record.savedAt });
        else lost.push(record.entry);
      }
      const deletedForOthers = untold.get(owner) ?? 0;
      untold.delete(owner);
      return {
        files,
        lost,
        deletedForOthers,
        journal: journalOf(owner),
      };
    },
    async destroy() {
      kept.clear();
    },
  };
}
