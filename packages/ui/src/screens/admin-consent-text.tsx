import {
  CLIENT_LINK_TEXTS,
  CONSENT_TEXT_MAX,
  createConsentTextFlow,
  type ClientLinkLanguage,
} from '@vita-docs/core';
import { useId, useLayoutEffect, useRef } from 'react';
import { useServices } from '../app/services';
import { SettingsForm } from '../components/settings-form';
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
    <SettingsForm
      id={id}
      title={T.title}
      saving={form.saving}
      outcome={form.outcome}
      onSave={() => void flow.send({ type: 'save' })}
    >
      <p className="field__hint">{T.hint(form.version)}</p>
      {LANGUAGES.map(({ language, label }) => (
        <div className="field" key={language}>
          <label className="field__label" htmlFor={`${id}-${language}`}>
            {label}
          </label>
          <GrowingTextarea
            id={`${id}-${language}`}
            maxLength={CONSENT_TEXT_MAX}
            placeholder={CLIENT_LINK_TEXTS[language].consent}
            value={form.texts[language]}
            onChange={(text) => void flow.send({ type: 'setText', language, text })}
          />
        </div>
      ))}
    </SettingsForm>
  );
}

/**
 * A text box as tall as its text (or, empty, its placeholder: the statement in use), so the admin
 * reads the whole statement without scrolling inside it. CSS `field-sizing: content` does it where the
 * browser has it; elsewhere the box is sized to its text after each change.
 */
function GrowingTextarea(props: {
  id: string;
  maxLength: number;
  placeholder: string;
  value: string;
  onChange: (text: string) => void;
}) {
  const box = useRef<HTMLTextAreaElement>(null);
  const { value } = props;
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || CSS.supports('field-sizing', 'content')) return;
    element.style.height = 'auto';
    element.style.height = `${element.scrollHeight + element.offsetHeight - element.clientHeight}px`;
  }, [value]);
  return (
    <textarea
      ref={box}
      id={props.id}
      className="field__input field__input--grow"
      maxLength={props.maxLength}
      placeholder={props.placeholder}
      value={value}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    />
  );
}
