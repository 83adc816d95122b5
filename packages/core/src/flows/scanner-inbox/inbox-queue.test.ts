import { describe, expect, it } from 'vitest';
import {
  createFakeApi,
  createMemoryStorage,
  createRecordingDialogs,
  createTestFile,
} from '../../testing/index.js';
import type { FileLike } from '../../ports.js';
import { createUploadFlow } from '../upload/upload.js';
import type { InboxScanView, ScannerInboxSnapshot } from './inbox-snapshot.js';
import type { ScannerInbox } from './scanner-inbox.js';
import { attemptTarget, canAddScan, createInboxQueue } from './inbox-queue.js';

const W2 = 'W-2';

/** An in-memory scanner inbox that behaves like the desktop's: marks change the scan, uploaded removes it. */
function createFakeInbox(names: string[], extra: Record<string, Partial<InboxScanView>> = {}) {
  let snapshot: ScannerInboxSnapshot = {
    folder: '/scans',
    scans: names.map((name, i) => ({
      id: `scan-${i + 1}`,
      name,
      relPath: name,
      size: 10 + i,
      mtimeMs: 1_700_000_000_000 + i,
      status: 'waiting',
      ...extra[`scan-${i + 1}`],
    })),
  };
  const listeners = new Set<(s: ScannerInboxSnapshot) => void>();
  const marks: string[] = [];
  const unreadable = new Set<string>();
  const update = (id: string, change: (scan: InboxScanView) => InboxScanView | null) => {
    const scan = snapshot.scans.find((s) => s.id === id);
    if (!scan) throw new Error('This scan is no longer in the inbox.');
    const next = change(scan);
    snapshot = {
      ...snapshot,
      scans: next
        ? snapshot.scans.map((s) => (s.id === id ? next : s))
        : snapshot.scans.filter((s) => s.id !== id),
    };
    for (const listener of listeners) listener(snapshot);
  };
  const inbox: ScannerInbox = {
    getInbox: async () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async readScan(id) {
      const scan = snapshot.scans.find((s) => s.id === id);
      if (!scan || unreadable.has(id)) throw new Error('This scan is no longer in the inbox.');
      const type = scan.name.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg';
      return createTestFile(scan.name, `bytes of ${scan.name}`, type);
    },
    thumbnail: async () => null,
    async markUploading(id, target) {
      marks.push(`uploading ${id} ${target}`);
      update(id, (s) => ({ ...s, status: 'uploading', error: undefined }));
    },
    async markUploaded(id) {
      marks.push(`uploaded ${id}`);
      update(id, () => null);
    },
    async markFailed(id, error) {
      marks.push(`failed ${id} ${error}`);
      update(id, (s) => ({ ...s, status: 'failed', error }));
    },
  };
  return { inbox, marks, unreadable, snapshot: () => snapshot };
}

async function setup(
  names: string[],
  extra: Record<string, Partial<InboxScanView>> = {},
  combine: (files: readonly FileLike[]) => Promise<FileLike> = async (files) =>
    createTestFile('Scan 2026-02-03 14-05.pdf', files.map((f) => f.name).join('+'), 'application/pdf'),
) {
  const api = createFakeApi();
  api.addUser({ email: 'vera@example.org' });
  const client = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  const target = { clientId: client.clientId, docType: W2 };
  let refreshes = 0;
  const upload = createUploadFlow({
    api,
    putFile: api.putFile,
    convert: async (file) => createTestFile(file.name.replace(/\.\w+$/, '.pdf'), '%PDF', 'application/pdf'),
    storage: createMemoryStorage(),
    platform: createRecordingDialogs(),
    target,
    refresh: () => void (refreshes += 1),
  });
  const fake = createFakeInbox(names, extra);
  const queue = createInboxQueue({ inbox: fake.inbox, upload, target, combine });
  // The panel on screen: it listens, so the queue follows the inbox.
  const stopListening = queue.subscribe(() => undefined);
  await Promise.resolve();
  await Promise.resolve();
  const stored = () => [...api.world.docs.values()].map((d) => d.item.filename);
  return { api, upload, queue, target, stored, stopListening, refreshes: () => refreshes, ...fake };
}

const queueNames = (upload: { getState(): { queue: readonly { file: FileLike }[] } }) =>
  upload.getState().queue.map((q) => q.file.name);

describe('scanner inbox → upload queue', () => {
  it('shows what waits in the inbox', async () => {
    const { queue } = await setup(['w2.pdf', 'id.jpg']);
    expect(queue.getState().folder).toBe('/scans');
    expect(queue.getState().scans.map((s) => s.name)).toEqual(['w2.pdf', 'id.jpg']);
  });

  it('adds chosen scans to the queue, converted like any file, and links each to its queue item', async () => {
    const { queue, upload, marks } = await setup(['w2.pdf', 'id.jpg', 'other.pdf']);
    await queue.send({ type: 'add', ids: ['scan-1', 'scan-2'] });
    expect(queueNames(upload)).toEqual(['w2.pdf', 'id.pdf']);
    const ids = upload.getState().queue.map((q) => q.id);
    expect(queue.getState().queued).toEqual({ 'scan-1': ids[0], 'scan-2': ids[1] });
    // Queued is not uploading: the inbox is told only when the upload starts.
    expect(marks).toEqual([]);
    // A queued scan cannot be added twice.
    expect(canAddScan(queue.getState(), queue.getState().scans[0]!)).toBe(false);
    await queue.send({ type: 'add', ids: ['scan-1'] });
    expect(queueNames(upload)).toEqual(['w2.pdf', 'id.pdf']);
  });

  it('marks each scan uploaded only once the upload flow reports it done; the inbox then drops it', async () => {
    const { queue, upload, marks, stored, target, snapshot } = await setup(['w2.pdf', 'id.jpg']);
    await queue.send({ type: 'addAll' });
    await upload.send({ type: 'upload' });
    await queue.settled();
    expect(stored()).toEqual(['w2.pdf', 'id.pdf']);
    const key = attemptTarget(target);
    expect(marks).toEqual([
      `uploading scan-1 ${key}`,
      'uploaded scan-1',
      `uploading scan-2 ${key}`,
      'uploaded scan-2',
    ]);
    expect(snapshot().scans).toEqual([]);
    expect(queue.getState().scans).toEqual([]);
    expect(queue.getState().queued).toEqual({});
  });

  it('a failed upload marks the scan failed with the error, keeps it in the inbox, and a retry uploads it', async () => {
    const { api, queue, upload, marks, stored, snapshot, target } = await setup(['w2.pdf', 'bad.pdf']);
    await queue.send({ type: 'addAll' });
    api.failUpload('bad.pdf', 403, 'SignatureDoesNotMatch');
    await upload.send({ type: 'upload' });
    await queue.settled();
    expect(stored()).toEqual(['w2.pdf']);
    expect(marks.filter((m) => m.includes('scan-2'))).toEqual([
      `uploading scan-2 ${attemptTarget(target)}`,
      'failed scan-2 Upload failed: 403 SignatureDoesNotMatch',
    ]);
    expect(snapshot().scans).toEqual([
      expect.objectContaining({
        id: 'scan-2',
        status: 'failed',
        error: 'Upload failed: 403 SignatureDoesNotMatch',
      }),
    ]);
    // Still linked to its failed queue item; Retry goes through the same link.
    expect(Object.keys(queue.getState().queued)).toEqual(['scan-2']);
    await upload.send({ type: 'retry', id: upload.getState().queue[0]!.id });
    await queue.settled();
    expect(stored()).toEqual(['w2.pdf', 'bad.pdf']);
    expect(marks.at(-1)).toBe('uploaded scan-2');
    expect(snapshot().scans).toEqual([]);
  });

  it('a scan removed from the queue stays in the inbox, untouched, and can be added again', async () => {
    const { queue, upload, marks, snapshot } = await setup(['w2.pdf']);
    await queue.send({ type: 'addAll' });
    await upload.send({ type: 'remove', id: upload.getState().queue[0]!.id });
    expect(queue.getState().queued).toEqual({});
    expect(marks).toEqual([]);
    expect(snapshot().scans.map((s) => s.status)).toEqual(['waiting']);
    await queue.send({ type: 'add', ids: ['scan-1'] });
    expect(queueNames(upload)).toEqual(['w2.pdf']);
  });

  it('Add all leaves duplicates and scans uploading elsewhere; they can still be chosen one by one', async () => {
    // b.pdf has the same bytes as a scan uploaded before; c.pdf is being uploaded by another window.
    const { queue, upload } = await setup(['a.pdf', 'b.pdf', 'c.pdf'], {
      'scan-2': { duplicateOf: { id: 'old', name: 'b-old.pdf', uploaded: true } },
      'scan-3': { status: 'uploading' },
    });
    await queue.send({ type: 'addAll' });
    expect(queueNames(upload)).toEqual(['a.pdf']);
    await queue.send({ type: 'add', ids: ['scan-2', 'scan-3'] });
    expect(queueNames(upload)).toEqual(['a.pdf', 'b.pdf']);
  });

  it('a scan that cannot be read is reported and the others are still queued', async () => {
    const { queue, upload, unreadable } = await setup(['a.pdf', 'gone.pdf']);
    unreadable.add('scan-2');
    await queue.send({ type: 'addAll' });
    expect(queueNames(upload)).toEqual(['a.pdf']);
    expect(queue.getState().problem).toBe('gone.pdf: This scan is no longer in the inbox.');
    expect(queue.getState().adding).toBe(false);
  });

  it('after the panel is gone, an upload under way still reports to the inbox', async () => {
    const { queue, upload, marks, stopListening } = await setup(['w2.pdf']);
    await queue.send({ type: 'addAll' });
    const uploading = upload.send({ type: 'upload' });
    stopListening();
    await uploading;
    await queue.settled();
    expect(marks.at(-1)).toBe('uploaded scan-1');
  });

  it('combines chosen scans into one queued PDF; each scan leaves the inbox only when it is uploaded', async () => {
    const { queue, upload, marks, stored, snapshot, target, api } = await setup([
      'p1.jpg',
      'p2.pdf',
      'p3.jpg',
      'other.pdf',
    ]);
    await queue.send({ type: 'combine', ids: ['scan-3', 'scan-1', 'scan-2'] });
    expect(queueNames(upload)).toEqual(['Scan 2026-02-03 14-05.pdf']);
    // The pages in the order chosen.
    expect(await new Response(await upload.getState().queue[0]!.file.arrayBuffer()).text()).toBe(
      'p3.jpg+p1.jpg+p2.pdf',
    );
    const item = upload.getState().queue[0]!.id;
    expect(queue.getState().queued).toEqual({ 'scan-1': item, 'scan-2': item, 'scan-3': item });

    // A failed upload keeps every page in the inbox, marked failed.
    api.failUpload('Scan 2026-02-03 14-05.pdf', 500, 'disk full');
    await upload.send({ type: 'upload' });
    await queue.settled();
    expect(snapshot().scans.map((s) => [s.id, s.status])).toEqual([
      ['scan-1', 'failed'],
      ['scan-2', 'failed'],
      ['scan-3', 'failed'],
      ['scan-4', 'waiting'],
    ]);
    await upload.send({ type: 'retry', id: item });
    await queue.settled();
    expect(stored()).toEqual(['Scan 2026-02-03 14-05.pdf']);
    expect(snapshot().scans.map((s) => s.id)).toEqual(['scan-4']);
    const key = attemptTarget(target);
    expect(marks.filter((m) => m.startsWith('uploaded')).sort()).toEqual([
      'uploaded scan-1',
      'uploaded scan-2',
      'uploaded scan-3',
    ]);
    expect(marks.filter((m) => m.startsWith('uploading'))).toHaveLength(6);
    expect(marks).toContain(`uploading scan-2 ${key}`);
  });

  it('does not combine when a page cannot be read or the PDF cannot be made; nothing is queued', async () => {
    const broken = await setup(['a.jpg', 'b.jpg'], {}, async () => {
      throw new Error('Page 2 (b.jpg) could not be converted: bad JPEG');
    });
    await broken.queue.send({ type: 'combine', ids: ['scan-1', 'scan-2'] });
    expect(queueNames(broken.upload)).toEqual([]);
    expect(broken.queue.getState()).toMatchObject({
      problem: 'Page 2 (b.jpg) could not be converted: bad JPEG',
      adding: false,
    });

    const missing = await setup(['a.jpg', 'gone.jpg']);
    missing.unreadable.add('scan-2');
    await missing.queue.send({ type: 'combine', ids: ['scan-1', 'scan-2'] });
    expect(queueNames(missing.upload)).toEqual([]);
    expect(missing.queue.getState().problem).toBe('gone.jpg: This scan is no longer in the inbox.');
    expect(missing.snapshot().scans.map((s) => s.status)).toEqual(['waiting', 'waiting']);
  });
});
