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
import type { UploadFlowOptions } from './upload.js';
import type { ConvertImage } from './upload-state.js';

const W2 = 'W-2';

interface SetupOptions {
  storage?: Record<string, string>;
  convert?: ConvertImage;
  docType?: string;
  extra?: Pick<UploadFlowOptions, 'inspect' | 'uploadedNames' | 'maxUploadBytes'>;
}

function setup(options: SetupOptions = {}) {
  const api = createFakeApi();
  api.addUser({ email: 'vera@example.org' });
  const client = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  const storage = createMemoryStorage(options.storage);
  const platform = createRecordingDialogs();
  const converted: string[] = [];
  const convert: ConvertImage =
    options.convert ??
    (async (file, { rotate = 0 } = {}) => {
      converted.push(rotate ? `${file.name} ${rotate}` : file.name);
      return createTestFile(file.name.replace(/\.\w+$/, '.pdf'), '%PDF-1.7', 'application/pdf');
    });
  let refreshes = 0;
  const flow = createUploadFlow({
    api,
    putFile: api.putFile,
    convert,
    ...options.extra,
    storage,
    platform,
    target: { clientId: client.clientId, docType: options.docType ?? W2 },
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
      files: [
        createTestFile('w2.jpg', 'jpeg', 'image/jpeg'),
        createTestFile('scan.pdf', '%PDF', 'application/pdf'),
      ],
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

  it('hands HEIC to the converter; one that comes back unchanged is uploaded as is, and says so', async () => {
    const { flow } = setup({ convert: async (file) => file });
    await flow.send({
      type: 'add',
      files: [
        createTestFile('IMG_1.HEIC', 'heic', 'image/heic'),
        createTestFile('w2.jpg', 'jpeg', 'image/jpeg'),
      ],
    });
    const [heic, jpeg] = flow.getState().queue;
    expect(heic?.file.name).toBe('IMG_1.HEIC');
    expect(heic?.notice).toBe('This HEIC photo is uploaded as is; this browser cannot convert it.');
    // A JPEG the converter could not convert is not HEIC: nothing to say.
    expect(jpeg?.notice).toBeUndefined();
  });

  it('a HEIC photo the converter turns into a PDF carries no note', async () => {
    const { flow, converted } = setup();
    await flow.send({ type: 'add', files: [createTestFile('IMG_1.HEIC', 'heic', 'image/heic')] });
    expect(converted).toEqual(['IMG_1.HEIC']);
    expect(flow.getState().queue[0]).toMatchObject({ file: { name: 'IMG_1.pdf' }, notice: undefined });
  });

  it('shows quality warnings on queued photos; Keep anyway clears them and the file still uploads', async () => {
    const inspected: string[] = [];
    const { flow, stored } = setup({
      extra: {
        inspect: async (file) => {
          inspected.push(file.name);
          return file.name.startsWith('dark') ? ['tooDark'] : [];
        },
      },
    });
    await flow.send({
      type: 'add',
      files: [
        createTestFile('dark.jpg', 'jpeg', 'image/jpeg'),
        createTestFile('fine.png', 'png', 'image/png'),
        createTestFile('scan.pdf', '%PDF', 'application/pdf'),
      ],
    });
    // Photos only, checked on the photo itself (not the PDF made of it).
    expect(inspected).toEqual(['dark.jpg', 'fine.png']);
    expect(flow.getState().queue.map((q) => q.warnings)).toEqual([['tooDark'], [], []]);

    const dark = flow.getState().queue[0]?.id ?? '';
    await flow.send({ type: 'keep', id: dark });
    expect(flow.getState().queue[0]?.warnings).toEqual([]);
    await flow.send({ type: 'upload' });
    expect(stored()).toEqual(['dark.pdf', 'fine.pdf', 'scan.pdf']);
  });

  it('checks photos with the toggle off too; a check that cannot read the photo warns of nothing', async () => {
    const { flow } = setup({
      storage: { [STORAGE_KEYS.convertToPdf]: '0' },
      extra: {
        inspect: async (file) => {
          if (file.name.endsWith('.heic')) throw new Error('cannot decode');
          return ['blurry'];
        },
      },
    });
    await flow.send({
      type: 'add',
      files: [createTestFile('a.jpg', 'jpeg', 'image/jpeg'), createTestFile('b.heic', 'heic', 'image/heic')],
    });
    await Promise.resolve();
    expect(flow.getState().queue.map((q) => [q.file.name, q.warnings, q.rotate])).toEqual([
      ['a.jpg', ['blurry'], null],
      ['b.heic', [], null],
    ]);
  });

  it('turns a converted photo in quarter steps, converting the original again each time', async () => {
    const { flow, converted } = setup();
    await flow.send({
      type: 'add',
      files: [
        createTestFile('side.jpg', 'jpeg', 'image/jpeg'),
        createTestFile('scan.pdf', '%PDF', 'application/pdf'),
      ],
    });
    const [photo, pdf] = flow.getState().queue;
    await flow.send({ type: 'rotate', id: photo?.id ?? '', by: 90 });
    await flow.send({ type: 'rotate', id: photo?.id ?? '', by: -90 });
    await flow.send({ type: 'rotate', id: photo?.id ?? '', by: -90 });
    // A PDF is not converted, so it cannot be turned.
    await flow.send({ type: 'rotate', id: pdf?.id ?? '', by: 90 });
    expect(converted).toEqual(['side.jpg', 'side.jpg 90', 'side.jpg', 'side.jpg 270']);
    expect(flow.getState().queue.map((q) => [q.file.name, q.rotate, q.progress.status])).toEqual([
      ['side.pdf', 270, 'queued'],
      ['scan.pdf', null, 'queued'],
    ]);
  });

  it('a turn asked while the previous one converts wins; the older result is dropped', async () => {
    const results: Array<() => void> = [];
    const { flow } = setup({
      convert: (file, { rotate = 0 } = {}) =>
        new Promise((resolve) =>
          results.push(() =>
            resolve(createTestFile(`${file.name}-${rotate}.pdf`, '%PDF', 'application/pdf')),
          ),
        ),
    });
    void flow.send({ type: 'add', files: [createTestFile('p.jpg', 'jpeg', 'image/jpeg')] });
    const id = flow.getState().queue[0]?.id ?? '';
    const turning = flow.send({ type: 'rotate', id, by: 90 });
    await Promise.resolve();
    results.shift()?.();
    await new Promise((r) => setTimeout(r, 0));
    results.shift()?.();
    await turning;
    expect(flow.getState().queue[0]).toMatchObject({ file: { name: 'p.jpg-90.pdf' }, rotate: 90 });
    expect(results).toEqual([]);
  });

  it('Retake replaces a queued file in its place and under its name, checked and converted afresh', async () => {
    const { flow, converted } = setup({
      extra: {
        inspect: async (file) =>
          (await new Response(await file.arrayBuffer()).text()) === 'jpeg' ? ['blurry'] : [],
      },
    });
    await flow.send({
      type: 'add',
      files: [
        createTestFile('first.pdf', '%PDF', 'application/pdf'),
        createTestFile('blurred.jpg', 'jpeg', 'image/jpeg'),
      ],
    });
    const blurred = flow.getState().queue[1];
    await flow.send({ type: 'rotate', id: blurred?.id ?? '', by: 90 });
    await new Promise((resolve) => setTimeout(resolve, 0)); // the check runs beside the conversion
    expect(flow.getState().queue[1]?.warnings).toEqual(['blurry']);

    await flow.send({
      type: 'replace',
      id: blurred?.id ?? '',
      file: createTestFile('image.JPG', 'sharp', 'image/jpeg'),
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(converted.at(-1)).toBe('blurred.jpg');
    expect(flow.getState().queue.map((q) => [q.id, q.file.name, q.rotate, q.warnings])).toEqual([
      [flow.getState().queue[0]?.id, 'first.pdf', null, []],
      [blurred?.id, 'blurred.pdf', 0, []],
    ]);
    expect(await flow.getState().queue[1]?.original.arrayBuffer()).toEqual(
      new TextEncoder().encode('sharp').buffer,
    );
  });

  it('uploads one by one with progress, then clears the queue and refreshes the list', async () => {
    const { api, flow, stored, refreshes } = setup();
    await flow.send({ type: 'setConvertToPdf', enabled: false });
    await flow.send({
      type: 'add',
      files: [
        createTestFile('one.pdf', '1111', 'application/pdf'),
        createTestFile('two.pdf', '22', 'application/pdf'),
      ],
    });
    const path = recordStatuses(flow);

    await flow.send({ type: 'upload' });

    expect(stored()).toEqual(['one.pdf', 'two.pdf']);
    expect(api.callNames().filter((n) => n === 'presignUpload')).toHaveLength(2);
    expect(flow.getState().queue).toEqual([]);
    expect(refreshes()).toBe(1);
    expect(path.statuses).toEqual(['uploading', 'refreshing', 'idle']);
    // What the screen says afterwards: how many went up; the next batch starts from nothing.
    expect(flow.getState().lastUploaded).toBe(2);
    await flow.send({ type: 'add', files: [createTestFile('three.pdf', '3', 'application/pdf')] });
    const next = flow.send({ type: 'upload' });
    expect(flow.getState().lastUploaded).toBe(0);
    await next;
    expect(flow.getState().lastUploaded).toBe(1);
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
    const bodies = api.calls
      .filter((c) => c.name === 'presignUpload')
      .map((c) => (c.args as { body: unknown }).body);
    const sha256 = expect.stringMatching(/^[0-9a-f]{64}$/);
    expect(bodies).toEqual([
      { docType: W2, filename: 'photo.pdf', contentType: 'application/pdf', size: 8, sha256 },
      { docType: W2, filename: 'notes.txt', contentType: 'image/jpeg', size: 1, sha256 },
    ]);
  });

  it('completes each upload; a refused complete keeps the file queued with the server’s message', async () => {
    const { api, flow, platform } = setup();
    await flow.send({
      type: 'add',
      files: ['a.pdf', 'b.pdf'].map((n) => createTestFile(n, n, 'application/pdf')),
    });
    api.failNext('completeUpload', new ApiError('http', 415, 'This file is not really a PDF.'));
    await flow.send({ type: 'upload' });
    expect(api.callNames().filter((n) => n !== 'listDocs')).toEqual([
      'presignUpload',
      'completeUpload',
      'presignUpload',
      'completeUpload',
    ]);
    expect(flow.getState().queue).toEqual([
      // A type the server refuses stays refused: no Retry for it.
      expect.objectContaining({
        progress: {
          status: 'failed',
          error: 'This file is not really a PDF.',
          retryable: false,
          kind: 'http',
          httpStatus: 415,
          code: 'unsupported_type',
        },
      }),
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
      // The store's 403 is a stale signature: a retry gets a new URL.
      expect.objectContaining({
        progress: {
          status: 'failed',
          error: 'Upload failed: 403 SignatureDoesNotMatch',
          retryable: true,
          kind: 'http',
          httpStatus: 403,
          code: 'forbidden',
        },
      }),
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
    expect(flow.getState().queue[0]?.progress).toMatchObject({
      status: 'failed',
      error: 'Server error',
      retryable: true,
      kind: 'http',
    });
    expect(platform.alerts).toEqual(['Server error']);
  });

  it('several failures are reported in one alert, each with its file name', async () => {
    const { api, flow, platform } = setup();
    await flow.send({
      type: 'add',
      files: ['a.pdf', 'b.pdf'].map((n) => createTestFile(n, n, 'application/pdf')),
    });
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
        new Promise(
          (resolve) => (finish = () => resolve(createTestFile('slow.pdf', '%PDF', 'application/pdf'))),
        ),
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
    await flow.send({
      type: 'add',
      files: ['a.pdf', 'b.pdf'].map((n) => createTestFile(n, n, 'application/pdf')),
    });
    await flow.send({ type: 'remove', id: flow.getState().queue[0]!.id });
    await flow.send({ type: 'upload' });
    expect(stored()).toEqual(['b.pdf']);
  });

  it('names camera photos after the category and the next number; picked files keep their names', async () => {
    const { flow } = setup({
      docType: 'Michigan/Locality Intake',
      extra: { uploadedNames: () => ['Michigan-Locality Intake 1.pdf', 'lease.pdf'] },
    });
    await flow.send({ type: 'add', files: [createTestFile('image.jpg', 'x', 'image/jpeg')], camera: true });
    await flow.send({ type: 'add', files: [createTestFile('image.jpg', 'y', 'image/jpeg')], camera: true });
    await flow.send({ type: 'add', files: [createTestFile('image.jpg', 'z', 'image/jpeg')] });
    expect(names(flow.getState().queue)).toEqual([
      'Michigan-Locality Intake 2.pdf',
      'Michigan-Locality Intake 3.pdf',
      'image.pdf',
    ]);
    expect(flow.getState().queue[0]?.original.name).toBe('Michigan-Locality Intake 2.jpg');
  });

  it('refuses a file over the server limit at once, without a request and without Retry', async () => {
    const { api, flow } = setup({
      convert: async (file) =>
        file.name === 'huge-photo.jpg' ? createTestFile('huge-photo.pdf', '%PDF', 'application/pdf') : file,
      extra: { maxUploadBytes: () => 10 },
    });
    await flow.send({
      type: 'add',
      files: [
        createTestFile('big.pdf', '%PDF-1.7 eleven+', 'application/pdf'),
        // A large photo is judged by the PDF made of it, which is small.
        createTestFile('huge-photo.jpg', 'x'.repeat(50), 'image/jpeg'),
        createTestFile('also-big.jpg', 'x'.repeat(50), 'image/jpeg'),
      ],
    });
    expect(flow.getState().queue.map((q) => [q.file.name, q.progress])).toEqual([
      [
        'big.pdf',
        {
          status: 'failed',
          error: 'This file is larger than the 10 B limit.',
          retryable: false,
          kind: 'other',
          httpStatus: 413,
          code: 'too_large',
        },
      ],
      ['huge-photo.pdf', { status: 'queued' }],
      [
        'also-big.jpg',
        {
          status: 'failed',
          error: 'This file is larger than the 10 B limit.',
          retryable: false,
          kind: 'other',
          httpStatus: 413,
          code: 'too_large',
        },
      ],
    ]);
    const big = flow.getState().queue[0]!.id;
    await flow.send({ type: 'retry', id: big });
    await flow.send({ type: 'upload' });
    expect(api.callNames().filter((n) => n === 'presignUpload')).toHaveLength(1);
    expect(names(flow.getState().queue)).toEqual(['big.pdf', 'also-big.jpg']);
  });

  it('no Retry when the API refuses for good (403); a network failure waits for the connection', async () => {
    const { api, flow } = setup();
    await flow.send({ type: 'add', files: [createTestFile('a.pdf', 'a', 'application/pdf')] });
    api.failNext('presignUpload', new ApiError('http', 403, 'This client belongs to another volunteer.'));
    await flow.send({ type: 'upload' });
    expect(flow.getState().queue[0]?.progress).toMatchObject({ retryable: false });
    await flow.send({ type: 'remove', id: flow.getState().queue[0]!.id });
    await flow.send({ type: 'add', files: [createTestFile('b.pdf', 'b', 'application/pdf')] });
    api.failNext('presignUpload', new ApiError('network', 0, 'Failed to fetch'));
    await flow.send({ type: 'upload' });
    expect(flow.getState().queue[0]?.progress).toEqual({ status: 'waiting' });
    await flow.send({ type: 'retry', id: flow.getState().queue[0]!.id });
    expect(flow.getState().queue).toEqual([]);
  });
});
