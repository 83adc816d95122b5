// The upload queues with a session taken on trust (docs/behaviour.md#offline): files queued while the
// server has not vouched for the session wait, whatever the connection says, since the browser's
// cookie may by then be someone else's; once `GET /me` answers for the same person they go, once.
// And two pages (tabs) of one browser sharing one journal (docs/behaviour.md#kept-uploads): a file
// one holds in its queue is neither offered nor resumed by the other.
import { ApiError, createSessionFlow, createStore, messages } from '@vita-docs/core';
import type { SessionFlow } from '@vita-docs/core';
import type { FileLike, UploadJournals, UploadTarget, User } from '@vita-docs/core';
import {
  createFakeApi,
  createManualClock,
  createManualConnectivity,
  createMemoryJournals,
  createMemoryStorage,
  createRecordingDialogs,
  createTestFile,
  createTestUser,
} from '@vita-docs/core/testing';
import type { FakeApi, MemoryJournals } from '@vita-docs/core/testing';
import { describe, expect, it, vi } from 'vitest';
import type { PhotoTools } from '../screens/documents/lazy-converter';
import { createUploadQueues } from './upload-queues-engine';
import { NO_OFFER } from './upload-queues';
import type { KeptOffer, QueuesSummary } from './upload-queues';
import type { AppServices, Locks } from './services';

const vera = createTestUser({ email: 'vera@example.org', firstName: 'Vera' });

const photos: PhotoTools = {
  convert: async (file) => file,
  inspect: async () => [],
  canUse: async () => false,
  buildScan: async () => Promise.reject(new Error('no scans here')),
  dispose: () => undefined,
};

/** One page's upload queues, as `upload-queues.tsx` makes them. */
function openQueues(api: FakeApi, session: SessionFlow, more: Partial<AppServices> = {}) {
  return createUploadQueues(
    {
      api,
      platform: { ...createRecordingDialogs(), putFile: api.putFile, saveFile: async () => {} },
      clock: createManualClock(),
      sessionStorage: createMemoryStorage(),
      localStorage: createMemoryStorage(),
      config: { programmeUrl: 'https://programme.example.org/' },
      ...more,
    },
    session,
    {
      photos,
      summary: createStore<QueuesSummary>({ items: [], finished: 0, finishedBytes: 0 }),
      offer: createStore<KeptOffer>(NO_OFFER),
      announceStored: () => undefined,
    },
  );
}

/**
 * The browser's Web Locks as the pages of one profile share them: one holder per name, held until
 * the holder's callback settles, and a closed page's locks let go of.
 */
function createLocks() {
  const holders = new Map<string, object>();
  return {
    page(): Locks & { close(): void } {
      const me = {};
      return {
        async request(name, _options, callback) {
          if (holders.has(name)) return callback(null);
          holders.set(name, me);
          try {
            return await callback({ name, mode: 'exclusive' });
          } finally {
            if (holders.get(name) === me) holders.delete(name);
          }
        },
        query: async () => ({ held: [...holders.keys()].map((name) => ({ name })), pending: [] }),
        close: () => {
          for (const [name, holder] of holders) if (holder === me) holders.delete(name);
        },
      };
    },
  };
}

describe('upload queues under a session taken on trust', () => {
  it('send nothing until the server vouches for the session, then send each file once', async () => {
    const api = createFakeApi();
    api.world.session = { email: vera.email }; // the cookie the browser still holds
    const { clientId } = api.addClient({ firstName: 'Ada', createdBy: vera.email });
    let kept: User | null = vera;
    const me = vi.fn(async (): Promise<{ user: User }> =>
      Promise.reject(new ApiError('network', 0, 'Failed to fetch')),
    );
    const session = createSessionFlow({
      api: { me, logout: api.logout },
      platform: createRecordingDialogs(),
      remembered: { read: () => kept, write: (user) => void (kept = user) },
    });
    await session.send({ type: 'check' });
    expect(session.getState()).toMatchObject({ status: 'signedIn', offline: true });

    const connectivity = createManualConnectivity(); // the browser says online: a captive portal
    const queues = openQueues(api, session, { connectivity });
    const flow = queues.queues.queueFor({ clientId, docType: 'W-2' });
    await flow.send({ type: 'add', files: [createTestFile('w2.pdf', '%PDF-1.7 W-2', 'application/pdf')] });
    await flow.send({ type: 'upload' });
    expect(flow.getState().queue.map((item) => item.progress.status)).toEqual(['waiting']);
    expect(api.callNames()).not.toContain('presignUpload');

    me.mockResolvedValueOnce({ user: vera });
    await session.send({ type: 'check' });
    await vi.waitFor(() => expect(flow.getState().queue).toEqual([]));
    expect(api.callNames().filter((name) => name === 'presignUpload')).toHaveLength(1);
    expect([...api.world.docs.values()].map((doc) => doc.item.filename)).toEqual(['w2.pdf']);
    queues.dispose();
  });
});

/** One page's queues, and its closing (its locks let go of). */
type Page = ReturnType<typeof openQueues> & { close(): void };

describe('upload queues of two pages of one browser', () => {
  /** Vera signed in live, with one client, one shared journal and one browser's locks. */
  async function browser() {
    const api = createFakeApi();
    api.world.session = { email: vera.email };
    const { clientId } = api.addClient({ firstName: 'Ada', createdBy: vera.email });
    const journals = createMemoryJournals();
    const locks = createLocks();
    const open = async (uploadJournals: UploadJournals = journals): Promise<Page> => {
      const session = createSessionFlow({
        api: { me: async () => ({ user: vera }), logout: api.logout },
        platform: createRecordingDialogs(),
      });
      await session.send({ type: 'check' });
      const pageLocks = locks.page();
      const page = openQueues(api, session, { uploadJournals, locks: pageLocks });
      await page.openFor(vera.email);
      return { ...page, close: () => (page.dispose(), pageLocks.close()) };
    };
    const target = { clientId, docType: 'W-2' };
    return { api, journals, open, target };
  }
  const w2 = (): FileLike => createTestFile('w2.pdf', '%PDF-1.7 W-2', 'application/pdf');
  /** A file kept by a page since closed, and two pages opened after it (both offer it). */
  async function twoPagesOfferingOne(
    open: () => Promise<Page>,
    target: UploadTarget,
    journals: MemoryJournals,
  ): Promise<[Page, Page]> {
    const before = await open();
    await before.queues.queueFor(target).send({ type: 'add', files: [w2()] });
    await vi.waitFor(() => expect(journals.kept.size).toBe(1));
    before.close();
    return [await open(), await open()];
  }
  const offered = (page: { queues: { offer: { getState(): KeptOffer } } }) =>
    page.queues.offer.getState().files.map((kept) => kept.entry.name);

  it('a file queued in one page is not offered by another while the first is open; then it is', async () => {
    const { journals, open, target } = await browser();
    const first = await open();
    await first.queues.queueFor(target).send({ type: 'add', files: [w2()] });
    await vi.waitFor(() => expect(journals.kept.size).toBe(1));

    const second = await open();
    expect(offered(second)).toEqual([]);
    second.close();

    first.close(); // the tab is closed: the browser lets its locks go, the file stays kept
    const third = await open();
    expect(offered(third)).toEqual(['w2.pdf']);
    third.close();
  });

  it('a file two pages offer is resumed by the first to ask, and stored once', async () => {
    const { api, journals, open, target } = await browser();
    const [one, two] = await twoPagesOfferingOne(open, target, journals);
    expect([offered(one), offered(two)]).toEqual([['w2.pdf'], ['w2.pdf']]);
    one.queues.resume();
    two.queues.resume();
    await vi.waitFor(() => expect(api.world.docs.size).toBe(1));
    await vi.waitFor(() => expect(journals.kept.size).toBe(0));
    expect(two.queues.queueFor(target).getState().queue).toEqual([]);
    expect(api.callNames().filter((name) => name === 'presignUpload')).toHaveLength(1);
    one.close();
    two.close();
  });

  it('Discard in one page deletes nothing another page has resumed', async () => {
    const { api, journals, open, target } = await browser();
    const [one, two] = await twoPagesOfferingOne(open, target, journals);
    const held = api.hold('presignUpload'); // the resumed file is on its way in the first page
    one.queues.resume();
    await vi.waitFor(() => expect(one.queues.queueFor(target).getState().queue).toHaveLength(1));
    await two.queues.discard();
    expect(journals.kept.size).toBe(1);

    held.release();
    await vi.waitFor(() => expect(api.world.docs.size).toBe(1));
    await vi.waitFor(() => expect(journals.kept.size).toBe(0));
    one.close();
    two.close();
  });
});

describe('Logout and the files the device keeps', () => {
  it('asks when what the device keeps cannot be read (no journal key), and keeps it on Cancel', async () => {
    const api = createFakeApi();
    api.world.session = { email: vera.email };
    const destroy = vi.fn(async () => undefined);
    const unreadable: UploadJournals = {
      open: () => Promise.reject(new ApiError('network', 0, 'Failed to fetch')),
      destroy,
    };
    const session = createSessionFlow({
      api: { me: async () => ({ user: vera }), logout: api.logout },
      platform: createRecordingDialogs(),
    });
    await session.send({ type: 'check' });
    const dialogs = createRecordingDialogs();
    const page = openQueues(api, session, {
      uploadJournals: unreadable,
      platform: { ...dialogs, putFile: api.putFile, saveFile: async () => {} },
    });
    await page.openFor(vera.email);

    dialogs.answerConfirms(false);
    expect(await page.queues.logout()).toBe(false);
    expect(dialogs.confirms).toEqual([messages.logoutKeptUnknownConfirm]);
    expect(session.getState().status).toBe('signedIn');
    expect(destroy).not.toHaveBeenCalled();

    expect(await page.queues.logout()).toBe(true);
    expect(dialogs.confirms).toEqual([messages.logoutKeptUnknownConfirm, messages.logoutKeptUnknownConfirm]);
    expect(destroy).toHaveBeenCalledOnce();
    page.dispose();
  });
});
