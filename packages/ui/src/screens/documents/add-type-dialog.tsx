import { canAddType, CATEGORY_TEMPLATES, MAX_CATEGORY_NOTE_LENGTH } from '@vita-docs/core';
import type { ClientDocsFlow, ClientDocsState } from '@vita-docs/core';
import { useId } from 'react';
import { Field } from '../../components/field';
import { FormModal } from '../../components/modal';

/** "Add additional document": one of the 16 templates and an optional note; Add waits for a template. */
export function AddTypeDialog({ flow, state }: { flow: ClientDocsFlow; state: ClientDocsState }) {
  const pickerId = useId();
  if (!state.adding) return null;
  const { template, note, saving } = state.adding;
  return (
    <FormModal
      title="Add additional document"
      submitLabel="Add"
      saving={saving}
      canSubmit={canAddType(state)}
      onCancel={() => void flow.send({ type: 'cancelAdd' })}
      onSubmit={() => void flow.send({ type: 'confirmAdd' })}
    >
      <div className="field">
        <label className="field__label" htmlFor={pickerId}>
          Document type
        </label>
        <select
          id={pickerId}
          className="field__input"
          value={template ?? ''}
          disabled={saving}
          onChange={(event) =>
            void flow.send({ type: 'chooseTemplate', template: event.currentTarget.value })
          }
        >
          <option value="">Choose a type…</option>
          {CATEGORY_TEMPLATES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <Field
        label="Note (optional)"
        name="note"
        value={note}
        maxLength={MAX_CATEGORY_NOTE_LENGTH}
        autoComplete="off"
        readOnly={saving}
        hint="Added to the name in brackets, for example W-2 (Acme Inc.)."
        onChange={(event) => void flow.send({ type: 'changeNote', note: event.currentTarget.value })}
      />
    </FormModal>
  );
}
