import { describe, expect, it } from 'vitest';
import { messages } from '../../domain/messages.js';
import { createFakeApi, createRecordingDialogs } from '../../testing/index.js';
import { allSelected, createFileListFlow } from './file-list.js';

function setup() {
  const api = createFakeApi();
  const client = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  // Added out of order; 900 < 1000 numerically although "1000" < "900" as text.
  const c = api.addDoc(client.clientId, 'W-2', 'c.pdf', { order: 1000 });
  const a = api.addDoc(client.clientId, 'W-2', 'a.pdf', { order: 20 });
  const b = api.addDoc(client.clientId, 'W-2', 'b.pdf', { order: 900 });
  api.addDoc(client.clientId, '1099-NEC', 'elsewhere.pdf', { order: 1 });
  const platform = createRecordingDialogs();
  const flow = createFileListFlow({ api, platform, target: { clientId: client.clientId, docType: 'W-2' } });
  return { api, platform, flow, a, b, c };
}

const filenames = (items: readonly { filename: string }[]) => items.map((i) => i.filename);

describe('file list', () => {
  it('lists the category’s files ascending by the numeric prefix of the key', async () => {
    const { flow } = setup();
    expect(flow.getState().status).toBe('loading');
    await flow.send({ type: 'refresh' });
    expect(flow.getState().status).toBe('ready');
    expect(filenames(flow.getState().items)).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
  });

  it('select all, clear, toggle; a refresh clears the selection', async () => {
    const { flow, a, b, c } = setup();
    await flow.send({ type: 'refresh' });
    await flow.send({ type: 'toggle', key: c.key });
    await flow.send({ type: 'toggle', key: a.key });
    expect(flow.getState().selected).toEqual([a.key, c.key]);
    await flow.send({ type: 'toggle', key: c.key });
    expect(flow.getState().selected).toEqual([a.key]);

    await flow.send({ type: 'selectAll' });
    expect(flow.getState().selected).toEqual([a.key, b.key, c.key]);
    expect(allSelected(flow.getState())).toBe(true);
    await flow.send({ type: 'clearSelection' });
    expect(flow.getState().selected).toEqual([]);

    await flow.send({ type: 'selectAll' });
    await flow.send({ type: 'refresh' });
    expect(flow.getState().selected).toEqual([]);
  });

  it('Delete Selected asks with the count, deletes, and reloads', async () => {
    const { api, flow, platform, a, c } = setup();
    await flow.send({ type: 'refresh' });
    await flow.send({ type: 'toggle', key: a.key });
    await flow.send({ type: 'toggle', key: c.key });

    await flow.send({ type: 'deleteSelected' });

    expect(platform.confirms).toEqual(['Delete 2 selected file(s)?']);
    expect(api.calls.find((x) => x.name === 'deleteDocs')?.args).toEqual({ body: { keys: [a.key, c.key] } });
    expect(filenames(flow.getState().items)).toEqual(['b.pdf']);
    expect(flow.getState().selected).toEqual([]);
  });

  it('Delete Selected with nothing selected does nothing', async () => {
    const { api, flow, platform } = setup();
    await flow.send({ type: 'refresh' });
    await flow.send({ type: 'deleteSelected' });
    expect(platform.confirms).toEqual([]);
    expect(api.callNames()).not.toContain('deleteDocs');
  });

  it('answering Cancel keeps the files', async () => {
    const { api, flow, platform, a } = setup();
    await flow.send({ type: 'refresh' });
    platform.answerConfirms(false);
    await flow.send({ type: 'deleteFile', key: a.key });
    expect(platform.confirms).toEqual([messages.deleteFileConfirm]);
    expect(api.callNames()).not.toContain('deleteDocs');
    expect(flow.getState().items).toHaveLength(3);
  });

  it('a failed delete alerts "Delete failed" and reloads', async () => {
    const { api, flow, platform, b } = setup();
    await flow.send({ type: 'refresh' });
    api.failNext('deleteDocs');
    await flow.send({ type: 'deleteFile', key: b.key });
    expect(platform.alerts).toEqual(['Delete failed: Server error']);
    expect(api.callNames().filter((n) => n === 'listDocs')).toHaveLength(2);
    expect(flow.getState().items).toHaveLength(3);
  });

  it('a failed load alerts the error message', async () => {
    const { api, flow, platform } = setup();
    api.failNext('listDocs');
    await flow.send({ type: 'refresh' });
    expect(flow.getState()).toMatchObject({ status: 'error', error: 'Server error' });
    expect(platform.alerts).toEqual(['Server error']);
  });

  it('an older load finishing last does not overwrite a newer one', async () => {
    const { api, flow, a } = setup();
    const gate = api.hold('listDocs');
    const slow = flow.send({ type: 'refresh' });
    api.world.docs.delete(a.key);
    await flow.send({ type: 'refresh' });
    gate.release();
    await slow;
    expect(filenames(flow.getState().items)).toEqual(['b.pdf', 'c.pdf']);
  });
});
