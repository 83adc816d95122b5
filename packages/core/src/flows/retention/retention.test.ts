import { describe, expect, it } from 'vitest';
import { createFakeApi } from '../../testing/index.js';
import { createRetentionFlow, retentionDaysValid } from './retention.js';

async function setup(days: number | null = null) {
  const api = createFakeApi();
  api.world.retentionDays = days;
  const flow = createRetentionFlow({ api });
  await flow.send({ type: 'load' });
  return { api, flow };
}

describe('Settings: the retention rule', () => {
  it('shows the rule off with 180 days offered when none is set', async () => {
    const { flow } = await setup();
    expect(flow.getState()).toEqual({
      status: 'ready',
      on: false,
      days: '180',
      saving: false,
      outcome: null,
      reach: null,
    });
  });

  it('shows a rule that is set, with its days and what it will touch', async () => {
    const { flow } = await setup(30);
    expect(flow.getState()).toMatchObject({
      on: true,
      days: '30',
      reach: { clients: 0, nextDeletionOn: null },
    });
  });

  it('the admin switches it on, chooses the days and saves: Saved.', async () => {
    const { api, flow } = await setup();
    await flow.send({ type: 'setOn', on: true });
    await flow.send({ type: 'setDays', days: '90' });
    const saving = flow.send({ type: 'save' });
    expect(flow.getState()).toMatchObject({ saving: true, outcome: null });
    await saving;
    expect(api.world.retentionDays).toBe(90);
    expect(flow.getState()).toEqual({
      status: 'ready',
      on: true,
      days: '90',
      saving: false,
      outcome: { saved: true },
      reach: { clients: 0, nextDeletionOn: null },
    });
  });

  it('switching it off saves null and keeps the days on offer', async () => {
    const { api, flow } = await setup(45);
    await flow.send({ type: 'setOn', on: false });
    await flow.send({ type: 'save' });
    expect(api.calls.at(-1)?.args).toEqual({ body: { days: null } });
    expect(flow.getState()).toMatchObject({ on: false, days: '45', outcome: { saved: true } });
  });

  it('the server’s refusal shows in the status line and the form stays as typed', async () => {
    const { api, flow } = await setup();
    await flow.send({ type: 'setOn', on: true });
    await flow.send({ type: 'setDays', days: '3' });
    await flow.send({ type: 'save' });
    expect(api.world.retentionDays).toBeNull();
    expect(flow.getState()).toMatchObject({
      on: true,
      days: '3',
      saving: false,
      outcome: { saved: false, error: 'Choose between 7 and 365 days.' },
    });
  });

  it('a rule that cannot be loaded shows the error', async () => {
    const api = createFakeApi();
    api.failNext('getRetention');
    const flow = createRetentionFlow({ api });
    await flow.send({ type: 'load' });
    expect(flow.getState()).toEqual({ status: 'error', error: 'Server error' });
  });
});

describe('days after submission, as typed', () => {
  it('a whole number from 7 to 365', () => {
    expect(['7', '180', '365'].map(retentionDaysValid)).toEqual([true, true, true]);
    expect(['6', '366', '', ' ', '7.5', 'abc'].map(retentionDaysValid)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
