import type { RenameFlow } from '@vita-docs/core';
import { Field } from '../../components/field';
import { FormModal } from '../../components/modal';
import { useFlow } from '../../hooks/use-flow';

/** The "Rename Document" dialog; the rules (trim, empty refused, extension kept) are the flow's. */
export function RenameDialog({ flow }: { flow: RenameFlow }) {
  const state = useFlow(flow);
  if (state.status === 'closed') return null;
  const saving = state.status === 'saving';
  return (
    <FormModal
      title="Rename Document"
      submitLabel="Save"
      saving={saving}
      canSubmit={!saving}
      onCancel={() => void flow.send({ type: 'cancel' })}
      onSubmit={() => void flow.send({ type: 'save' })}
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
    </FormModal>
  );
}
