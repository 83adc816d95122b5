import type { RenameFlow } from '@vita-docs/core';
import { useId } from 'react';
import { Field } from '../../components/field';
import { Modal } from '../../components/modal';
import { useFlow } from '../../hooks/use-flow';

/** The "Rename Document" dialog (SPEC §2, §5); the rules (trim, empty refused, extension kept) are the flow's. */
export function RenameDialog({ flow }: { flow: RenameFlow }) {
  const state = useFlow(flow);
  const formId = useId();
  if (state.status === 'closed') return null;
  const saving = state.status === 'saving';
  const cancel = () => void flow.send({ type: 'cancel' });
  return (
    <Modal
      title="Rename Document"
      onClose={cancel}
      actions={
        <>
          <button type="button" className="button" disabled={saving} onClick={cancel}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button button--primary" disabled={saving}>
            Save
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          void flow.send({ type: 'save' });
        }}
      >
        <p className="rename__current">
          Current name: <strong>{state.item.filename}</strong>
        </p>
        <Field
          label="New name"
          name="filename"
          value={state.value}
          autoFocus
          autoComplete="off"
          readOnly={saving}
          onChange={(event) => void flow.send({ type: 'change', value: event.currentTarget.value })}
        />
      </form>
    </Modal>
  );
}
