import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { messages } from '../../domain/messages.js';
import {
  createFakeApi,
  createMemoryStorage,
  createRecordingDialogs,
  recordStatuses,
} from '../../testing/index.js';
import { STORAGE_KEYS } from '../storage-keys.js';
import { createLoginFlow } from './login.js';

function setup() {
  const api = createFakeApi();
  api.addUser({ email: 'vera@example.org', pin: 'pin-12345', firstName: 'Vera' });
  const storage = createMemoryStorage();
  const platform = createRecordingDialogs();
  return { api, storage, platform, flow: createLoginFlow({ api, storage, platform }) };
}

describe('login flow', () => {
  it('signs in with credentials, then the emailed code, keeping the email for the session', async () => {
    const { api, storage, platform, flow } = setup();
    const path = recordStatuses(flow);

    await flow.send({ type: 'submitCredentials', email: ' vera@example.org ', pin: 'pin-12345' });
    expect(flow.getState()).toEqual({ status: 'code', email: 'vera@example.org', error: null });
    expect(storage.getItem(STORAGE_KEYS.loginEmail)).toBe('vera@example.org');

    await flow.send({ type: 'submitCode', code: api.lastCode('vera@example.org')! });
    const state = flow.getState();
    expect(state.status === 'signedIn' && state.user.firstName).toBe('Vera');
    expect(path.statuses).toEqual(['sendingCode', 'code', 'verifying', 'signedIn']);
    expect(platform.alerts).toEqual([]);
  });

  it('shows the exact message and stays on the form when the code could not be emailed', async () => {
    const { api, storage, platform, flow } = setup();
    api.world.emailDelivery = false;

    await flow.send({ type: 'submitCredentials', email: 'vera@example.org', pin: 'pin-12345' });

    expect(flow.getState()).toMatchObject({ status: 'credentials', error: messages.loginEmailNotSent });
    expect(platform.alerts).toEqual([messages.loginEmailNotSent]);
    expect(storage.getItem(STORAGE_KEYS.loginEmail)).toBeNull();
  });

  it("alerts the server's error for wrong credentials", async () => {
    const { platform, flow } = setup();
    await flow.send({ type: 'submitCredentials', email: 'vera@example.org', pin: 'wrong' });
    expect(flow.getState()).toMatchObject({
      status: 'credentials',
      error: 'Email or Password PIN is incorrect.',
    });
    expect(platform.alerts).toEqual(['Email or Password PIN is incorrect.']);
  });

  it('keeps asking for the code after a wrong one', async () => {
    const { platform, flow } = setup();
    await flow.send({ type: 'submitCredentials', email: 'vera@example.org', pin: 'pin-12345' });
    await flow.send({ type: 'submitCode', code: '000000' });
    expect(flow.getState()).toMatchObject({ status: 'code', email: 'vera@example.org' });
    expect(platform.alerts).toHaveLength(1);
  });

  it('under the passkey rule, a right code of staff with a passkey leads to the passkey, without an alert', async () => {
    const { api, platform, flow } = setup();
    await flow.send({ type: 'submitCredentials', email: 'vera@example.org', pin: 'pin-12345' });
    api.loginVerify = () =>
      Promise.reject(new ApiError('http', 403, messages.passkeySignInRequired, { code: 'passkey_required' }));
    await flow.send({ type: 'submitCode', code: '123456' });
    expect(flow.getState()).toEqual({
      status: 'passkeyRequired',
      email: 'vera@example.org',
      error: messages.passkeySignInRequired,
    });
    expect(platform.alerts).toEqual([]);
  });

  it('the verify page picks up the email kept by the login page', async () => {
    const { api, storage, platform, flow } = setup();
    await flow.send({ type: 'submitCredentials', email: 'vera@example.org', pin: 'pin-12345' });

    const verifyPage = createLoginFlow({ api, storage, platform, step: 'code' });
    expect(verifyPage.getState()).toEqual({ status: 'code', email: 'vera@example.org', error: null });
    await verifyPage.send({ type: 'submitCode', code: api.lastCode('vera@example.org')! });
    expect(verifyPage.getState().status).toBe('signedIn');
  });

  it('the verify page without a kept email starts at the credentials', () => {
    const { api, storage, platform } = setup();
    expect(createLoginFlow({ api, storage, platform, step: 'code' }).getState().status).toBe('credentials');
  });

  it('ignores a second submit while the first is under way', async () => {
    const { api, flow } = setup();
    const gate = api.hold('loginInit');
    const first = flow.send({ type: 'submitCredentials', email: 'vera@example.org', pin: 'pin-12345' });
    await flow.send({ type: 'submitCredentials', email: 'vera@example.org', pin: 'pin-12345' });
    gate.release();
    await first;
    expect(api.callNames()).toEqual(['loginInit']);
  });
});
