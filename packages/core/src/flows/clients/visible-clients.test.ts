import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createRecordingDialogs, createTestUser } from '../../testing/index.js';
import { createVisibleClientsFlow } from './visible-clients.js';
import type { VisibleClientsFlowOptions } from './visible-clients.js';

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
      actor: createTestUser({ email: 'x@example.org', isAdmin }),
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
    api.listClients.mockRejectedValueOnce(new ApiError('http', 500, 'Internal Server Error'));
    await flow.send({ type: 'load' });
    expect(flow.getState()).toMatchObject({ status: 'error', error: 'Internal Server Error' });
    expect(platform.alerts).toEqual(['Internal Server Error']);
  });
});
