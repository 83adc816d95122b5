/**
 * The client page's kept uploads: the staff's IndexedDB journal (adapters/upload-journal-idb), sealed under
 * the link's journal key, which the server gives only to a live session of the link
 * (`GET /api/link/session/journal-key`) and the page holds in memory only. A reload, a crash or a phone
 * that dropped the tab loses nothing queued; once the link is revoked, done or expired no session gets
 * the key, so nothing the phone kept opens again (and the page deletes it, link-kept.ts).
 */
import type { ApiClient, LinkJournal, UploadJournal } from '@vita-docs/core';
import { LINK_DAYS_MAX } from '@vita-docs/core/client-link';
import { LINK_JOURNAL_DB, LINK_KEPT_FLAG } from './link-kept';

/** The one owner of the link journal: the link session (the key itself says which link). */
const OWNER = 'link-session';

export function openLinkJournal(api: Pick<ApiClient, 'linkJournalKey'>): LinkJournal {
  // The IndexedDB code itself, not the staff app's wrapper of it: that wrapper is part of the staff app's
  // first download, and sharing it would split that download in two (a larger landing route).
  const opened = import('../../adapters/upload-journal-idb').then(({ openIndexedDbJournals }) =>
    openIndexedDbJournals({
      crypto: window.crypto,
      journalKey: async () => ({ ...(await api.linkJournalKey()), email: OWNER }),
      storage: window.localStorage,
      now: () => Date.now(),
      lifetimeMs: LINK_DAYS_MAX * 24 * 3600_000,
      name: LINK_JOURNAL_DB,
    }).open(OWNER),
  );
  // Whether this page has begun keeping a file: the flag then stays, however the opening ends.
  let keeping = false;
  const journal: UploadJournal = {
    async save(entry, file, bytes) {
      keeping = true;
      window.localStorage.setItem(LINK_KEPT_FLAG, '1');
      await (await opened).journal.save(entry, file, bytes);
    },
    async remove(id) {
      await (await opened).journal.remove(id);
    },
  };
  const kept = opened.then(
    ({ files }) => {
      // Nothing kept before, and nothing since: the next load need not bring the capture parts at once.
      // A file saved while the journal was opening set the flag itself; clearing it would leave that
      // file unsent after a reload until the person touched the page.
      if (!files.length && !keeping) window.localStorage.removeItem(LINK_KEPT_FLAG);
      return files;
    },
    () => [],
  );
  return { journal, kept };
}
