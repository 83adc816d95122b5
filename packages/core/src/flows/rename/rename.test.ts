import { describe, expect, it } from 'vitest';
import { messages } from '../../domain/messages.js';
import { createFakeApi, createRecordingDialogs } from '../../testing/index.js';
import { createFileListFlow } from '../file-list/file-list.js';
import { createRenameFlow } from './rename.js';

async function setup() {
  const api = createFakeApi();
  const client = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  const doc = api.addDoc(client.clientId, 'W-2', 'Scan.PDF', { order: 5 });
  const other = api.addDoc(client.clientId, 'W-2', 'other.pdf', { order: 9 });
  const platform = createRecordingDialogs();
  const list = createFileListFlow({ api, platform, target: { clientId: client.clientId, docType: 'W-2' } });
  await list.send({ type: 'refresh' });
  const flow = createRenameFlow({
    api,
    platform,
    onRenamed: (change) => list.send({ type: 'renamed', ...change }),
  });
  return { api, doc, other, platform, list, flow };
}

describe('rename', () => {
  it('renames in place, keeping the extension, and the selection follows the new key', async () => {
    const { doc, other, list, flow, api } = await setup();
    await list.send({ type: 'toggle', key: doc.key });

    await flow.send({ type: 'open', item: doc });
    await flow.send({ type: 'change', value: '  W-2 2024  ' });
    await flow.send({ type: 'save' });

    expect(api.calls.at(-1)?.args).toEqual({ body: { key: doc.key, filename: 'W-2 2024.PDF' } });
    expect(flow.getState()).toEqual({ status: 'closed' });
    const [renamed, untouched] = list.getState().items;
    expect(renamed).toMatchObject({
      filename: 'W-2 2024.PDF',
      key: expect.stringMatching(/\/5_W-2 2024\.PDF$/),
    });
    expect(untouched?.key).toBe(other.key);
    expect(list.getState().selected).toEqual([renamed!.key]);
    expect(api.callNames().filter((n) => n === 'listDocs')).toHaveLength(1);
  });

  it('accepts the extension in another case without doubling it', async () => {
    const { doc, flow, api } = await setup();
    await flow.send({ type: 'open', item: doc });
    await flow.send({ type: 'change', value: 'final.pdf' });
    await flow.send({ type: 'save' });
    expect(api.calls.at(-1)?.args).toEqual({ body: { key: doc.key, filename: 'final.pdf' } });
  });

  it('refuses an empty name with the exact alert and stays open', async () => {
    const { doc, flow, platform, api } = await setup();
    await flow.send({ type: 'open', item: doc });
    await flow.send({ type: 'change', value: '   ' });
    await flow.send({ type: 'save' });
    expect(platform.alerts).toEqual([messages.renameEmpty]);
    expect(flow.getState().status).toBe('editing');
    expect(api.callNames()).not.toContain('renameDoc');
  });

  it('an unchanged name just closes the dialog', async () => {
    const { doc, flow, api } = await setup();
    await flow.send({ type: 'open', item: doc });
    await flow.send({ type: 'change', value: 'Scan' }); // the rule adds .PDF back: unchanged
    await flow.send({ type: 'save' });
    expect(flow.getState()).toEqual({ status: 'closed' });
    expect(api.callNames()).not.toContain('renameDoc');
  });

  it('a failed rename alerts with the Rename prefix and keeps the dialog open', async () => {
    const { doc, flow, platform, api, list } = await setup();
    api.failNext('renameDoc');
    await flow.send({ type: 'open', item: doc });
    await flow.send({ type: 'change', value: 'new name' });
    await flow.send({ type: 'save' });
    expect(platform.alerts).toEqual([`${messages.renameFailedPrefix}Server error`]);
    expect(flow.getState()).toMatchObject({ status: 'editing', value: 'new name' });
    expect(list.getState().items[0]?.filename).toBe('Scan.PDF');
  });

  it('cancel closes without a call', async () => {
    const { doc, flow, api } = await setup();
    await flow.send({ type: 'open', item: doc });
    await flow.send({ type: 'cancel' });
    expect(flow.getState()).toEqual({ status: 'closed' });
    expect(api.callNames()).not.toContain('renameDoc');
  });
});
