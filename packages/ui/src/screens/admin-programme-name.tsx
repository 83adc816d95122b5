import { createProgrammeNameFlow, PROGRAMME_NAME_MAX } from '@vita-docs/core';
import { useId } from 'react';
import { useServices } from '../app/services';
import { SaveStatus } from '../components/save-status';
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
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={form.saving}>
          Save
        </button>
      </div>
      <SaveStatus outcome={form.outcome} />
    </form>
  );
}
