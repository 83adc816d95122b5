import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createRecordingDialogs, createTestUser } from '../../testing/index.js';
import type { User } from '../../api/schemas.js';
import { messages } from '../../domain/messages.js';
import type { Role } from '../../domain/roles.js';
import { createUserDetailFlow } from './user-detail.js';

function setup(initial: User | Error) {
  let current = initial;
  const api = {
    getUser: vi.fn(async () => {
      if (current instanceof Error) throw current;
      return { user: current };
    }),
    approveUser: vi.fn(async () => {
      current = { ...(current as User), approved: true };
      return { ok: true as const, user: current };
    }),
    setUserRole: vi.fn(async ({ body }: { body: { role: Role } }) => {
      current = { ...(current as User), role: body.role };
      return { ok: true as const, user: current };
    }),
  };
  const platform = createRecordingDialogs();
  const flow = createUserDetailFlow({ api, platform, email: 'pia@example.org' });
  return { api, platform, flow };
}

const pia = createTestUser({
  email: 'pia@example.org',
  firstName: 'Pia',
  lastName: 'Pending',
  approved: false,
});

describe('admin user page', () => {
  it('loads the account by its email', async () => {
    const { api, flow } = setup(pia);
    await flow.send({ type: 'load' });
    expect(api.getUser).toHaveBeenCalledWith({ params: { email: 'pia@example.org' } });
    expect(flow.getState()).toEqual({ status: 'ready', user: pia, busy: false });
  });

  it.each([
    [404, 'notFound'],
    [400, 'notFound'],
    [401, 'signedOut'],
    [403, 'forbidden'],
  ] as const)('a %i answer means %s', async (status, expected) => {
    const { flow } = setup(new ApiError('http', status, 'No'));
    await flow.send({ type: 'load' });
    expect(flow.getState().status).toBe(expected);
  });

  it('approving asks Officer or Volunteer, then shows the account as it is now', async () => {
    const { flow, platform } = setup(pia);
    await flow.send({ type: 'load' });
    platform.answerConfirms(false);
    await flow.send({ type: 'approve' });
    expect(platform.confirms).toEqual([
      'Make Pia Pending an Officer? Choose Cancel to make them a Volunteer.',
    ]);
    expect(platform.alerts).toEqual([messages.roleSetToVolunteer]);
    expect(flow.getState()).toMatchObject({
      status: 'ready',
      user: { approved: true, role: 'volunteer' },
      busy: false,
    });
  });

  it('a role change asks first, naming the person and the new role; Cancel changes nothing', async () => {
    const { api, flow, platform } = setup({ ...pia, approved: true });
    await flow.send({ type: 'load' });
    platform.answerConfirms(false);
    await flow.send({ type: 'setRole', role: 'officer' });
    expect(platform.confirms).toEqual([
      'Make Pia Pending an Officer? They will be signed out and must sign in again.',
    ]);
    expect(api.setUserRole).not.toHaveBeenCalled();
    await flow.send({ type: 'setRole', role: 'officer' });
    await flow.send({ type: 'setRole', role: 'volunteer' });
    expect(platform.confirms.at(-1)).toBe(
      'Set Pia Pending to Volunteer? They will be signed out and must sign in again.',
    );
    expect(api.setUserRole).toHaveBeenCalledTimes(2);
  });

  it('Make Officer and Set Volunteer alert their texts', async () => {
    const { flow, platform } = setup({ ...pia, approved: true });
    await flow.send({ type: 'load' });
    await flow.send({ type: 'setRole', role: 'officer' });
    expect(flow.getState()).toMatchObject({ user: { role: 'officer' } });
    await flow.send({ type: 'setRole', role: 'volunteer' });
    expect(platform.alerts).toEqual([messages.roleUpdated, messages.roleSetToVolunteer]);
  });

  it('a refused change is alerted and the page reloaded', async () => {
    const { flow, platform, api } = setup({ ...pia, approved: true });
    await flow.send({ type: 'load' });
    api.setUserRole.mockRejectedValueOnce(new ApiError('http', 403, "An admin's role cannot be changed."));
    await flow.send({ type: 'setRole', role: 'officer' });
    expect(platform.alerts).toEqual(["An admin's role cannot be changed."]);
    expect(api.getUser).toHaveBeenCalledTimes(2);
    expect(flow.getState()).toMatchObject({ status: 'ready', busy: false });
  });
});
