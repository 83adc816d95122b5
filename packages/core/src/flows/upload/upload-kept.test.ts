// The upload queue with a journal, a connection watch and a clock (docs/behaviour.md#kept-uploads,
// docs/behaviour.md#automatic-retries): files are kept before they count as queued, a lost network
// makes files wait and go again by themselves, server errors are retried after growing pauses, and
// kept files come back into their queue.
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { messages } from '../../domain/messages.js';
import {
  createFakeApi,
  createManualClock,
  createManualConnectivity,
  createMemoryJournals,
  createMemoryStorage,
  createRecordingDialogs,
  createTestFile,
} from '../../testing/index.js';
import { defaultRetryPolicy } from './retry-policy.js';
import { createUploadFlow } from './upload.js';
import type { UploadFlowOptions } from './upload.js';

async function setup(extra: Partial<Pick<UploadFlowOptions, 'retry' | 'convert'>> = {}) {
  const api = createFakeApi();
  api.addUser({ email: 'vera@example.org' });
  const client = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  const clock = createManualClock(1_000_000);
  const connectivity = createManualConnectivity();
  const journals = createMemoryJournals({ now: () => clock.now() });
  const opened = await journals.open('vera@example.org');
  const platform = createRecordingDialogs();
  let ids = 0;
  const target = { clientId: client.clientId, docType: 'W-2' };
  /** The queue as a page makes it, keeping files in `journal`. */
  const queueOn = (journal: typeof opened.journal) =>
    createUploadFlow({
      api,
      putFile: api.putFile,
      convert: async (file) =>
        createTestFile(file.name.replace(/\.\w+$/, '.pdf'), '%PDF-1.7', 'application/pdf'),
      storage: createMemoryStorage(),
      platform,
      target,
      refresh: () => undefined,
      journal,
      clientName: () => 'Ada Client',
      connectivity,
      clock,
      newId: () => `item-${++ids}`,
      ...extra,
    });
  const flow = queueOn(opened.journal);
  /** The next page load: its queue, and what its journal kept. */
  const reload = async () => {
    flow.dispose();
    const again = await journals.open('vera@example.org');
    return { flow: queueOn(again.journal), kept: again.files };
  };
  const stored = () => [...api.world.docs.values()].map((d) => d.item.filename);
  const statuses = () => flow.getState().queue.map((q) => q.progress.status);
  // Lets the fake server's answers and the flow's continuations run (for checks that nothing happened).
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  return { api, clock, connectivity, journals, platform, flow, stored, statuses, settle, target, reload };
}

/** Waits for what the flow does by itself (its requests hash the files on the thread pool). */
const until = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 2 });

const pdf = (name: string) => createTestFile(name, `%PDF-1.7 ${name}`, 'application/pdf');

describe('upload queue: kept files', () => {
  it('keeps each file with its target before it shows as queued, and forgets it once uploaded or removed', async () => {
    const { flow, journals, statuses, target } = await setup();
    const { ids, ready } = flow.addFiles([pdf('a.pdf'), createTestFile('photo.jpg', 'jpeg', 'image/jpeg')]);
    expect(ids).toEqual(['item-1', 'item-2']);
    expect(statuses()).toEqual(['saving', 'converting']);
    await ready;
    expect(statuses()).toEqual(['queued', 'queued']);
    expect(flow.getState().queue.map((q) => q.saved)).toEqual([true, true]);
    expect(
      [...journals.kept.values()].map((k) => [k.entry.name, k.entry.target, k.entry.clientName]).sort(),
    ).toEqual([
      ['a.pdf', target, 'Ada Client'],
      ['photo.pdf', target, 'Ada Client'],
    ]);

    await flow.send({ type: 'remove', id: 'item-2' });
    await flow.send({ type: 'upload' });
    expect(flow.getState().queue).toEqual([]);
    expect(journals.kept.size).toBe(0);
  });

  it("reads a kept file once: the journal and the presign's SHA-256 share the read", async () => {
    const { api, flow, journals, stored } = await setup();
    const file = new File(['%PDF-1.7 read once'], 'once.pdf', { type: 'application/pdf' });
    const reads = vi.spyOn(file, 'arrayBuffer');
    await flow.addFiles([file]).ready;
    expect(journals.kept.get('item-1')?.bytes).toBe(true);
    expect(reads).toHaveBeenCalledTimes(1);
    await flow.send({ type: 'upload' });
    // One more read: the fake server's PUT taking the bytes. The presign's SHA-256 was the kept read's,
    // and the right one (the fake server checks it at complete).
    expect(reads).toHaveBeenCalledTimes(2);
    expect(stored()).toEqual(['once.pdf']);
    expect(api.world.docs.size).toBe(1);
  });

  it('does not keep files the host keeps itself (scans), and keeps a retake that takes the place of one', async () => {
    const { flow, journals, statuses } = await setup();
    const { ids, ready } = flow.addFiles([pdf('scan-1.pdf')], { keptByHost: true });
    expect(statuses()).toEqual(['queued']);
    await ready;
    expect(flow.getState().queue.map((q) => [q.saved, q.keptByHost])).toEqual([[true, true]]);
    expect(journals.kept.size).toBe(0);
    await flow.send({ type: 'replace', id: ids[0] ?? '', file: pdf('retake.pdf') });
    expect(flow.getState().queue.map((q) => [q.saved, q.keptByHost])).toEqual([[true, false]]);
    expect([...journals.kept.values()].map((k) => k.entry.name)).toEqual(['scan-1.pdf']);
  });

  it('shows a file as queued only once the journal has it', async () => {
    const api = createFakeApi();
    api.addUser({ email: 'vera@example.org' });
    const client = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const saved: string[] = [];
    const flow = createUploadFlow({
      api,
      putFile: api.putFile,
      convert: async (file) => file,
      storage: createMemoryStorage(),
      platform: createRecordingDialogs(),
      target: { clientId: client.clientId, docType: 'W-2' },
      refresh: () => undefined,
      journal: {
        save: async (entry) => {
          await held;
          saved.push(entry.name);
        },
        remove: async () => undefined,
      },
    });
    const { ready } = flow.addFiles([pdf('a.pdf')]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(flow.getState().queue[0]?.progress.status).toBe('saving');
    // Upload now: it waits for the file to be kept, then sends it.
    const uploading = flow.send({ type: 'upload' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(api.callNames()).not.toContain('presignUpload');
    release();
    await ready;
    await uploading;
    expect(saved).toEqual(['a.pdf']);
    expect(api.callNames()).toContain('presignUpload');
    expect(flow.getState().queue).toEqual([]);
  });

  it('a queue dropped while it converts or keeps (another person signed in) keeps nothing more', async () => {
    const { flow, journals } = await setup();
    flow.addFiles([createTestFile('photo.jpg', 'jpeg', 'image/jpeg'), pdf('b.pdf')]);
    flow.dispose();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(journals.kept.size).toBe(0);
  });

  it('queues a file that could not be kept anyway, with a note saying so', async () => {
    const { flow, journals } = await setup();
    journals.failSaves(true);
    await flow.send({ type: 'add', files: [pdf('big.pdf')] });
    expect(flow.getState().queue[0]).toMatchObject({
      progress: { status: 'queued' },
      saved: false,
      notice: messages.notKeptOnDevice,
    });
  });

  it('puts kept files back as they were and uploads them; the journal forgets each one stored', async () => {
    const { flow, stored, journals, target } = await setup();
    const file = pdf('kept.pdf');
    const { journal } = await journals.open('vera@example.org');
    await journal.save({ id: 'old-1', target, name: file.name, type: file.type, size: file.size }, file);
    const kept = (await journals.open('vera@example.org')).files;

    await flow.send({ type: 'restore', files: kept });
    await flow.send({ type: 'restore', files: kept }); // twice changes nothing
    expect(flow.getState().queue.map((q) => [q.id, q.progress.status, q.saved])).toEqual([
      ['old-1', 'queued', true],
    ]);
    await flow.send({ type: 'upload' });
    expect(stored()).toEqual(['kept.pdf']);
    expect(journals.kept.size).toBe(0);
  });

  it('keeps a photo with the corners or turn chosen until its new PDF is kept; a reload before makes the PDF again with them', async () => {
    // Conversions wait for `release`; each is noted with the turn and crop it was asked for.
    const asked: { name: string; rotate?: number; crop?: unknown }[] = [];
    let release = () => undefined as void;
    let held = Promise.resolve();
    const convert: UploadFlowOptions['convert'] = async (file, options) => {
      asked.push({ name: file.name, rotate: options?.rotate, crop: options?.crop });
      await held;
      return createTestFile(
        file.name.replace(/\.\w+$/, '.pdf'),
        `%PDF-1.7 ${JSON.stringify(options)}`,
        'application/pdf',
      );
    };
    const { flow, journals, stored, reload } = await setup({ convert });
    const photo = createTestFile('photo.jpg', 'jpeg', 'image/jpeg');
    await flow.addFiles([photo]).ready;
    expect([...journals.kept.values()].map((k) => [k.entry.name, k.entry.convert])).toEqual([
      ['photo.pdf', undefined],
    ]);

    held = new Promise<void>((resolve) => (release = resolve));
    const whole = { mode: 'whole' } as const;
    const cropped = flow.send({ type: 'crop', id: 'item-1', crop: whole });
    // The PDF is still being made: the photo itself is kept, with the choice, and counts as kept.
    await until(() => expect(flow.getState().queue[0]?.saved).toBe(true));
    expect(flow.getState().queue[0]?.progress).toEqual({ status: 'converting' });
    const kept = [...journals.kept.values()];
    expect(kept.map((k) => [k.entry.name, k.entry.type, k.entry.convert, k.file])).toEqual([
      ['photo.jpg', 'image/jpeg', { rotate: 0, crop: whole }, photo],
    ]);

    // The tab is closed now: the next page makes the PDF again with the choice, then sends it.
    asked.length = 0;
    const next = await reload();
    release();
    await cropped;
    await next.flow.send({ type: 'restore', files: next.kept });
    expect(next.flow.getState().queue[0]).toMatchObject({ rotate: 0, crop: whole });
    await next.flow.send({ type: 'upload' });
    expect(asked).toEqual([{ name: 'photo.jpg', rotate: 0, crop: whole }]);
    expect(stored()).toEqual(['photo.pdf']);
    expect(journals.kept.size).toBe(0);
  });
});

describe('upload queue: no network', () => {
  it('a file that finds no network waits with the files after it, unannounced, and all go when the connection is back', async () => {
    const { api, flow, platform, connectivity, clock, statuses, stored, settle } = await setup();
    await flow.send({ type: 'add', files: [pdf('a.pdf'), pdf('b.pdf'), pdf('c.pdf')] });
    connectivity.set(false);
    api.failNext('presignUpload', new ApiError('network', 0, 'Failed to fetch'));
    await flow.send({ type: 'upload' });
    expect(statuses()).toEqual(['waiting', 'waiting', 'waiting']);
    expect(platform.alerts).toEqual([]);
    // Offline: no timer tries in vain.
    clock.advance(60_000);
    await settle();
    expect(stored()).toEqual([]);

    connectivity.set(true);
    await until(() => expect(flow.getState().queue).toEqual([]));
    expect(stored()).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
    expect(api.callNames().filter((n) => n === 'presignUpload')).toHaveLength(4);
  });

  it('online but out of reach (the server, not the device): waiting files try again after 3 s, 5 s, 10 s', async () => {
    const { api, flow, clock, stored, settle } = await setup();
    await flow.send({ type: 'add', files: [pdf('a.pdf')] });
    const unreachable = new ApiError('network', 0, 'Failed to fetch');
    api.failNext('presignUpload', unreachable);
    api.failNext('presignUpload', unreachable);
    await flow.send({ type: 'upload' });
    clock.advance(2_999);
    await settle();
    expect(api.callNames().filter((n) => n === 'presignUpload')).toHaveLength(1);
    clock.advance(1);
    await until(() => expect(flow.getState().status).toBe('idle'));
    expect(api.callNames().filter((n) => n === 'presignUpload')).toHaveLength(2);
    expect(flow.getState().queue[0]?.progress.status).toBe('waiting');
    clock.advance(5_000);
    await until(() => expect(stored()).toEqual(['a.pdf']));
  });
});

describe('upload queue: server errors', () => {
  it('alerts once, then sends the file again by itself after 0 s, then 3 s, without more alerts', async () => {
    const { api, flow, platform, clock, stored, settle } = await setup();
    await flow.send({ type: 'add', files: [pdf('a.pdf'), pdf('b.pdf')] });
    api.failNext('presignUpload', new ApiError('http', 503, 'Service temporarily unavailable, try again'));
    api.failUpload('a.pdf', 503, 'busy');
    await flow.send({ type: 'upload' });
    // a.pdf's presign failed; b.pdf was stored.
    expect(stored()).toEqual(['b.pdf']);
    expect(platform.alerts).toEqual(['Service temporarily unavailable, try again']);
    expect(flow.getState().queue[0]?.progress).toMatchObject({
      status: 'failed',
      kind: 'http',
      httpStatus: 503,
      retryable: true,
      retryAt: clock.now(),
    });
    clock.advance(0);
    // The PUT failed this time: the next pause is 3 s.
    await until(() =>
      expect(flow.getState().queue[0]?.progress).toMatchObject({ error: 'Upload failed: 503 busy' }),
    );
    expect(flow.getState().queue[0]?.progress).toMatchObject({
      error: 'Upload failed: 503 busy',
      httpStatus: 503,
      retryAt: clock.now() + 3_000,
    });
    clock.advance(2_999);
    await settle();
    expect(stored()).toEqual(['b.pdf']);
    clock.advance(1);
    await until(() => expect(flow.getState().queue).toEqual([]));
    expect(stored()).toEqual(['b.pdf', 'a.pdf']);
    expect(platform.alerts).toHaveLength(1);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('a refusal retrying cannot fix (415, the API’s 403) keeps its message and sets no timer', async () => {
    const { api, flow, clock } = await setup();
    await flow.send({ type: 'add', files: [pdf('fake.pdf')] });
    api.failUpload('fake.pdf', 415, 'This file is not really a PDF.');
    await flow.send({ type: 'upload' });
    await flow.send({ type: 'add', files: [pdf('theirs.pdf')] });
    api.failNext('presignUpload', new ApiError('http', 403, 'This client belongs to another volunteer.'));
    await flow.send({ type: 'upload' });
    expect(flow.getState().queue.map((q) => [q.file.name, q.progress])).toEqual([
      [
        'fake.pdf',
        {
          status: 'failed',
          error: 'Upload failed: 415 This file is not really a PDF.',
          retryable: false,
          kind: 'http',
          httpStatus: 415,
          code: 'unsupported_type',
        },
      ],
      [
        'theirs.pdf',
        {
          status: 'failed',
          error: 'This client belongs to another volunteer.',
          retryable: false,
          kind: 'http',
          httpStatus: 403,
          code: 'forbidden',
        },
      ],
    ]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('Upload asked during an automatic round (Resume, say) sends the queued files right after it', async () => {
    const { api, flow, clock, stored } = await setup();
    await flow.send({ type: 'add', files: [pdf('a.pdf')] });
    api.failNext('presignUpload', new ApiError('http', 500, 'Server error'));
    await flow.send({ type: 'upload' });
    const held = api.hold('presignUpload');
    clock.advance(0); // the automatic round starts and waits on the server
    expect(flow.getState().status).toBe('uploading');
    flow.addFiles([pdf('restored.pdf')]);
    await flow.send({ type: 'upload' });
    held.release();
    await until(() => expect(stored().sort()).toEqual(['a.pdf', 'restored.pdf']));
    await until(() => expect(flow.getState().queue).toEqual([]));
  });

  it('a retry policy given as an option decides what goes again by itself, and when', async () => {
    const conflictsPass = {
      shouldRetry: (error: unknown) =>
        error instanceof ApiError && error.status === 409
          ? ('auto' as const)
          : defaultRetryPolicy.shouldRetry(error),
      delayMs: () => 1_000,
    };
    const { api, flow, clock, stored, settle } = await setup({ retry: conflictsPass });
    await flow.send({ type: 'add', files: [pdf('a.pdf')] });
    api.failNext('presignUpload', new ApiError('http', 409, 'Busy elsewhere'));
    await flow.send({ type: 'upload' });
    expect(flow.getState().queue[0]?.progress).toMatchObject({
      status: 'failed',
      retryAt: clock.now() + 1_000,
    });
    clock.advance(999);
    await settle();
    expect(stored()).toEqual([]);
    clock.advance(1);
    await until(() => expect(stored()).toEqual(['a.pdf']));
  });

  it('dispose stops the timers and the connection watch', async () => {
    const { api, flow, clock, connectivity, settle } = await setup();
    await flow.send({ type: 'add', files: [pdf('a.pdf')] });
    api.failNext('presignUpload', new ApiError('http', 500, 'Server error'));
    await flow.send({ type: 'upload' });
    const spy = vi.fn();
    flow.subscribe(spy);
    expect(connectivity.listeners()).toBe(1);
    flow.dispose();
    expect(clock.pendingTimers()).toBe(0);
    expect(connectivity.listeners()).toBe(0);
    connectivity.set(false);
    connectivity.set(true);
    await settle();
    expect(spy).not.toHaveBeenCalled();
  });
});
