import { createProgrammeNameFlow, PROGRAMME_NAME_MAX } from '@vita-docs/core';
import { useId } from 'react';
import { useServices } from '../app/services';
import { SettingsForm } from '../components/settings-form';
import { useLoadedFlow } from '../hooks/use-flow';
import { programmeNameTexts as T } from '../texts';

/**
 * On /admin/settings: the programme's name (docs/behaviour.md#settings-screen), which the client's
 * request page and every link mail name, so a client knows who is asking.
 */
export function ProgrammeNameForm() {
  const { api } = useServices();
  const [flow, form] = useLoadedFlow(() => createProgrammeNameFlow({ api }));
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
      <p className="field__hint" id={`${id}-hint`}>
        {T.hint}
      </p>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-name`}>
          {T.label}
        </label>
        <input
          id={`${id}-name`}
          className="field__input"
          maxLength={PROGRAMME_NAME_MAX}
          aria-describedby={`${id}-hint`}
          value={form.name}
          onChange={(e) => void flow.send({ type: 'setName', name: e.currentTarget.value })}
        />
      </div>
    </SettingsForm>
  );
}
