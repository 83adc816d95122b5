import { createNewClientFlow } from '@vita-docs/core';
import { useEffect } from 'react';
import type { FormEvent } from 'react';
import { Link, Navigate } from '../../app/router';
import { paths } from '../../app/paths';
import { useServices } from '../../app/services';
import { Field } from '../../components/field';
import { submitted } from '../../components/form';
import { Page } from '../../components/page';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';
import { useFormDraft } from '../../hooks/use-form-draft';

/** `/clients/new`: "Create New Client", then straight to the new client's documents. */
export function NewClientScreen() {
  const { api, platform } = useServices();
  const flow = useFlowInstance(() => createNewClientFlow({ api, platform }));
  const state = useFlow(flow);
  // What is typed survives a sign-in round trip (the PIN is never kept: a password field).
  const { form: draftForm, discard: discardDraft } = useFormDraft('new-client');
  const done = state.status === 'done';
  useEffect(() => {
    if (done) discardDraft();
  }, [done, discardDraft]);
  if (state.status === 'done') return <Navigate to={paths.clientDocs(state.client.clientId)} replace />;

  function submit(event: FormEvent<HTMLFormElement>) {
    const field = submitted(event);
    void flow.send({
      type: 'submit',
      firstName: field('firstName'),
      lastName: field('lastName'),
      email: field('email'),
      phone: field('phone'),
      pin: field('pin'),
    });
  }

  const busy = state.status === 'submitting';
  return (
    <Page title="Create New Client">
      <form className="form" ref={draftForm} onSubmit={submit} aria-busy={busy}>
        <Field label="First name" name="firstName" autoComplete="off" required />
        <Field label="Last name" name="lastName" autoComplete="off" required />
        <Field label="Email" name="email" type="email" autoComplete="off" required />
        <Field label="Phone" name="phone" type="tel" autoComplete="off" required />
        <Field
          label="Client PIN (optional)"
          name="pin"
          type="password"
          autoComplete="new-password"
          hint="Leave empty if the client has none."
        />
        <div className="actions">
          <button className="button button--primary" type="submit" disabled={busy}>
            Create Client
          </button>
          <Link className="button" to={paths.home}>
            Cancel
          </Link>
        </div>
      </form>
    </Page>
  );
}
