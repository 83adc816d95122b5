import { describe, expect, it } from 'vitest';
import { messages } from '../../domain/messages.js';
import { createFakeApi, createRecordingDialogs } from '../../testing/index.js';
import { canConfirmReassign, createReassignFlow } from './reassign.js';

function setup(createdBy: string | null = 'gone@example.org') {
  const api = createFakeApi();
  api.addUser({ email: 'gone@example.org' });
  api.addUser({ email: 'nina@example.org', firstName: 'Nina' });
  const client = api.addClient({ firstName: 'Ada', createdBy });
  const platform = createRecordingDialogs();
  const flow = createReassignFlow({ api, platform, clientId: client.clientId });
  return { api, client, platform, flow };
}

describe('reassign client', () => {
  it('reassigns an owned client from its owner; afterwards the owner is the new volunteer', async () => {
    const { api, client, platform, flow } = setup();
    await flow.send({ type: 'open' });
    const state = flow.getState();
    expect(state).toMatchObject({
      status: 'choosing',
      owner: { kind: 'volunteer', email: 'gone@example.org' },
    });
    expect(canConfirmReassign(state)).toBe(false);

    await flow.send({ type: 'confirm' }); // disabled until a volunteer is chosen
    expect(api.callNames()).not.toContain('reassignClient');

    await flow.send({ type: 'choose', email: 'nina@example.org' });
    expect(canConfirmReassign(flow.getState())).toBe(true);
    await flow.send({ type: 'confirm' });

    expect(api.calls.find((c) => c.name === 'reassignClient')?.args).toEqual({
      body: {
        from: 'gone@example.org',
        clientEmail: client.email,
        newVolunteerEmail: 'nina@example.org',
        clientId: client.clientId,
      },
    });
    expect(flow.getState()).toEqual({
      status: 'closed',
      owner: { kind: 'volunteer', email: 'nina@example.org' },
    });
    expect(platform.alerts).toEqual([messages.clientReassigned]);
    expect(api.world.clients.get(client.clientId)?.createdBy).toBe('nina@example.org');
  });

  it('when the client-meta lookup fails the client is treated as an orphan, so reassignment still works', async () => {
    const { api, client, flow, platform } = setup();
    api.failNext('clientMeta', new Error('Forbidden'));
    await flow.send({ type: 'open' });
    expect(flow.getState()).toMatchObject({ status: 'choosing', owner: { kind: 'orphan' } });

    await flow.send({ type: 'choose', email: 'nina@example.org' });
    await flow.send({ type: 'confirm' });
    expect(api.calls.find((c) => c.name === 'reassignOrphan')?.args).toEqual({
      body: { clientId: client.clientId, newVolunteerEmail: 'nina@example.org' },
    });
    expect(api.callNames()).not.toContain('reassignClient');
    expect(platform.alerts).toEqual([messages.clientReassigned]);
  });

  it('an orphaned client goes through the orphan call', async () => {
    const { api, flow } = setup(null);
    await flow.send({ type: 'open' });
    await flow.send({ type: 'choose', email: 'nina@example.org' });
    await flow.send({ type: 'confirm' });
    expect(api.callNames()).toContain('reassignOrphan');
  });

  it('an unavailable volunteer list shows as empty', async () => {
    const { api, flow } = setup();
    api.failNext('volunteers');
    await flow.send({ type: 'open' });
    expect(flow.getState()).toMatchObject({ status: 'choosing', volunteers: [] });
  });

  it('a refused reassignment alerts the server’s message and keeps the dialog open', async () => {
    const { api, flow, platform } = setup();
    await flow.send({ type: 'open' });
    await flow.send({ type: 'choose', email: 'nina@example.org' });
    api.failNext('reassignClient');
    await flow.send({ type: 'confirm' });
    expect(platform.alerts).toEqual(['Server error']);
    expect(flow.getState()).toMatchObject({ status: 'choosing', selected: 'nina@example.org' });
  });

  it('No closes the dialog without a call', async () => {
    const { api, flow } = setup();
    await flow.send({ type: 'open' });
    await flow.send({ type: 'cancel' });
    expect(flow.getState().status).toBe('closed');
    expect(api.callNames()).toEqual(['clientMeta', 'volunteers']);
  });
});
