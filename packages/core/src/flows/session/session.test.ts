import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createDeferred, createRecordingDialogs, createTestUser } from '../../testing/index.js';
import { createSessionFlow } from './session.js';

const ada = createTestUser({ email: 'ada@example.org', firstName: 'Ada' });

describe('session', () => {
  it('starts checking, then is signed in with the user GET /me returns', async () => {
    const api = { me: vi.fn(async () => ({ user: ada })), logout: vi.fn() };
    const flow = createSessionFlow({ api, platform: createRecordingDialogs() });
    expect(flow.getState()).toEqual({ status: 'checking' });
    await flow.send({ type: 'check' });
    expect(flow.getState()).toEqual({ status: 'signedIn', user: ada, refreshing: false });
  });

  it('treats any failure of GET /me as signed out', async () => {
    const api = {
      me: vi.fn(async () => Promise.reject(new ApiError('http', 401, 'Please sign in.'))),
      logout: vi.fn(),
    };
    const flow = createSessionFlow({ api, platform: createRecordingDialogs() });
    await flow.send({ type: 'check' });
    expect(flow.getState()).toEqual({ status: 'signedOut' });
  });

  it('keeps the user on screen while a refresh runs', async () => {
    const answer = createDeferred<{ user: typeof ada }>();
    const api = { me: vi.fn(async () => ({ user: ada })), logout: vi.fn() };
    const flow = createSessionFlow({ api, platform: createRecordingDialogs() });
    await flow.send({ type: 'check' });
    api.me.mockImplementationOnce(() => answer.promise);
    const refreshing = flow.send({ type: 'check' });
    expect(flow.getState()).toEqual({ status: 'signedIn', user: ada, refreshing: true });
    answer.resolve({ user: { ...ada, firstName: 'Adele' } });
    await refreshing;
    expect(flow.getState()).toMatchObject({
      status: 'signedIn',
      user: { firstName: 'Adele' },
      refreshing: false,
    });
  });

  it('a slow check does not undo the login that finished meanwhile', async () => {
    const answer = createDeferred<{ user: typeof ada }>();
    const api = { me: vi.fn(() => answer.promise), logout: vi.fn() };
    const flow = createSessionFlow({ api, platform: createRecordingDialogs() });
    const checking = flow.send({ type: 'check' });
    await flow.send({ type: 'signedIn', user: ada });
    answer.reject(new ApiError('http', 401, 'Please sign in.'));
    await checking;
    expect(flow.getState()).toMatchObject({ status: 'signedIn', user: ada });
  });

  it('logs out; a failed logout keeps the session and says why', async () => {
    const api = {
      me: vi.fn(async () => ({ user: ada })),
      logout: vi.fn(async () => ({ ok: true as const })),
    };
    const platform = createRecordingDialogs();
    const flow = createSessionFlow({ api, platform });
    await flow.send({ type: 'check' });
    api.logout.mockRejectedValueOnce(new ApiError('http', 500, 'Server error'));
    await flow.send({ type: 'logout' });
    expect(flow.getState().status).toBe('signedIn');
    expect(platform.alerts).toEqual(['Server error']);
    await flow.send({ type: 'logout' });
    expect(flow.getState()).toEqual({ status: 'signedOut' });
  });

  describe('with no connection at the start', () => {
    const offlineError = () => new ApiError('network', 0, 'Failed to fetch');
    const rememberIn = () => {
      let kept: typeof ada | null = null;
      return {
        remembered: { read: () => kept, write: (user: typeof ada | null) => void (kept = user) },
        kept: () => kept,
      };
    };

    it('takes who last signed in here on trust, marked offline, and forgets them only on the server’s word', async () => {
      const { remembered, kept } = rememberIn();
      const api = {
        me: vi.fn(async () => ({ user: ada })),
        logout: vi.fn(async () => ({ ok: true as const })),
      };
      const flow = createSessionFlow({ api, platform: createRecordingDialogs(), remembered });
      await flow.send({ type: 'check' });
      expect(kept()).toEqual(ada);

      api.me.mockRejectedValueOnce(offlineError());
      await flow.send({ type: 'check' });
      expect(flow.getState()).toEqual({ status: 'signedIn', user: ada, refreshing: false, offline: true });
      expect(kept()).toEqual(ada);

      await flow.send({ type: 'check' }); // the connection is back
      expect(flow.getState()).toEqual({ status: 'signedIn', user: ada, refreshing: false });

      await flow.send({ type: 'logout' });
      expect(kept()).toBeNull();
      api.me.mockRejectedValueOnce(offlineError());
      await flow.send({ type: 'check' });
      expect(flow.getState()).toEqual({ status: 'signedOut' });
    });

    it('without anyone remembered, no connection is signed out (the page says it needs one)', async () => {
      const api = { me: vi.fn(async () => Promise.reject(offlineError())), logout: vi.fn() };
      const flow = createSessionFlow({
        api,
        platform: createRecordingDialogs(),
        remembered: rememberIn().remembered,
      });
      await flow.send({ type: 'check' });
      expect(flow.getState()).toEqual({ status: 'signedOut' });
    });

    it('a session the server refuses under a screen (a 401) is forgotten: nobody is taken on trust after it', async () => {
      const { remembered, kept } = rememberIn();
      const api = { me: vi.fn(async () => ({ user: ada })), logout: vi.fn() };
      const flow = createSessionFlow({ api, platform: createRecordingDialogs(), remembered });
      await flow.send({ type: 'check' });
      expect(kept()).toEqual(ada);
      await flow.send({ type: 'expired', error: new ApiError('http', 401, 'Please sign in.') });
      expect(kept()).toBeNull();
      api.me.mockRejectedValueOnce(offlineError());
      await flow.send({ type: 'check' });
      expect(flow.getState()).toEqual({ status: 'signedOut' });
    });

    it('a session taken on trust that ended meanwhile counts as expired, and is forgotten', async () => {
      const { remembered, kept } = rememberIn();
      remembered.write(ada);
      const api = { me: vi.fn(async () => Promise.reject(offlineError())), logout: vi.fn() };
      const flow = createSessionFlow({ api, platform: createRecordingDialogs(), remembered });
      await flow.send({ type: 'check' });
      expect(flow.getState()).toMatchObject({ status: 'signedIn', offline: true });

      api.me.mockRejectedValueOnce(new ApiError('http', 401, 'Please sign in.'));
      await flow.send({ type: 'check' });
      expect(flow.getState()).toEqual({ status: 'signedOut', expired: true });
      expect(kept()).toBeNull();
    });
  });
});
