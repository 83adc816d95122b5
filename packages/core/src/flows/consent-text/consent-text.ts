/**
 * The Settings screen's consent statement form (docs/behaviour.md#settings-screen): the statement a client
 * ticks before the first upload through a request link, per language. Empty means the default text; each
 * saved change counts up the version a client's consent is audited with.
 */
import type { ApiClient } from '../../api/client.js';
import type { ClientLinkLanguage } from '../../client-link/languages.js';
import type { Flow } from '../../store.js';
import { createSettingsForm } from '../settings-form/settings-form.js';
import type { SaveOutcome, SettingsFormState } from '../settings-form/settings-form.js';

/** How the last Save went: saved, or the server's refusal. */
export type ConsentTextOutcome = SaveOutcome;

export type ConsentTextState = SettingsFormState<{
  /** The statements as typed ('' = the default text). */
  texts: Record<ClientLinkLanguage, string>;
  /** The saved statement's version. */
  version: number;
}>;

export type ConsentTextEvent =
  { type: 'load' } | { type: 'setText'; language: ClientLinkLanguage; text: string } | { type: 'save' };

export type ConsentTextFlow = Flow<ConsentTextState, ConsentTextEvent>;

export interface ConsentTextFlowOptions {
  api: Pick<ApiClient, 'getConsentText' | 'setConsentText'>;
}

/** Creates the consent statement form's flow. It starts in `loading`: send `load`. */
export function createConsentTextFlow({ api }: ConsentTextFlowOptions): ConsentTextFlow {
  const saved = ({ en, es, version }: { en: string; es: string; version: number }) => ({
    texts: { en, es },
    version,
  });
  const form = createSettingsForm({
    read: async () => saved(await api.getConsentText()),
    write: async ({ texts }) => saved(await api.setConsentText({ body: texts })),
  });
  const { store } = form;

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      switch (event.type) {
        case 'load':
          return form.load();
        case 'setText': {
          const state = store.getState();
          if (state.status === 'ready')
            form.edit({ texts: { ...state.texts, [event.language]: event.text } });
          return;
        }
        case 'save':
          return form.save();
      }
    },
  };
}
