import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import type { FileLike } from '../../ports.js';
import {
  createFakeApi,
  createMemoryStorage,
  createRecordingDialogs,
  createTestFile,
  recordStatuses,
} from '../../testing/index.js';
import { STORAGE_KEYS } from '../storage-keys.js';
import { createUploadFlow } from './upload.js';
import type { ConvertImage } from './upload.js';

const W2 = 'W-2';

function setup(options: { storage?: Record<string, string>; convert?: ConvertImage } = {}) {
  const api = createFakeApi();
  api.addUser({ email: 'vera@example.org' });
  const client = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  const storage = createMemoryStorage(options.storage);
  const platform = createRecordingDialogs();
  const converted: string[] = [];
  const convert: ConvertImage =
    options.convert ??
    (async (file) => {
      converted.push(file.name);
      return createTestFile(file.name.replace(/\.\w+$/, '.pdf'), '%PDF-1.7', 'application/pdf');
    });
  let refreshes = 0;
  const flow = createUploadFlow({
    api,
    putFile: api.putFile,
    convert,
    storage,
    platform,
    target: { clientId: client.clientId, docType: W2 },
    refresh: () => void (refreshes += 1),
  });
  const stored = () => [...api.world.docs.values()].map((d) => d.item.filename);
  return { api, storage, platform, flow, converted, stored, refreshes: () => refreshes };
}

const names = (queue: readonly { file: FileLike }[]) => queue.map((q) => q.file.name);

describe('upload queue', () => {
  it('queues chosen files, converting images to PDF because the toggle is on by default', async () => {
    const { flow, converted } = setup();
    expect(flow.getState().convertToPdf).toBe(true);

    await flow.send({
      type: 'add',
      files: [createTestFile('w2.jpg', 'jpeg', 'image/jpeg'), createTestFile('scan.pdf', '%PDF', 'application/pdf')],
    });

    expect(converted).toEqual(['w2.jpg']);
    expect(names(flow.getState().queue)).toEqual(['w2.pdf', 'scan.pdf']);
    expect(flow.getState().queue.map((q) => q.progress.status)).toEqual(['queued', 'queued']);
  });

  it('shows the converting state of each image while it converts', async () => {
    let finish!: () => void;
    const { flow } = setup({
      convert: (file) => new Promise((resolve) => (finish = () => resolve(file))),
    });
    const adding = flow.send({ type: 'add', files: [createTestFile('a.png', 'png', 'image/png')] });
    await Promise.resolve();
    expect(flow.getState().status).toBe('converting');
    expect(flow.getState().queue[0]?.progress).toEqual({ status: 'converting' });
    finish();
    await adding;
    expect(flow.getState().status).toBe('idle');
    expect(flow.getState().queue[0]?.progress).toEqual({ status: 'queued' });
  });

  it('leaves images alone when the toggle is off, and remembers the choice as 0', async () => {
    const { flow, converted, storage } = setup();
    await flow.send({ type: 'setConvertToPdf', enabled: false });
    expect(storage.getItem(STORAGE_KEYS.convertToPdf)).toBe('0');

    await flow.send({ type: 'add', files: [createTestFile('w2.jpg', 'jpeg', 'image/jpeg')] });
    expect(converted).toEqual([]);
    expect(names(flow.getState().queue)).toEqual(['w2.jpg']);
  });

  it('reads a stored 0 as off', () => {
    const { flow } = setup({ storage: { [STORAGE_KEYS.convertToPdf]: '0' } });
    expect(flow.getState().convertToPdf).toBe(false);
  });

  it('never converts HEIC', async () => {
    const { flow, converted } = setup();
    await flow.send({ type: 'add', files: [createTestFile('IMG_1.HEIC', 'heic', 'image/heic')] });
    expect(converted).toEqual([]);
  });

  it('uploads one by one with progress, then clears the queue and refreshes the list', async () => {
    const { api, flow, stored, refreshes } = setup();
    await flow.send({ type: 'setConvertToPdf', enabled: false });
    await flow.send({
      type: 'add',
      files: [createTestFile('one.pdf', '1111', 'application/pdf'), createTestFile('two.pdf', '22', 'application/pdf')],
    });
    const path = recordStatuses(flow);

    await flow.send({ type: 'upload' });

    expect(stored()).toEqual(['one.pdf', 'two.pdf']);
    expect(api.callNames().filter((n) => n === 'presignUpload')).toHaveLength(2);
    expect(flow.getState().queue).toEqual([]);
    expect(refreshes()).toBe(1);
    expect(path.statuses).toEqual(['uploading', 'refreshing', 'idle']);
    // One file at a time: the second never starts before the first is done.
    const progress = path.states.map((s) => s.queue.map((q) => q.progress.status).join(','));
    expect(progress).toContain('uploading,queued');
    expect(progress).toContain('done,uploading');
    expect(progress).not.toContain('uploading,uploading');
    expect(path.states.flatMap((s) => s.queue.map((q) => q.progress))).toContainEqual({
      status: 'uploading',
      loaded: 2,
      total: 4,
    });
  });

  it('sends the upload content type and the converted name to presign', async () => {
    const { api, flow } = setup();
    await flow.send({
      type: 'add',
      files: [createTestFile('photo.jpg', 'x', 'image/jpeg'), createTestFile('notes.txt', 'x', '')],
    });
    await flow.send({ type: 'upload' });
    const bodies = api.calls.filter((c) => c.name === 'presignUpload').map((c) => (c.args as { body: unknown }).body);
    const sha256 = expect.stringMatching(/^[0-9a-f]{64}$/);
    expect(bodies).toEqual([
      { docType: W2, filename: 'photo.pdf', contentType: 'application/pdf', size: 8, sha256 },
      { docType: W2, filename: 'notes.txt', contentType: 'image/jpeg', size: 1, sha256 },
    ]);
  });

  it('completes each upload; a refused complete keeps the file queued with the server’s message', async () => {
    const { api, flow, platform } = setup();
    await flow.send({ type: 'add', files: ['a.pdf', 'b.pdf'].map((n) => createTestFile(n, n, 'application/pdf')) });
    api.failNext('completeUpload', new ApiError('http', 415, 'This file is not really a PDF.'));
    await flow.send({ type: 'upload' });
    expect(api.callNames().filter((n) => n !== 'listDocs')).toEqual([
      'presignUpload',
      'completeUpload',
      'presignUpload',
      'completeUpload',
    ]);
    expect(flow.getState().queue).toEqual([
      expect.objectContaining({ progress: { status: 'failed', error: 'This file is not really a PDF.' } }),
    ]);
    expect(names(flow.getState().queue)).toEqual(['a.pdf']);
    expect(platform.alerts).toEqual(['This file is not really a PDF.']);
  });

  it('keeps a failing file queued with its error while the others go on, then retries it', async () => {
    const { api, flow, platform, stored, refreshes } = setup();
    await flow.send({ type: 'setConvertToPdf', enabled: false });
    await flow.send({
      type: 'add',
      files: ['a.pdf', 'b.pdf', 'c.pdf'].map((n) => createTestFile(n, n, 'application/pdf')),
    });
    api.failUpload('b.pdf', 403, 'SignatureDoesNotMatch');

    await flow.send({ type: 'upload' });

    expect(stored()).toEqual(['a.pdf', 'c.pdf']);
    expect(flow.getState().queue).toEqual([
      expect.objectContaining({ progress: { status: 'failed', error: 'Upload failed: 403 SignatureDoesNotMatch' } }),
    ]);
    expect(platform.alerts).toEqual(['Upload failed: 403 SignatureDoesNotMatch']);
    expect(refreshes()).toBe(1);

    await flow.send({ type: 'retry', id: flow.getState().queue[0]!.id });
    expect(stored()).toEqual(['a.pdf', 'c.pdf', 'b.pdf']);
    expect(flow.getState().queue).toEqual([]);
    expect(refreshes()).toBe(2);
  });

  it('a failed presign keeps the file too', async () => {
    const { api, flow, platform } = setup();
    await flow.send({ type: 'add', files: [createTestFile('a.pdf', 'a', 'application/pdf')] });
    api.failNext('presignUpload');
    await flow.send({ type: 'upload' });
    expect(flow.getState().queue[0]?.progress).toEqual({ status: 'failed', error: 'Server error' });
    expect(platform.alerts).toEqual(['Server error']);
  });

  it('several failures are reported in one alert, each with its file name', async () => {
    const { api, flow, platform } = setup();
    await flow.send({ type: 'add', files: ['a.pdf', 'b.pdf'].map((n) => createTestFile(n, n, 'application/pdf')) });
    api.failUpload('a.pdf', 500, 'boom');
    api.failUpload('b.pdf', 413, 'too big');
    await flow.send({ type: 'upload' });
    expect(platform.alerts).toEqual(['a.pdf: Upload failed: 500 boom\nb.pdf: Upload failed: 413 too big']);
    expect(flow.getState().queue).toHaveLength(2);
  });

  it('Upload waits for conversions still running', async () => {
    let finish!: () => void;
    const { flow, stored } = setup({
      convert: () =>
        new Promise((resolve) => (finish = () => resolve(createTestFile('slow.pdf', '%PDF', 'application/pdf')))),
    });
    void flow.send({ type: 'add', files: [createTestFile('slow.jpg', 'x', 'image/jpeg')] });
    const uploading = flow.send({ type: 'upload' });
    await Promise.resolve();
    expect(stored()).toEqual([]);
    finish();
    await uploading;
    expect(stored()).toEqual(['slow.pdf']);
  });

  it('a removed file is not uploaded', async () => {
    const { flow, stored } = setup();
    await flow.send({ type: 'add', files: ['a.pdf', 'b.pdf'].map((n) => createTestFile(n, n, 'application/pdf')) });
    await flow.send({ type: 'remove', id: flow.getState().queue[0]!.id });
    await flow.send({ type: 'upload' });
    expect(stored()).toEqual(['b.pdf']);
  });
});
