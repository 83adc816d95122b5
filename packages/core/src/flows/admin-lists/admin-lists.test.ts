import { describe, expect, it } from 'vitest';
import { createFakeApi, createRecordingDialogs } from '../../testing/index.js';
import { createClientListFlow, createUserListFlow } from './admin-lists.js';

function setup() {
  const api = createFakeApi();
  api.addUser({ email: 'admin@example.org', isAdmin: true });
  api.addUser({ email: 'vera@example.org' });
  api.addUser({ email: 'paul@example.org', approved: false });
  const ada = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  const bo = api.addClient({ firstName: 'Bo', createdBy: 'vera@example.org' });
  const platform = createRecordingDialogs();
  return { api, ada, bo, platform };
}

const emails = (items: readonly { email: string }[]) => items.map((u) => u.email);

describe('All Users: optimistic delete', () => {
  it('loads all users (status=all)', async () => {
    const { api, platform } = setup();
    const flow = createUserListFlow({ api, platform });
    await flow.send({ type: 'reload' });
    expect(api.calls[0]?.args).toEqual({ query: { status: 'all' } });
    expect(emails(flow.getState().items)).toEqual([
      'admin@example.org',
      'vera@example.org',
      'paul@example.org',
    ]);
  });

  it('removes the user from the list at once, before the server answers', async () => {
    const { api, platform } = setup();
    const flow = createUserListFlow({ api, platform });
    await flow.send({ type: 'reload' });
    const gate = api.hold('deleteUser');
    const deleting = flow.send({ type: 'delete', id: 'vera@example.org' });
    expect(emails(flow.getState().items)).toEqual(['admin@example.org', 'paul@example.org']);
    gate.release();
    await deleting;
    expect(emails(flow.getState().items)).toEqual(['admin@example.org', 'paul@example.org']);
    expect(api.callNames()).toEqual(['listUsers', 'deleteUser']);
  });

  it('a reload while the delete is still running does not bring the user back', async () => {
    const { api, platform } = setup();
    const flow = createUserListFlow({ api, platform });
    await flow.send({ type: 'reload' });
    const gate = api.hold('deleteUser');
    const deleting = flow.send({ type: 'delete', id: 'vera@example.org' });
    // The server has not deleted it yet, so this list still has it.
    await flow.send({ type: 'reload' });
    expect(emails(flow.getState().items)).toEqual(['admin@example.org', 'paul@example.org']);
    gate.release();
    await deleting;
    expect(emails(flow.getState().items)).toEqual(['admin@example.org', 'paul@example.org']);
  });

  it('reloads the list and alerts when the server refuses', async () => {
    const { api, platform } = setup();
    const flow = createUserListFlow({ api, platform });
    await flow.send({ type: 'reload' });
    await flow.send({ type: 'delete', id: 'admin@example.org' });
    expect(platform.alerts).toEqual(['Delete failed: Admins cannot be deleted.']);
    expect(emails(flow.getState().items)).toContain('admin@example.org');
    expect(api.callNames()).toEqual(['listUsers', 'deleteUser', 'listUsers']);
  });
});

describe('All Clients: optimistic delete', () => {
  it('removes the client at once and identifies it by owner, email and id', async () => {
    const { api, ada, bo, platform } = setup();
    const flow = createClientListFlow({ api, platform });
    await flow.send({ type: 'reload' });
    await flow.send({ type: 'delete', id: ada.clientId });
    expect(flow.getState().items.map((c) => c.clientId)).toEqual([bo.clientId]);
    expect(api.calls.at(-1)?.args).toEqual({
      body: { createdBy: 'vera@example.org', clientEmail: ada.email, clientId: ada.clientId },
    });
  });

  it('puts the client back by reloading when the delete fails', async () => {
    const { api, ada, platform } = setup();
    const flow = createClientListFlow({ api, platform });
    await flow.send({ type: 'reload' });
    api.failNext('deleteClient');
    await flow.send({ type: 'delete', id: ada.clientId });
    expect(flow.getState().items).toHaveLength(2);
    expect(platform.alerts).toEqual(['Delete failed: Server error']);
  });
});
