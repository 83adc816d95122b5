import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createRecordingDialogs, createTestUser } from '../../testing/index.js';
import type { User } from '../../api/schemas.js';
import { messages } from '../../domain/messages.js';
import type { Role } from '../../domain/roles.js';
import { createApprovalsFlow } from './approvals.js';

/** A tiny server: the pending list shrinks as accounts are approved. */
function setup(actorIsAdmin: boolean) {
  const accounts = new Map<string, User>(
    [
      createTestUser({ email: 'paul@example.org', firstName: 'Paul', lastName: 'Pending', approved: false }),
      createTestUser({ email: 'pia@example.org', firstName: 'Pia', lastName: 'Pending', approved: false }),
    ].map((u) => [u.email, u]),
  );
  const update = (email: string, change: Partial<User>) => {
    const next = { ...accounts.get(email)!, ...change };
    accounts.set(email, next);
    return { ok: true as const, user: next };
  };
  const api = {
    listUsers: vi.fn(async () => ({ items: [...accounts.values()].filter((u) => !u.approved) })),
    approveUser: vi.fn(async ({ params }: { params: { email: string } }) =>
      update(params.email, { approved: true }),
    ),
    setUserRole: vi.fn(async ({ params, body }: { params: { email: string }; body: { role: Role } }) =>
      update(params.email, { role: body.role }),
    ),
  };
  const platform = createRecordingDialogs();
  const onChanged = vi.fn();
  const flow = createApprovalsFlow({ api, platform, actorIsAdmin, onChanged });
  return { api, platform, flow, accounts, onChanged };
}

const emails = (items: readonly User[]) => items.map((u) => u.email);

describe('pending approvals', () => {
  it('loads the pending accounts (status=pending)', async () => {
    const { api, flow } = setup(true);
    expect(flow.getState().status).toBe('loading');
    await flow.send({ type: 'reload' });
    expect(api.listUsers).toHaveBeenCalledWith({ query: { status: 'pending' } });
    expect(emails(flow.getState().items)).toEqual(['paul@example.org', 'pia@example.org']);
  });

  it('admin approves and answers OK: the account becomes Officer', async () => {
    const { flow, platform, accounts, onChanged } = setup(true);
    await flow.send({ type: 'reload' });
    platform.answerConfirms(true);
    await flow.send({ type: 'approve', email: 'paul@example.org' });
    expect(platform.confirms).toEqual([
      'Make Paul Pending an Officer? Choose Cancel to make them a Volunteer.',
    ]);
    expect(platform.alerts).toEqual([messages.roleUpdated]);
    expect(accounts.get('paul@example.org')).toMatchObject({ approved: true, role: 'officer' });
    expect(emails(flow.getState().items)).toEqual(['pia@example.org']);
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('admin approves and answers Cancel: the account becomes Volunteer', async () => {
    const { flow, platform, api, accounts } = setup(true);
    await flow.send({ type: 'reload' });
    platform.answerConfirms(false);
    await flow.send({ type: 'approve', email: 'pia@example.org' });
    expect(api.setUserRole).toHaveBeenCalledWith({
      params: { email: 'pia@example.org' },
      body: { role: 'volunteer' },
    });
    expect(platform.alerts).toEqual([messages.roleSetToVolunteer]);
    expect(accounts.get('pia@example.org')).toMatchObject({ approved: true, role: 'volunteer' });
  });

  it('an officer approves without a question and sets no role', async () => {
    const { flow, platform, api } = setup(false);
    await flow.send({ type: 'reload' });
    await flow.send({ type: 'approve', email: 'paul@example.org' });
    expect(platform.confirms).toEqual([]);
    expect(platform.alerts).toEqual([]);
    expect(api.setUserRole).not.toHaveBeenCalled();
    expect(emails(flow.getState().items)).toEqual(['pia@example.org']);
  });

  it('Set Role asks the admin; Set Volunteer sets volunteer; both keep the account pending', async () => {
    const { flow, platform, accounts } = setup(true);
    await flow.send({ type: 'reload' });
    platform.answerConfirms(true);
    await flow.send({ type: 'setRole', email: 'paul@example.org' });
    expect(accounts.get('paul@example.org')).toMatchObject({ approved: false, role: 'officer' });
    await flow.send({ type: 'setVolunteer', email: 'paul@example.org' });
    expect(accounts.get('paul@example.org')).toMatchObject({ approved: false, role: 'volunteer' });
    expect(platform.alerts).toEqual([messages.roleUpdated, messages.roleSetToVolunteer]);
    expect(emails(flow.getState().items)).toEqual(['paul@example.org', 'pia@example.org']);
  });

  it('a refused action is shown in an alert and the list reloaded', async () => {
    const { flow, platform, api } = setup(false);
    await flow.send({ type: 'reload' });
    api.approveUser.mockRejectedValueOnce(new ApiError('http', 403, 'Forbidden'));
    await flow.send({ type: 'approve', email: 'paul@example.org' });
    expect(platform.alerts).toEqual(['Forbidden']);
    expect(flow.getState()).toMatchObject({ status: 'ready', busy: null });
    expect(api.listUsers).toHaveBeenCalledTimes(2);
  });

  it('marks the account being worked on as busy while the call runs', async () => {
    const { flow, api } = setup(false);
    await flow.send({ type: 'reload' });
    let release!: () => void;
    api.approveUser.mockImplementationOnce(
      () =>
        new Promise(
          (resolve) =>
            (release = () => resolve({ ok: true, user: createTestUser({ email: 'paul@example.org' }) })),
        ),
    );
    const approving = flow.send({ type: 'approve', email: 'paul@example.org' });
    expect(flow.getState().busy).toBe('paul@example.org');
    // A second click meanwhile does nothing.
    await flow.send({ type: 'approve', email: 'pia@example.org' });
    expect(api.approveUser).toHaveBeenCalledTimes(1);
    release();
    await approving;
    expect(flow.getState().busy).toBeNull();
  });

  it('a failed load is shown as an alert and kept in the state', async () => {
    const { flow, platform, api } = setup(true);
    api.listUsers.mockRejectedValueOnce(new ApiError('http', 500, 'Server error'));
    await flow.send({ type: 'reload' });
    expect(flow.getState()).toMatchObject({ status: 'error', error: 'Server error' });
    expect(platform.alerts).toEqual(['Server error']);
  });
});
