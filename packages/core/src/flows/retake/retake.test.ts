import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { messages } from '../../domain/messages.js';
import {
  createFakeApi,
  createMemoryStorage,
  createRecordingDialogs,
  createTestFile,
  recordStatuses,
} from '../../testing/index.js';
import type { InspectImage } from '../upload/upload-state.js';
import { createRetakeFlow } from './retake.js';

function setup(inspect?: InspectImage) {
  const api = createFakeApi();
  const client = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  const old = api.addDoc(client.clientId, 'W-2', 'blurry.pdf');
  const platform = createRecordingDialogs();
  const events: string[] = [];
  const deleteDocs = api.deleteDocs;
  api.deleteDocs = (args, options) => {
    events.push('delete');
    return deleteDocs(args, options);
  };
  const flow = createRetakeFlow({
    api,
    putFile: async (...args) => {
      events.push('put');
      return api.putFile(...args);
    },
    convert: async (file) => createTestFile(file.name.replace(/\.\w+$/, '.pdf'), '%PDF', 'application/pdf'),
    storage: createMemoryStorage(),
    platform,
    target: { clientId: client.clientId, docType: 'W-2' },
    refresh: () => void events.push('refresh'),
    ...(inspect ? { inspect } : {}),
  });
  const stored = () => [...api.world.docs.values()].map((d) => d.item.filename);
  return { api, old, platform, flow, events, stored };
}

describe('retake', () => {
  it('uploads the replacement, then deletes the old file, then refreshes', async () => {
    const { api, old, flow, events, stored } = setup();
    const path = recordStatuses(flow);
    await flow.send({
      type: 'retake',
      key: old.key,
      filename: 'blurry.pdf',
      file: createTestFile('photo.jpg', 'jpeg', 'image/jpeg'),
    });

    expect(stored()).toEqual(['blurry.pdf']);
    expect(api.calls[0]?.args).toMatchObject({ body: { filename: 'blurry.pdf', replaces: old.key } });
    expect(api.callNames()).toEqual(['presignUpload', 'completeUpload', 'deleteDocs']);
    expect(api.calls[2]?.args).toEqual({ body: { keys: [old.key] } });
    expect(events).toEqual(['put', 'delete', 'refresh']);
    expect(path.statuses).toEqual(['converting', 'uploading', 'deleting', 'refreshing', 'idle']);
  });

  it('a failed upload keeps the old file and alerts with the Retake prefix', async () => {
    const { api, old, flow, platform, events } = setup();
    api.failUpload('blurry.pdf', 500, 'disk full');
    await flow.send({
      type: 'retake',
      key: old.key,
      filename: 'blurry.pdf',
      file: createTestFile('photo.jpg', 'jpeg', 'image/jpeg'),
    });

    expect(api.world.docs.has(old.key)).toBe(true);
    expect(api.callNames()).not.toContain('deleteDocs');
    expect(platform.alerts).toEqual([`${messages.retakeFailedPrefix}Upload failed: 500 disk full`]);
    expect(flow.getState()).toMatchObject({ status: 'failed', key: old.key });
    expect(events).toEqual(['put']);
  });

  it('a refused complete keeps the old file and alerts the server’s message with the Retake prefix', async () => {
    const { api, old, flow, platform, events } = setup();
    api.failNext(
      'completeUpload',
      new ApiError('http', 400, 'The file arrived damaged. Please upload it again.'),
    );
    await flow.send({
      type: 'retake',
      key: old.key,
      filename: 'blurry.pdf',
      file: createTestFile('photo.jpg', 'jpeg', 'image/jpeg'),
    });

    expect(api.callNames()).not.toContain('deleteDocs');
    expect(api.world.docs.has(old.key)).toBe(true);
    expect(platform.alerts).toEqual([
      `${messages.retakeFailedPrefix}The file arrived damaged. Please upload it again.`,
    ]);
    expect(events).toEqual(['put']);
  });

  it('a failed delete after the upload still refreshes, so the new file shows', async () => {
    const { api, old, flow, platform, events } = setup();
    api.failNext('deleteDocs');
    await flow.send({
      type: 'retake',
      key: old.key,
      filename: 'blurry.pdf',
      file: createTestFile('new.pdf', '%PDF', 'application/pdf'),
    });
    expect(platform.alerts).toEqual([`${messages.retakeFailedPrefix}Server error`]);
    expect(events).toEqual(['put', 'delete', 'refresh']);
  });

  it('keeps the name of the file it replaces: a phone camera’s image.jpg becomes the old name as a PDF', async () => {
    const { api, old, flow, stored } = setup();
    await flow.send({
      type: 'retake',
      key: old.key,
      filename: 'Banking Info 1.pdf',
      file: createTestFile('image.jpg', 'jpeg', 'image/jpeg'),
    });
    expect(api.calls[0]?.args).toMatchObject({ body: { filename: 'Banking Info 1.pdf' } });
    expect(stored()).toEqual(['Banking Info 1.pdf']);
  });

  it('a blurry photo replaces nothing until Keep anyway; another pick is checked afresh; Cancel keeps the old file', async () => {
    const verdicts: (readonly ('blurry' | 'tooDark')[])[] = [['blurry'], ['tooDark'], []];
    const { api, old, flow, stored } = setup(() => Promise.resolve(verdicts.shift() ?? []));
    const pick = (name: string) =>
      flow.send({
        type: 'retake',
        key: old.key,
        filename: 'blurry.pdf',
        file: createTestFile(name, 'j', 'image/jpeg'),
      });
    await pick('image.jpg');
    expect(flow.getState()).toMatchObject({ status: 'warned', key: old.key, warnings: ['blurry'] });
    expect(api.callNames()).toEqual([]);
    await flow.send({ type: 'cancel' });
    expect(flow.getState()).toEqual({ status: 'idle' });
    await pick('image.jpg');
    expect(flow.getState()).toMatchObject({ status: 'warned', warnings: ['tooDark'] });
    await flow.send({ type: 'keep' });
    expect(api.callNames()).toEqual(['presignUpload', 'completeUpload', 'deleteDocs']);
    expect(stored()).toEqual(['blurry.pdf']);
    expect(api.world.docs.has(old.key)).toBe(false);
    expect(flow.getState()).toMatchObject({ status: 'idle' });
  });

  it('a PDF is not checked: it replaces at once', async () => {
    const inspected: string[] = [];
    const { old, flow, stored } = setup((file) => (inspected.push(file.name), Promise.resolve(['blurry'])));
    await flow.send({
      type: 'retake',
      key: old.key,
      filename: 'blurry.pdf',
      file: createTestFile('scan.pdf', '%PDF', 'application/pdf'),
    });
    expect(inspected).toEqual([]);
    expect(stored()).toEqual(['blurry.pdf']);
  });
});
