import { createMyReadingFlow } from '@vita-docs/core';
import { useId } from 'react';
import { useServices } from '../app/services';
import { SaveStatus } from '../components/save-status';
import { useLoadedFlow } from '../hooks/use-flow';
import { readingSwitchTexts as T } from './reading-switch-texts';

/**
 * On /account: `Check documents on this device` (docs/behaviour.md#reading-documents), the person's
 * own switch, kept with the account and saved as it is ticked. While the programme's switch is off it
 * is disabled and says so: nothing is read whatever it says.
 */
export function OwnReadingForm() {
  const { api } = useServices();
  const [flow, form] = useLoadedFlow(() => createMyReadingFlow({ api }));
  const id = useId();
  if (form.status !== 'ready') return null;
  return (
    <form className="section" aria-labelledby={`${id}-title`} onSubmit={(e) => e.preventDefault()}>
      <h2 className="section__title" id={`${id}-title`}>
        {T.title}
      </h2>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={form.on}
          disabled={form.saving || !form.programme}
          {...(form.programme ? {} : { 'aria-describedby': `${id}-off` })}
          onChange={(e) => void flow.send({ type: 'set', on: e.currentTarget.checked })}
        />
        {T.mine}
      </label>
      {!form.programme && (
        <p className="field__hint" id={`${id}-off`}>
          {T.programmeOff}
        </p>
      )}
      <SaveStatus outcome={form.outcome} />
    </form>
  );
}
