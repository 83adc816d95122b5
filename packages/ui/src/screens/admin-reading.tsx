import { createProgrammeReadingFlow } from '@vita-docs/core';
import { useId } from 'react';
import { useServices } from '../app/services';
import { SaveStatus } from '../components/save-status';
import { useLoadedFlow } from '../hooks/use-flow';
import { readingSwitchTexts as T } from './reading-switch-texts';

/**
 * On /admin/settings: `Check documents on the device` (docs/behaviour.md#reading-documents), the
 * programme's switch, saved as it is ticked: off, no document is read anywhere.
 */
export function ProgrammeReadingForm() {
  const { api } = useServices();
  const [flow, form] = useLoadedFlow(() => createProgrammeReadingFlow({ api }));
  const id = useId();
  if (form.status !== 'ready') return null;
  return (
    <form className="form" aria-labelledby={`${id}-title`} onSubmit={(e) => e.preventDefault()}>
      <h2 id={`${id}-title`} className="panel__title">
        {T.title}
      </h2>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={form.on}
          disabled={form.saving}
          aria-describedby={`${id}-hint`}
          onChange={(e) => void flow.send({ type: 'set', on: e.currentTarget.checked })}
        />
        {T.programme}
      </label>
      <p className="field__hint" id={`${id}-hint`}>
        {T.programmeHint}
      </p>
      <SaveStatus outcome={form.outcome} />
    </form>
  );
}
