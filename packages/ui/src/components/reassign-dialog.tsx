import { canConfirmReassign, createReassignFlow, fullName, messages } from '@vita-docs/core';
import { useEffect, useId, useRef } from 'react';
import { useServices } from '../app/services';
import { useFlow, useFlowInstance } from '../hooks/use-flow';
import { Modal } from './modal';
import { Loading } from './page';

interface ReassignDialogProps {
  clientId: string;
  clientName: string;
  /** Known on pages that list the client (its email is part of the admin reassign call). */
  clientEmail?: string;
  /** After a successful reassignment (the flow has shown "Client reassigned."). */
  onReassigned: (newVolunteerEmail: string) => void;
  onClose: () => void;
}

/**
 * The Reassign modal (docs/behaviour.md#orphaned-clients-and-reassignment): a "New Volunteer" picker,
 * No and Yes, Reassign (disabled until a volunteer is chosen), or the empty-list text. Used by the
 * dashboard and the Client Documents page.
 */
export function ReassignDialog({
  clientId,
  clientName,
  clientEmail,
  onReassigned,
  onClose,
}: ReassignDialogProps) {
  const { api, platform } = useServices();
  const flow = useFlowInstance(() => createReassignFlow({ api, platform, clientId }));
  const state = useFlow(flow);
  const pickerId = useId();

  const reassigned = useRef(onReassigned);
  useEffect(() => {
    reassigned.current = onReassigned;
  });
  useEffect(() => {
    // Subscribed before opening, so the end of a save is never missed.
    const unsubscribe = flow.subscribe((now, before) => {
      if (before.status === 'saving' && now.status === 'closed' && now.owner?.kind === 'volunteer') {
        reassigned.current(now.owner.email);
      }
    });
    void flow.send({ type: 'open', clientEmail });
    return unsubscribe;
  }, [flow, clientEmail]);

  const cancel = () => {
    void flow.send({ type: 'cancel' });
    onClose();
  };
  const choosing = state.status === 'choosing' || state.status === 'saving';
  return (
    <Modal
      title="Reassign Client"
      onClose={cancel}
      actions={
        <>
          <button type="button" className="button" onClick={cancel}>
            No
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={!canConfirmReassign(state)}
            onClick={() => void flow.send({ type: 'confirm' })}
          >
            Yes, Reassign
          </button>
        </>
      }
    >
      <p>Choose the volunteer who takes over {clientName}.</p>
      {!choosing && <Loading />}
      {choosing && state.volunteers.length === 0 && <p className="status">{messages.noVolunteersFound}</p>}
      {choosing && state.volunteers.length > 0 && (
        <div className="field">
          <label className="field__label" htmlFor={pickerId}>
            New Volunteer
          </label>
          <select
            id={pickerId}
            className="field__input"
            value={state.selected ?? ''}
            disabled={state.status === 'saving'}
            onChange={(event) => void flow.send({ type: 'choose', email: event.target.value || null })}
          >
            <option value="">Choose a volunteer…</option>
            {state.volunteers.map((v) => (
              <option key={v.email} value={v.email}>
                {`${fullName(v)} (${v.email})`}
              </option>
            ))}
          </select>
        </div>
      )}
    </Modal>
  );
}
