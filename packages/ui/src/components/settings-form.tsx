import type { SaveOutcome } from '@vita-docs/core';
import type { ReactNode } from 'react';
import { SaveStatus } from './save-status';

/**
 * One of /admin/settings' forms saved with its own Save: its title (naming the form, `${id}-title`),
 * its fields, Save (disabled while saving) and what became of the last save.
 */
export function SettingsForm(props: {
  id: string;
  title: string;
  saving: boolean;
  outcome: SaveOutcome | null;
  onSave: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className="form"
      aria-labelledby={`${props.id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSave();
      }}
    >
      <h2 id={`${props.id}-title`} className="panel__title">
        {props.title}
      </h2>
      {props.children}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={props.saving}>
          Save
        </button>
      </div>
      <SaveStatus outcome={props.outcome} />
    </form>
  );
}
