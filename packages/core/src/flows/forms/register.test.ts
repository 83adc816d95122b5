import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createRecordingDialogs } from '../../testing/index.js';
import { createRegisterFlow } from './register.js';

const form = {
  type: 'submit',
  firstName: ' Vera ',
  lastName: 'Volunteer ',
  email: ' vera@example.org',
  pin: ' pin with spaces ',
} as const;

describe('register', () => {
  it('sends the trimmed names and email, the PIN as typed, and is done (pending)', async () => {
    const api = { register: vi.fn(async () => ({ ok: true as const, status: 'pending' as const })) };
    const flow = createRegisterFlow({ api, platform: createRecordingDialogs() });
    await flow.send(form);
    expect(api.register).toHaveBeenCalledWith({
      body: { firstName: 'Vera', lastName: 'Volunteer', email: 'vera@example.org', pin: ' pin with spaces ' },
    });
    expect(flow.getState()).toEqual({ status: 'done', approved: false });
  });

  it('tells the first account of an installation that it is an approved admin', async () => {
    const api = { register: vi.fn(async () => ({ ok: true as const, status: 'approved' as const })) };
    const flow = createRegisterFlow({ api, platform: createRecordingDialogs() });
    await flow.send(form);
    expect(flow.getState()).toEqual({ status: 'done', approved: true });
  });

  it('shows the server’s reason in an alert and lets the person try again', async () => {
    const api = {
      register: vi.fn(async () => Promise.reject(new ApiError('http', 400, 'Email is not valid.'))),
    };
    const platform = createRecordingDialogs();
    const flow = createRegisterFlow({ api, platform });
    await flow.send(form);
    expect(platform.alerts).toEqual(['Email is not valid.']);
    expect(flow.getState()).toEqual({ status: 'editing', error: 'Email is not valid.' });
  });
});
