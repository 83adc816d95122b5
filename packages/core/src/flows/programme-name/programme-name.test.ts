import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createProgrammeNameFlow, type ProgrammeNameFlowOptions } from './programme-name.js';

function serverLike(): ProgrammeNameFlowOptions['api'] & { saved: { name: string } } {
  const saved = { name: 'VITA Documents' };
  return {
    saved,
    getProgrammeName: async () => ({ ...saved }),
    setProgrammeName: async ({ body }) => {
      if (!body.name.trim()) throw new ApiError('http', 400, 'Enter the programme name.');
      saved.name = body.name.trim();
      return { ...saved };
    },
  };
}

describe('Settings: the programme name', () => {
  it('loads the default, saves a new name, and says why an empty one is refused', async () => {
    const api = serverLike();
    const flow = createProgrammeNameFlow({ api });
    await flow.send({ type: 'load' });
    expect(flow.getState()).toMatchObject({ status: 'ready', name: 'VITA Documents' });
    await flow.send({ type: 'setName', name: ' Site 12 Tax Help ' });
    await flow.send({ type: 'save' });
    expect(api.saved.name).toBe('Site 12 Tax Help');
    expect(flow.getState()).toMatchObject({ name: 'Site 12 Tax Help', outcome: { saved: true } });
    await flow.send({ type: 'setName', name: ' ' });
    await flow.send({ type: 'save' });
    expect(flow.getState()).toMatchObject({
      outcome: { saved: false, error: 'Enter the programme name.' },
    });
    expect(api.saved.name).toBe('Site 12 Tax Help');
  });
});
