/**
 * The browser's kept uploads (docs/behaviour.md#kept-uploads): {@link createIndexedDbJournals} gives
 * the app its `UploadJournals` at once and loads the IndexedDB and encryption code
 * (`upload-journal-idb.ts`) on first use, so the landing page never downloads it.
 */
import type { JournalKeySource, KeyValueStorage, UploadJournals } from '@vita-docs/core';

/** The IndexedDB database's name: sign-out deletes it. */
export const UPLOAD_JOURNAL_DB = 'vita-docs-uploads';

/** What the journals need besides the page's `indexedDB` (which `idb` uses). */
export interface IndexedDbJournalsOptions {
  crypto: Crypto;
  /**
   * The signed-in person's journal key from the server (`api.journalKey`): everything kept is sealed
   * under it, and it is held in memory only, so nothing opens without a live session.
   */
  journalKey: JournalKeySource;
  /** Keeps, per owner hash, how many of their files another person's sign-in deleted. */
  storage: KeyValueStorage;
  now: () => number;
  /** Files older than this are deleted at open (the session's absolute lifetime). */
  lifetimeMs: number;
  name?: string;
}

/** The IndexedDB journals: queued files kept in the browser, sealed under the person's key from the server. */
export function createIndexedDbJournals(options: IndexedDbJournalsOptions): UploadJournals {
  let loaded: Promise<UploadJournals> | null = null;
  const load = () =>
    (loaded ??= import('./upload-journal-idb').then(
      (m) => m.openIndexedDbJournals(options),
      (error: unknown) => {
        loaded = null; // a chunk that failed to load (offline, a new deploy) is tried again next time
        throw error;
      },
    ));
  return {
    open: async (owner) => (await load()).open(owner),
    async destroy() {
      try {
        await (await load()).destroy();
      } catch {
        // Without its code (the chunk is gone after a deploy), the page's own API still deletes it.
        await new Promise<void>((resolve, reject) => {
          const request = indexedDB.deleteDatabase(options.name ?? UPLOAD_JOURNAL_DB);
          request.onsuccess = () => resolve();
          request.onerror = () =>
            reject(request.error ?? new Error('The kept uploads could not be deleted.'));
        });
      }
    },
  };
}
