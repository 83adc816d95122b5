import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createMyReadingFlow, createProgrammeReadingFlow } from './reading-switches.js';

describe('Account: Check documents on this device', () => {
  it('loads both switches and saves the person’s own as it is ticked', async () => {
    const saved = { mine: true, programme: true };
    const flow = createMyReadingFlow({
      api: {
        myReading: async () => ({ ...saved }),
        setMyReading: async ({ body }) => {
          saved.mine = body.on;
          return { ...saved };
        },
      },
    });
    await flow.send({ type: 'load' });
    expect(flow.getState()).toEqual({
      status: 'ready',
      on: true,
      programme: true,
      saving: false,
      outcome: null,
    });
    await flow.send({ type: 'set', on: false });
    expect(saved.mine).toBe(false);
    expect(flow.getState()).toEqual({
      status: 'ready',
      on: false,
      programme: true,
      saving: false,
      outcome: { saved: true },
    });
  });

  it('a refused change shows why and puts the box back as saved', async () => {
    const flow = createMyReadingFlow({
      api: {
        myReading: async () => ({ mine: true, programme: false }),
        setMyReading: async () => {
          throw new ApiError('http', 400, 'on: Expected true or false.');
        },
      },
    });
    await flow.send({ type: 'load' });
    await flow.send({ type: 'set', on: false });
    expect(flow.getState()).toEqual({
      status: 'ready',
      on: true,
      programme: false,
      saving: false,
      outcome: { saved: false, error: 'on: Expected true or false.' },
    });
  });
});

describe('Settings: Check documents on the device', () => {
  it('saves the programme’s switch as it is ticked', async () => {
    let on = true;
    const flow = createProgrammeReadingFlow({
      api: {
        myReading: async () => ({ mine: true, programme: on }),
        setProgrammeReading: async ({ body }) => {
          on = body.on;
          return { on };
        },
      },
    });
    await flow.send({ type: 'load' });
    expect(flow.getState()).toMatchObject({ status: 'ready', on: true });
    await flow.send({ type: 'set', on: false });
    expect(on).toBe(false);
    expect(flow.getState()).toMatchObject({ on: false, outcome: { saved: true } });
  });
});
