// The upload queue set in Node, on in-memory ports (journals, claims, a fake server). With a session
// taken on trust (docs/behaviour.md#offline) files queued while the server has not vouched for the
// session wait, whatever the connection says, since the browser's cookie may by then be someone
// else's; once `GET /me` answers for the same person they go, once. What a journal offers
// (docs/behaviour.md#kept-uploads): kept files not in a queue, lost ones by name, never one uploaded.
// And two pages (tabs) of one browser sharing one journal: a file one holds in its queue is claimed,
// and neither offered nor resumed by the other.
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import type { User } from '../../api/schemas.js';
import type { UploadTarget } from '../../api/upload.js';
import { messages } from '../../domain/messages.js';
import type { FileLike } from '../../ports.js';
import { createStore } from '../../store.js';
import {
  createFakeApi,
  createManualClock,
  createManualConnectivity,
  createMemoryClaims,
  createMemoryJournals,
  createMemoryStorage,
  createRecordingDialogs,
  createTestFile,
  createTestUser,
} from '../../testing/index.js';
import type { FakeApi, MemoryJournals, RecordingDialogs } from '../../testing/index.js';
import { createSessionFlow } from '../session/session.js';
import type { SessionFlow } from '../session/session.js';
import type { UploadJournals } from '../upload/journal.js';
import { NO_OFFER } from './types.js';
import type { KeptOffer, QueuesSummary, UploadQueuesPorts } from './types.js';
import { createUploadQueues } from './upload-queues.js';

const vera = createTestUser({ email: 'vera@example.org', firstName: 'Vera' });

let ids = 0;

/** One page's upload queues, on in-memory ports. */
function openQueues(
  api: FakeApi,
  session: SessionFlow,
  more: Partial<UploadQueuesPorts> & { dialogs?: RecordingDialogs } = {},
) {
  const { dialogs = createRecordingDialogs(), ...ports } = more;
  return createUploadQueues(
    {
      api,
      putFile: api.putFile,
      platform: dialogs,
      photos: { convert: async (file) => file },
      storage: createMemoryStorage(),
      clock: createManualClock(),
      newId: () => `file-${++ids}`,
      ...ports,
    },
    session,
    {
      summary: createStore<QueuesSummary>({ items: [], finished: 0, finishedBytes: 0 }),
      offer: createStore<KeptOffer>(NO_OFFER),
      announceStored: () => undefined,
    },
  );
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
type Page = ReturnType<typeof openQueues> & {
  claims: ReturnType<ReturnType<typeof createMemoryClaims>['page']>;
  close(): void;
};

describe('upload queues of two pages of one browser', () => {
  /** Vera signed in live, with one client, one shared journal and one browser's locks. */
  async function browser() {
    const api = createFakeApi();
    api.world.session = { email: vera.email };
    const { clientId } = api.addClient({ firstName: 'Ada', createdBy: vera.email });
    const journals = createMemoryJournals();
    const claims = createMemoryClaims();
    const open = async (uploadJournals: UploadJournals = journals): Promise<Page> => {
      const session = createSessionFlow({
        api: { me: async () => ({ user: vera }), logout: api.logout },
        platform: createRecordingDialogs(),
      });
      await session.send({ type: 'check' });
      const pageClaims = claims.page();
      const page = openQueues(api, session, { journals: uploadJournals, claims: pageClaims });
      await page.openFor(vera.email);
      return { ...page, claims: pageClaims, close: () => (page.dispose(), pageClaims.close()) };
    };
    const target = { clientId, docType: 'W-2' };
    return { api, journals, claims, open, target };
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

/** Vera signed in live on one page, with one client. */
async function livePage(ports: Partial<UploadQueuesPorts> = {}) {
  const api = createFakeApi();
  api.world.session = { email: vera.email };
  const { clientId } = api.addClient({ firstName: 'Ada', lastName: 'Lovelace', createdBy: vera.email });
  const session = createSessionFlow({
    api: { me: async () => ({ user: vera }), logout: api.logout },
    platform: createRecordingDialogs(),
  });
  await session.send({ type: 'check' });
  const page = openQueues(api, session, ports);
  return { api, session, page, target: { clientId, docType: 'W-2' } };
}

const pdf = (name: string): FileLike => createTestFile(name, `%PDF-1.7 ${name}`, 'application/pdf');

describe('what a journal offers', () => {
  it('offers the kept files and the lost ones by name, with the count deleted for someone else', async () => {
    const journals = createMemoryJournals();
    const target = { clientId: 'c1', docType: 'W-2' };
    const earlier = await journals.open(vera.email);
    await earlier.journal.save(
      { id: 'x', target, name: 'x.pdf', type: 'application/pdf', size: 3 },
      pdf('x.pdf'),
    );
    // Wes signs in here meanwhile (Vera's x.pdf is deleted) and keeps a file of his own …
    const other = await journals.open('wes@example.org');
    await other.journal.save(
      { id: 'w', target, name: 'w.pdf', type: 'application/pdf', size: 3 },
      pdf('w.pdf'),
    );
    // … while Vera's page, still open, keeps two more (one of them by name only).
    await earlier.journal.save(
      { id: 'a', target, name: 'a.pdf', type: 'application/pdf', size: 3, clientName: 'Ada L.' },
      pdf('a.pdf'),
    );
    journals.failSaves(true);
    await earlier.journal
      .save({ id: 'b', target, name: 'b.pdf', type: 'application/pdf', size: 3 }, pdf('b.pdf'))
      .catch(() => undefined);
    journals.failSaves(false);

    const { page } = await livePage({ journals });
    await page.openFor(vera.email);
    const offer = page.queues.offer.getState();
    expect(offer.files.map((kept) => kept.entry.name)).toEqual(['a.pdf']);
    expect(offer.lost.map((entry) => entry.name)).toEqual(['b.pdf']);
    expect(offer.deletedForOthers).toBe(1);
    expect(journals.untold.get('wes@example.org')).toBe(1); // Wes is told on his next sign-in
    page.queues.dismissDeleted();
    expect(page.queues.offer.getState().deletedForOthers).toBe(0);
    page.dispose();
  });

  it('Resume queues each kept file in its category and uploads it once; the journal then forgets it', async () => {
    const journals = createMemoryJournals();
    const { api, page, target } = await livePage({ journals });
    const earlier = await journals.open(vera.email);
    await earlier.journal.save(
      { id: 'k1', target, name: 'k1.pdf', type: 'application/pdf', size: 3, clientName: 'Ada L.' },
      pdf('k1.pdf'),
    );
    await page.openFor(vera.email);
    expect(page.queues.offer.getState().files).toHaveLength(1);

    page.queues.resume();
    expect(page.queues.offer.getState().files).toEqual([]);
    await vi.waitFor(() =>
      expect([...api.world.docs.values()].map((doc) => doc.item.filename)).toEqual(['k1.pdf']),
    );
    await vi.waitFor(() => expect(journals.kept.size).toBe(0));
    expect(api.callNames().filter((name) => name === 'presignUpload')).toHaveLength(1);
    page.dispose();
  });

  it('never offers a file this page queued, nor one it uploaded meanwhile', async () => {
    const journals = createMemoryJournals();
    const { api, page, target } = await livePage({ journals });
    await page.openFor(vera.email);
    const flow = page.queues.queueFor(target);
    await flow.send({ type: 'add', files: [pdf('queued.pdf'), pdf('sent.pdf')] });
    const [queued, sent] = flow.getState().queue.map((item) => item.id);
    await flow.send({ type: 'remove', id: queued! });
    await flow.send({ type: 'add', files: [pdf('queued.pdf')] });
    await flow.send({ type: 'upload' });
    await vi.waitFor(() => expect(api.world.docs.size).toBe(2));
    expect(journals.kept.has(sent!)).toBe(false);

    await flow.send({ type: 'add', files: [pdf('waiting.pdf')] });
    await page.openFor(vera.email); // opened again: nothing new to offer
    expect(page.queues.offer.getState()).toEqual(NO_OFFER);
    page.dispose();
  });

  it('Discard deletes the offered files from the device; a lost file chosen again is queued', async () => {
    const journals = createMemoryJournals();
    const { page, target } = await livePage({ journals });
    const earlier = await journals.open(vera.email);
    await earlier.journal.save(
      { id: 'k1', target, name: 'k1.pdf', type: 'application/pdf', size: 3 },
      pdf('k1.pdf'),
    );
    journals.failSaves(true);
    await earlier.journal
      .save({ id: 'k2', target, name: 'k2.pdf', type: 'application/pdf', size: 3 }, pdf('k2.pdf'))
      .catch(() => undefined);
    journals.failSaves(false);
    await page.openFor(vera.email);
    const [lost] = page.queues.offer.getState().lost;

    page.queues.chooseAgain(lost!, pdf('k2.pdf'));
    await vi.waitFor(() =>
      expect(
        page.queues
          .queueFor(target)
          .getState()
          .queue.map((item) => item.file.name),
      ).toEqual(['k2.pdf']),
    );
    await page.queues.discard();
    expect([...journals.kept.values()].map((kept) => kept.entry.name)).toEqual(['k2.pdf']); // the new one
    expect(page.queues.offer.getState()).toMatchObject({ files: [], lost: [] });
    page.dispose();
  });
});

describe('files kept with no connection, after a reload', () => {
  /** Vera's page reloaded with no connection: her session taken on trust, her journal opened seal-only. */
  async function reloadedOffline(
    journals: MemoryJournals,
    api: FakeApi,
    claims?: UploadQueuesPorts['claims'],
  ) {
    let kept: User | null = vera;
    const me = vi.fn(async (): Promise<{ user: User }> =>
      Promise.reject(new ApiError('network', 0, messages.needsConnection)),
    );
    const session = createSessionFlow({
      api: { me, logout: api.logout },
      platform: createRecordingDialogs(),
      remembered: { read: () => kept, write: (user) => void (kept = user) },
    });
    await session.send({ type: 'check' });
    const page = openQueues(api, session, { journals, ...(claims ? { claims } : {}) });
    await page.openFor(vera.email);
    /** The connection is back and `GET /me` vouches for the same person: the host opens the journal again. */
    const back = async () => {
      me.mockResolvedValue({ user: vera });
      await session.send({ type: 'check' });
      await page.openFor(vera.email);
    };
    return { page, session, back };
  }

  /** Vera's live page that kept two files, then was closed (reloaded). */
  async function keptTwo() {
    const api = createFakeApi();
    api.world.session = { email: vera.email };
    const { clientId } = api.addClient({ firstName: 'Ada', createdBy: vera.email });
    const target = { clientId, docType: 'W-2' };
    const journals = createMemoryJournals();
    const earlier = await journals.open(vera.email);
    for (const id of ['k1', 'k2'])
      await earlier.journal.save(
        { id, target, name: `${id}.pdf`, type: 'application/pdf', size: 3 },
        pdf(`${id}.pdf`),
      );
    return { api, journals, target };
  }
  const stored = (api: FakeApi) => [...api.world.docs.values()].map((doc) => doc.item.filename).sort();

  it('counts the kept files while offline; back in the same session they upload by themselves, once each', async () => {
    const { api, journals } = await keptTwo();
    journals.setOffline(true);
    const { page, back } = await reloadedOffline(journals, api);
    expect(page.queues.offer.getState()).toEqual({ ...NO_OFFER, sealed: 2 });

    journals.setOffline(false);
    await back();
    expect(page.queues.offer.getState()).toEqual(NO_OFFER); // nothing to Resume
    await vi.waitFor(() => expect(stored(api)).toEqual(['k1.pdf', 'k2.pdf']));
    await vi.waitFor(() => expect(journals.kept.size).toBe(0));
    expect(api.callNames().filter((name) => name === 'presignUpload')).toHaveLength(2);
    page.dispose();
  });

  it('with two pages back online at once, the claim decides which sends each file: each is stored once', async () => {
    const { api, journals } = await keptTwo();
    const claims = createMemoryClaims();
    journals.setOffline(true);
    const one = await reloadedOffline(journals, api, claims.page());
    const two = await reloadedOffline(journals, api, claims.page());
    journals.setOffline(false);
    await Promise.all([one.back(), two.back()]);
    await vi.waitFor(() => expect(stored(api)).toEqual(['k1.pdf', 'k2.pdf']));
    await vi.waitFor(() => expect(journals.kept.size).toBe(0));
    expect(api.callNames().filter((name) => name === 'presignUpload')).toHaveLength(2);
    for (const { page } of [one, two]) {
      expect(page.queues.offer.getState().files).toEqual([]);
      page.dispose();
    }
  });

  it('files kept through a session that ended are offered with Resume, not sent', async () => {
    const { api, journals } = await keptTwo();
    journals.setOffline(true);
    const { page, back } = await reloadedOffline(journals, api);
    page.clear(); // the session ended (signed out, or someone else): the next sign-in starts afresh
    journals.setOffline(false);
    await back();
    expect(page.queues.offer.getState().files.map((kept) => kept.entry.name)).toEqual(['k1.pdf', 'k2.pdf']);
    expect(api.callNames()).not.toContain('presignUpload');
    page.dispose();
  });
});

describe('claims of the files a page holds', () => {
  it('claims each queued file while it is queued and lets it go once stored; a sign-out lets go of all', async () => {
    const claims = createMemoryClaims();
    const mine = claims.page();
    const { api, page, target } = await livePage({ claims: mine });
    const hold = api.hold('presignUpload');
    const flow = page.queues.queueFor(target);
    await flow.send({ type: 'add', files: [pdf('one.pdf'), pdf('two.pdf')] });
    const queued = flow.getState().queue.map((item) => item.id);
    await vi.waitFor(() => expect(mine.held).toEqual(new Set(queued)));
    expect(await claims.page().heldElsewhere()).toEqual(new Set(queued));

    void flow.send({ type: 'upload' });
    hold.release();
    await vi.waitFor(() => expect(api.world.docs.size).toBe(2));
    await vi.waitFor(() => expect(mine.held).toEqual(new Set()));

    await flow.send({ type: 'add', files: [pdf('three.pdf')] });
    await vi.waitFor(() => expect(mine.held.size).toBe(1));
    page.clear();
    expect(claims.held).toEqual(new Set());
    page.dispose();
  });

  it('does not resume a kept file another page claimed first', async () => {
    const journals = createMemoryJournals();
    const claims = createMemoryClaims();
    const { api, page, target } = await livePage({ journals, claims: claims.page() });
    const earlier = await journals.open(vera.email);
    await earlier.journal.save(
      { id: 'k1', target, name: 'k1.pdf', type: 'application/pdf', size: 3 },
      pdf('k1.pdf'),
    );
    await page.openFor(vera.email);
    expect(page.queues.offer.getState().files).toHaveLength(1);

    expect(await claims.page().claim('k1')).toBe(true); // another tab resumed it meanwhile
    page.queues.resume();
    await page.queues.discard();
    expect(page.queues.queueFor(target).getState().queue).toEqual([]);
    expect(journals.kept.has('k1')).toBe(true); // its record is the other tab's
    expect(api.callNames()).not.toContain('presignUpload');
    page.dispose();
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
    const page = openQueues(api, session, { journals: unreadable, dialogs });
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
