import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createPasskeyPolicyFlow, type PasskeyPolicyFlowOptions } from './passkey-policy.js';

function serverLike(
  refuse = false,
): PasskeyPolicyFlowOptions['api'] & { saved: { requireForStaff: boolean } } {
  const saved = { requireForStaff: false };
  return {
    saved,
    getPasskeyPolicy: async () => ({ ...saved }),
    setPasskeyPolicy: async ({ body }) => {
      if (refuse) throw new ApiError('http', 403, 'Only an admin can do that.');
      saved.requireForStaff = body.requireForStaff;
      return { ...saved };
    },
  };
}

describe('Settings: Require passkeys for admins and officers', () => {
  it('is saved as it is ticked: Saved.', async () => {
    const api = serverLike();
    const flow = createPasskeyPolicyFlow({ api });
    await flow.send({ type: 'load' });
    expect(flow.getState()).toEqual({
      status: 'ready',
      requireForStaff: false,
      saving: false,
      outcome: null,
    });
    const ticking = flow.send({ type: 'set', requireForStaff: true });
    expect(flow.getState()).toMatchObject({ requireForStaff: true, saving: true, outcome: null });
    await ticking;
    expect(api.saved.requireForStaff).toBe(true);
    expect(flow.getState()).toEqual({
      status: 'ready',
      requireForStaff: true,
      saving: false,
      outcome: { saved: true },
    });
  });

  it('a refused change shows why and puts the box back as saved', async () => {
    const flow = createPasskeyPolicyFlow({ api: serverLike(true) });
    await flow.send({ type: 'load' });
    await flow.send({ type: 'set', requireForStaff: true });
    expect(flow.getState()).toEqual({
      status: 'ready',
      requireForStaff: false,
      saving: false,
      outcome: { saved: false, error: 'Only an admin can do that.' },
    });
  });

  it('a rule that cannot be read leaves the form in error', async () => {
    const api = serverLike();
    api.getPasskeyPolicy = async () => {
      throw new ApiError('network', 0, 'Network error. Check your connection and try again.');
    };
    const flow = createPasskeyPolicyFlow({ api });
    await flow.send({ type: 'load' });
    expect(flow.getState()).toMatchObject({ status: 'error' });
  });
});
