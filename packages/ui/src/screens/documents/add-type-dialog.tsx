import { CATEGORY_TEMPLATES, MAX_CATEGORY_NOTE_LENGTH } from '@vita-docs/core';
import { useId } from 'react';
import { canAddType } from '../../adapters/client-docs';
import type { ClientDocsFlow, ClientDocsState } from '../../adapters/client-docs';
import { Field } from '../../components/field';
import { Modal } from '../../components/modal';

/** "Add additional document" (SPEC §2): one of the 16 templates and an optional note; Add waits for a template. */
export function AddTypeDialog({ flow, state }: { flow: ClientDocsFlow; state: ClientDocsState }) {
  const pickerId = useId();
  const formId = useId();
  if (!state.adding) return null;
  const { template, note, saving } = state.adding;
  const cancel = () => void flow.send({ type: 'cancelAdd' });
  return (
    <Modal
      title="Add additional document"
      onClose={cancel}
      actions={
        <>
          <button type="button" className="button" disabled={saving} onClick={cancel}>
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            className="button button--primary"
            disabled={!canAddType(state)}
          >
            Add
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          void flow.send({ type: 'confirmAdd' });
        }}
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
      </form>
    </Modal>
  );
}
