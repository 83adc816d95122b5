import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createConsentTextFlow, type ConsentTextFlowOptions } from './consent-text.js';

/** The two calls as the server answers them: trimmed texts, the version up on a change. */
function serverLike(): ConsentTextFlowOptions['api'] & {
  saved: { en: string; es: string; version: number };
} {
  const saved = { en: '', es: '', version: 1 };
  return {
    saved,
    getConsentText: async () => ({ ...saved }),
    setConsentText: async ({ body }) => {
      const en = body.en.trim();
      const es = body.es.trim();
      if (en.length > 2000) throw new ApiError('http', 400, 'The English statement is too long.');
      if (en !== saved.en || es !== saved.es) Object.assign(saved, { en, es, version: saved.version + 1 });
      return { ...saved };
    },
  };
}

describe('Settings: the consent statement of request links', () => {
  it('loads the statements (empty: the default) with their version', async () => {
    const flow = createConsentTextFlow({ api: serverLike() });
    await flow.send({ type: 'load' });
    expect(flow.getState()).toEqual({
      status: 'ready',
      texts: { en: '', es: '' },
      version: 1,
      saving: false,
      outcome: null,
    });
  });

  it('the admin writes the Spanish text and saves: Saved., a new version', async () => {
    const api = serverLike();
    const flow = createConsentTextFlow({ api });
    await flow.send({ type: 'load' });
    await flow.send({ type: 'setText', language: 'es', text: ' Acepto. ' });
    const saving = flow.send({ type: 'save' });
    expect(flow.getState()).toMatchObject({ saving: true, outcome: null });
    await saving;
    expect(api.saved).toEqual({ en: '', es: 'Acepto.', version: 2 });
    expect(flow.getState()).toEqual({
      status: 'ready',
      texts: { en: '', es: 'Acepto.' },
      version: 2,
      saving: false,
      outcome: { saved: true },
    });
  });

  it('the server’s refusal shows and the text stays as typed', async () => {
    const flow = createConsentTextFlow({ api: serverLike() });
    await flow.send({ type: 'load' });
    await flow.send({ type: 'setText', language: 'en', text: 'x'.repeat(2001) });
    await flow.send({ type: 'save' });
    expect(flow.getState()).toMatchObject({
      texts: { en: 'x'.repeat(2001), es: '' },
      version: 1,
      outcome: { saved: false, error: 'The English statement is too long.' },
    });
  });

  it('a statement that cannot be loaded shows the error', async () => {
    const api = serverLike();
    api.getConsentText = async () => {
      throw new ApiError('http', 500, 'Server error');
    };
    const flow = createConsentTextFlow({ api });
    await flow.send({ type: 'load' });
    expect(flow.getState()).toEqual({ status: 'error', error: 'Server error' });
  });
});
