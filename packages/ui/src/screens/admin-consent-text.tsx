import {
  CLIENT_LINK_TEXTS,
  CONSENT_TEXT_MAX,
  createConsentTextFlow,
  type ClientLinkLanguage,
} from '@vita-docs/core';
import { useId } from 'react';
import { useServices } from '../app/services';
import { SaveStatus } from '../components/save-status';
import { useLoadedFlow } from '../hooks/use-flow';
import { consentTextTexts as T } from '../texts';

const LANGUAGES: readonly { language: ClientLinkLanguage; label: string }[] = [
  { language: 'en', label: T.english },
  { language: 'es', label: T.spanish },
];

/**
 * On /admin/settings: the consent statement a client ticks before the first upload through a request
 * link (docs/behaviour.md#settings-screen), per language; empty keeps the default text.
 */
export function ConsentTextForm() {
  const { api } = useServices();
  const [flow, form] = useLoadedFlow(() => createConsentTextFlow({ api }));
  const id = useId();
  if (form.status !== 'ready') return null;

  return (
    <form
      className="form"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        void flow.send({ type: 'save' });
      }}
    >
      <h2 id={`${id}-title`} className="panel__title">
        {T.title}
      </h2>
      <p className="field__hint">{T.hint(form.version)}</p>
      {LANGUAGES.map(({ language, label }) => (
        <div className="field" key={language}>
          <label className="field__label" htmlFor={`${id}-${language}`}>
            {label}
          </label>
          <textarea
            id={`${id}-${language}`}
            className="field__input"
            maxLength={CONSENT_TEXT_MAX}
            placeholder={CLIENT_LINK_TEXTS[language].consent}
            value={form.texts[language]}
            onChange={(e) => void flow.send({ type: 'setText', language, text: e.currentTarget.value })}
          />
        </div>
      ))}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={form.saving}>
          Save
        </button>
      </div>
      <SaveStatus outcome={form.outcome} />
    </form>
  );
}
