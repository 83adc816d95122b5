import { createRecordingDialogs } from '@vita-docs/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { createNewClientFlow } from './new-client';
import type { NewClientFlowOptions } from './new-client';
import { createVisibleClientsFlow } from './visible-clients';
import type { VisibleClientsFlowOptions } from './visible-clients';
import { httpError, user } from './test-helpers';

const form = {
  type: 'submit' as const,
  firstName: ' Ada ',
  lastName: 'Client',
  email: 'ada@client.example.org ',
  phone: '555-0100',
};

describe('Create New Client', () => {
  it('sends the trimmed fields, without a PIN when it is empty, and ends with the client', async () => {
    const client = { clientId: 'client-0001' };
    const api = { createClient: vi.fn(async () => ({ ok: true as const, client })) };
    const flow = createNewClientFlow({
      api: api as unknown as NewClientFlowOptions['api'],
      platform: createRecordingDialogs(),
    });
    await flow.send({ ...form, pin: '' });
    expect(api.createClient).toHaveBeenCalledWith({
      body: { firstName: 'Ada', lastName: 'Client', email: 'ada@client.example.org', phone: '555-0100' },
    });
    expect(flow.getState()).toEqual({ status: 'done', client });
  });

  it('the server decides the fields: its message is alerted and the form stays', async () => {
    const api = {
      createClient: vi.fn(async () =>
        Promise.reject(httpError(409, 'You already have a client with this email.')),
      ),
    };
    const platform = createRecordingDialogs();
    const flow = createNewClientFlow({ api: api, platform });
    await flow.send({ ...form, pin: '1234' });
    expect(api.createClient.mock.calls[0]).toEqual([{ body: expect.objectContaining({ pin: '1234' }) }]);
    expect(platform.alerts).toEqual(['You already have a client with this email.']);
    expect(flow.getState().status).toBe('editing');
  });
});

describe('Client List', () => {
  const setup = (isAdmin: boolean) => {
    const api = {
      listClients: vi.fn(async () => ({ items: [{ clientId: 'own' }] })),
      listAllClients: vi.fn(async () => ({ items: [{ clientId: 'own' }, { clientId: 'other' }] })),
    };
    const platform = createRecordingDialogs();
    const flow = createVisibleClientsFlow({
      api: api as unknown as VisibleClientsFlowOptions['api'],
      platform,
      actor: user({ email: 'x@example.org', isAdmin }),
    });
    return { api, platform, flow };
  };

  it('admins see every client, others their own', async () => {
    const admin = setup(true);
    await admin.flow.send({ type: 'load' });
    expect(admin.flow.getState().items).toHaveLength(2);
    const volunteer = setup(false);
    await volunteer.flow.send({ type: 'load' });
    expect(volunteer.flow.getState().items).toHaveLength(1);
    expect(volunteer.api.listAllClients).not.toHaveBeenCalled();
  });

  it('a load failure is alerted', async () => {
    const { flow, api, platform } = setup(false);
    api.listClients.mockRejectedValueOnce(httpError(500, 'Internal Server Error'));
    await flow.send({ type: 'load' });
    expect(flow.getState()).toMatchObject({ status: 'error', error: 'Internal Server Error' });
    expect(platform.alerts).toEqual(['Internal Server Error']);
  });
});
