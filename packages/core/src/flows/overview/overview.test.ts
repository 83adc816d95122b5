import { describe, expect, it } from 'vitest';
import { createFakeApi } from '../../testing/index.js';
import { createOverviewFlow, lastThirtyDays } from './overview.js';

describe('programme overview', () => {
  it('loads the figures: clients, complete ones, uploads per day, per volunteer', async () => {
    const api = createFakeApi();
    api.addUser({ email: 'vera@example.org', firstName: 'Vera', lastName: 'Volunteer' });
    const ada = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
    api.addClient({ firstName: 'Bo', createdBy: null });
    api.addDoc(ada.clientId, 'Banking Info', 'bank.pdf');
    const flow = createOverviewFlow({ api });
    expect(flow.getState()).toEqual({ status: 'loading' });
    await flow.send({ type: 'load' });
    const state = flow.getState();
    expect(state.status === 'ready' && state.overview).toMatchObject({
      clients: 2,
      complete: 0,
      uploadsPerDay: [{ day: '2025-01-15', count: 1 }],
      volunteers: [
        { email: null, name: null, clients: 1, complete: 0, missing: 5 },
        { email: 'vera@example.org', name: 'Vera Volunteer', clients: 1, complete: 0, missing: 4 },
      ],
    });
  });

  it('shows why it could not be loaded', async () => {
    const api = createFakeApi();
    api.failNext('overview');
    const flow = createOverviewFlow({ api });
    await flow.send({ type: 'load' });
    expect(flow.getState()).toEqual({ status: 'error', error: 'Server error' });
  });

  it('charts the last 30 days up to today (UTC), days without uploads as 0', () => {
    const now = Date.UTC(2026, 10, 20, 23, 30);
    const days = lastThirtyDays(
      [
        { day: '2026-11-20', count: 61 },
        { day: '2026-10-22', count: 2 },
        { day: '2026-10-21', count: 9 }, // 31 days ago: not shown
      ],
      now,
    );
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: '2026-10-22', count: 2 });
    expect(days[1]).toEqual({ day: '2026-10-23', count: 0 });
    expect(days.at(-1)).toEqual({ day: '2026-11-20', count: 61 });
  });
});
