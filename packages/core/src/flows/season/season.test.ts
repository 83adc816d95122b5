import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createFakeApi, createRecordingDialogs } from '../../testing/index.js';
import { canCloseSeason, createSeasonFlow } from './season.js';

async function setup() {
  const api = createFakeApi();
  api.addUser({ email: 'admin@example.org', isAdmin: true });
  api.addUser({ email: 'vera@example.org' });
  const ada = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  api.addClient({ firstName: 'Bo', createdBy: 'vera@example.org' });
  api.addDoc(ada.clientId, 'W-2', 'w2.pdf');
  api.addDoc(ada.clientId, 'Banking Info', 'bank.pdf');
  const saved: { name: string; text: string }[] = [];
  const platform = {
    ...createRecordingDialogs(),
    saveFile: async (name: string, data: Blob) => void saved.push({ name, text: await data.text() }),
  };
  // The fake server does not make ZIPs: the archive is a stand-in of the client's id.
  const downloadAll: typeof api.downloadAll = async (args) => {
    await api.downloadAll(args).catch(() => undefined); // recorded, and a failNext applies
    return new Response(`zip of ${args.params.id}`);
  };
  const flow = createSeasonFlow({ api: { ...api, downloadAll }, platform });
  await flow.send({ type: 'load' });
  return { api, ada, platform, saved, flow };
}

describe('season close', () => {
  it('says what the close will do and lists every client to download first', async () => {
    const { flow } = await setup();
    expect(flow.getState()).toMatchObject({
      status: 'ready',
      summary: { year: 2026, users: 1, clients: 1, documents: 2, closedAt: null },
      typed: '',
    });
    const state = flow.getState();
    expect(state.status === 'ready' && state.clients.map((c) => c.firstName)).toEqual(['Ada', 'Bo']);
  });

  it('downloads a client’s ZIP under its name, one at a time; a failure is alerted', async () => {
    const { api, ada, flow, saved, platform } = await setup();
    const downloading = flow.send({ type: 'download', clientId: ada.clientId });
    expect(flow.getState()).toMatchObject({ downloading: ada.clientId });
    await flow.send({ type: 'download', clientId: 'client0002' }); // another press meanwhile does nothing
    await downloading;
    expect(saved).toEqual([{ name: `client-${ada.clientId}-all-docs.zip`, text: `zip of ${ada.clientId}` }]);
    expect(flow.getState()).toMatchObject({ downloading: null });

    const failing = createSeasonFlow({
      api: {
        ...api,
        downloadAll: async () => Promise.reject(new ApiError('http', 404, 'Client not found.')),
      },
      platform,
    });
    await failing.send({ type: 'load' });
    await failing.send({ type: 'download', clientId: 'client0002' });
    expect(platform.alerts).toEqual(['Client not found.']);
  });

  it('closes only once the phrase is typed exactly, then shows what was done', async () => {
    const { api, flow } = await setup();
    await flow.send({ type: 'type', text: 'close season 2026' });
    expect(canCloseSeason(flow.getState())).toBe(false);
    await flow.send({ type: 'close' });
    expect(api.callNames()).not.toContain('closeSeason');

    await flow.send({ type: 'type', text: 'CLOSE SEASON 2026' });
    expect(canCloseSeason(flow.getState())).toBe(true);
    const closing = flow.send({ type: 'close' });
    expect(canCloseSeason(flow.getState())).toBe(false);
    await closing;
    expect(flow.getState()).toMatchObject({
      closing: false,
      error: null,
      summary: { users: 1, clients: 1, documents: 2, closedAt: expect.any(String) },
    });
    expect(api.world.docs.size).toBe(0);
    expect(api.world.users.get('vera@example.org')?.user.approved).toBe(false);
  });

  it('a refused close shows the server’s reason and stays open', async () => {
    const { api, flow } = await setup();
    await flow.send({ type: 'type', text: 'CLOSE SEASON 2026' });
    api.failNext('closeSeason', new ApiError('http', 400, 'Type CLOSE SEASON 2026 to confirm.'));
    await flow.send({ type: 'close' });
    expect(flow.getState()).toMatchObject({
      closing: false,
      error: 'Type CLOSE SEASON 2026 to confirm.',
      summary: { closedAt: null },
    });
  });

  it('a summary that cannot be loaded leaves only the error', async () => {
    const api = createFakeApi();
    api.failNext('seasonSummary', new ApiError('http', 403, 'Admins only.'));
    const flow = createSeasonFlow({
      api,
      platform: { ...createRecordingDialogs(), saveFile: async () => undefined },
    });
    await flow.send({ type: 'load' });
    expect(flow.getState()).toEqual({ status: 'error', error: 'Admins only.' });
  });
});
