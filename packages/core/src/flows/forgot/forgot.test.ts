import { describe, expect, it } from 'vitest';
import { messages } from '../../domain/messages.js';
import {
  createFakeApi,
  createMemoryStorage,
  createRecordingDialogs,
  recordStatuses,
} from '../../testing/index.js';
import { STORAGE_KEYS } from '../storage-keys.js';
import { createForgotFlow } from './forgot.js';

function setup() {
  const api = createFakeApi();
  api.addUser({ email: 'otto@example.org', pin: 'old-pin-1' });
  const storage = createMemoryStorage();
  const platform = createRecordingDialogs();
  return { api, storage, platform };
}

describe('forgot-password flow', () => {
  it('sends the code, verifies it, saves the new PIN and sends the user back to login', async () => {
    const { api, storage, platform } = setup();
    const forgotPage = createForgotFlow({ api, storage, platform });
    await forgotPage.send({ type: 'submitEmail', email: 'otto@example.org' });
    expect(forgotPage.getState()).toEqual({ status: 'code', email: 'otto@example.org', error: null });
    expect(storage.getItem(STORAGE_KEYS.forgotEmail)).toBe('otto@example.org');

    // Each step is its own page; the email travels in session storage.
    const verifyPage = createForgotFlow({ api, storage, platform, step: 'code' });
    await verifyPage.send({ type: 'submitCode', code: api.lastCode('otto@example.org')! });
    expect(verifyPage.getState().status).toBe('newPin');

    const resetPage = createForgotFlow({ api, storage, platform, step: 'newPin' });
    const path = recordStatuses(resetPage);
    await resetPage.send({ type: 'submitNewPin', newPin1: 'new-pin-22', newPin2: 'new-pin-22' });
    expect(path.statuses).toEqual(['saving', 'done']);
    expect(platform.alerts).toEqual([messages.resetSucceeded]);
    expect(api.world.users.get('otto@example.org')?.pin).toBe('new-pin-22');
    expect(storage.getItem(STORAGE_KEYS.forgotEmail)).toBeNull();
  });

  it('sends both PIN entries and shows the server’s answer when they do not match', async () => {
    const { api, storage, platform } = setup();
    const flow = createForgotFlow({ api, storage, platform });
    await flow.send({ type: 'submitEmail', email: 'otto@example.org' });
    await flow.send({ type: 'submitCode', code: api.lastCode('otto@example.org')! });
    await flow.send({ type: 'submitNewPin', newPin1: 'new-pin-22', newPin2: 'new-pin-23' });
    expect(api.calls.at(-1)?.args).toEqual({ body: { newPin1: 'new-pin-22', newPin2: 'new-pin-23' } });
    expect(flow.getState()).toMatchObject({ status: 'newPin', error: 'The two Password PINs do not match.' });
    expect(platform.alerts).toEqual(['The two Password PINs do not match.']);
  });

  it('shows the exact message when the code could not be emailed', async () => {
    const { api, storage, platform } = setup();
    api.world.emailDelivery = false;
    const flow = createForgotFlow({ api, storage, platform });
    await flow.send({ type: 'submitEmail', email: 'otto@example.org' });
    expect(flow.getState()).toMatchObject({ status: 'email', error: messages.forgotEmailNotSent });
    expect(platform.alerts).toEqual([messages.forgotEmailNotSent]);
  });

  it('stays on the code step after a wrong code', async () => {
    const { api, storage, platform } = setup();
    const flow = createForgotFlow({ api, storage, platform });
    await flow.send({ type: 'submitEmail', email: 'otto@example.org' });
    await flow.send({ type: 'submitCode', code: '999999' });
    expect(flow.getState()).toMatchObject({ status: 'code', email: 'otto@example.org' });
    expect(platform.alerts).toHaveLength(1);
  });

  it('a later page without a kept email starts over at the email step', () => {
    const { api, storage, platform } = setup();
    expect(createForgotFlow({ api, storage, platform, step: 'newPin' }).getState().status).toBe('email');
  });
});
