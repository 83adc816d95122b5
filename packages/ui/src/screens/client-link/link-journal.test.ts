// The client page's kept-files flag (link-kept.ts) against fake-indexeddb and Node's WebCrypto: the page
// loads its capture parts at once after a reload only while the flag is set, so a file saved while the
// journal was still opening must leave it set, or that file waits unsent until the client touches the page.
import 'fake-indexeddb/auto';
import { createFakeJournalKeys, createMemoryStorage, createTestFile } from '@vita-docs/core/testing';
import type { ApiClient } from '@vita-docs/core';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { openLinkJournal } from './link-journal';
import { LINK_JOURNAL_DB, LINK_KEPT_FLAG } from './link-kept';

const storage = createMemoryStorage();
const server = createFakeJournalKeys({ now: () => Date.now() });

beforeEach(async () => {
  // Each test starts with nothing kept (the journal closes its database when asked to go).
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(LINK_JOURNAL_DB);
    request.onsuccess = request.onerror = resolve;
  });
  storage.removeItem(LINK_KEPT_FLAG);
  vi.stubGlobal('window', { localStorage: storage, crypto: globalThis.crypto });
  server.signIn('link-session');
});
afterEach(() => vi.unstubAllGlobals());

/** The link session's key call, answered only when `answer` is called. */
function heldKey() {
  let answer = () => {};
  const given = new Promise<void>((resolve) => (answer = resolve));
  const api = {
    linkJournalKey: async () => {
      await given;
      return server.source();
    },
  } as unknown as Pick<ApiClient, 'linkJournalKey'>;
  return { api, answer };
}

const entry = (id: string) => ({
  id,
  target: { clientId: 'c1', docType: '13614-C' },
  name: 'form.jpg',
  type: 'image/jpeg',
  size: 3,
});

it('a file saved while the journal opens keeps the flag that brings it back after a reload', async () => {
  const { api, answer } = heldKey();
  const { journal, kept } = openLinkJournal(api);
  const saving = journal.save(entry('a'), createTestFile('form.jpg', 'abc', 'image/jpeg'));
  answer();
  expect(await kept).toEqual([]);
  await saving;
  expect(storage.getItem(LINK_KEPT_FLAG)).toBe('1');
  // The reload: the flag brought the parts, and the file is there.
  const again = openLinkJournal(heldKeyAnswered());
  expect((await again.kept).map((file) => file.entry.id)).toEqual(['a']);
  expect(storage.getItem(LINK_KEPT_FLAG)).toBe('1');
});

it('a page that kept nothing and found nothing clears the flag', async () => {
  storage.setItem(LINK_KEPT_FLAG, '1');
  expect(await openLinkJournal(heldKeyAnswered()).kept).toEqual([]);
  expect(storage.getItem(LINK_KEPT_FLAG)).toBeNull();
});

function heldKeyAnswered(): Pick<ApiClient, 'linkJournalKey'> {
  const { api, answer } = heldKey();
  answer();
  return api;
}
