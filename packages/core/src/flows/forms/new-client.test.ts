import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createRecordingDialogs } from '../../testing/index.js';
import { createNewClientFlow } from './new-client.js';
import type { NewClientFlowOptions } from './new-client.js';

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
        Promise.reject(new ApiError('http', 409, 'You already have a client with this email.')),
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
