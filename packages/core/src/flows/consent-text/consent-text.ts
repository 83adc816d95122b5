/**
 * The Settings screen's consent statement form (docs/behaviour.md#settings-screen): the statement a client
 * ticks before the first upload through a request link, per language. Empty means the default text; each
 * saved change counts up the version a client's consent is audited with.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { ClientLinkLanguage } from '../../client-link/texts.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

/** How the last Save went: saved, or the server's refusal. */
export type ConsentTextOutcome = { saved: true } | { saved: false; error: string };

export type ConsentTextState =
  | { status: 'loading' }
  | { status: 'error'; error: string }
  | {
      status: 'ready';
      /** The statements as typed ('' = the default text). */
      texts: Record<ClientLinkLanguage, string>;
      /** The saved statement's version. */
      version: number;
      saving: boolean;
      outcome: ConsentTextOutcome | null;
    };

export type ConsentTextEvent =
  { type: 'load' } | { type: 'setText'; language: ClientLinkLanguage; text: string } | { type: 'save' };

export type ConsentTextFlow = Flow<ConsentTextState, ConsentTextEvent>;

export interface ConsentTextFlowOptions {
  api: Pick<ApiClient, 'getConsentText' | 'setConsentText'>;
}

/** Creates the consent statement form's flow. It starts in `loading`: send `load`. */
export function createConsentTextFlow({ api }: ConsentTextFlowOptions): ConsentTextFlow {
  const store = createStore<ConsentTextState>({ status: 'loading' });

  async function load(): Promise<void> {
    try {
      const { en, es, version } = await api.getConsentText();
      store.setState({ status: 'ready', texts: { en, es }, version, saving: false, outcome: null });
    } catch (error) {
      store.setState({ status: 'error', error: errorMessage(error) });
    }
  }

  async function save(): Promise<void> {
    const form = store.getState();
    if (form.status !== 'ready' || form.saving) return;
    store.setState({ ...form, saving: true, outcome: null });
    let next: Partial<Extract<ConsentTextState, { status: 'ready' }>>;
    try {
      const { en, es, version } = await api.setConsentText({ body: form.texts });
      next = { texts: { en, es }, version, outcome: { saved: true } };
    } catch (error) {
      next = { outcome: { saved: false, error: errorMessage(error) } };
    }
    store.setState((s) => (s.status === 'ready' ? { ...s, ...next, saving: false } : s));
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      switch (event.type) {
        case 'load':
          return load();
        case 'setText':
          return store.setState((s) =>
            s.status === 'ready' ? { ...s, texts: { ...s.texts, [event.language]: event.text } } : s,
          );
        case 'save':
          return save();
      }
    },
  };
}
