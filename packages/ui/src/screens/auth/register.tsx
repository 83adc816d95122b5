import { createRegisterFlow, MIN_PIN_LENGTH } from '@vita-docs/core';
import type { FormEvent } from 'react';
import { Navigate } from '../../app/router';
import { paths } from '../../app/paths';
import { useServices } from '../../app/services';
import { Field } from '../../components/field';
import { submitted } from '../../components/form';
import { Page } from '../../components/page';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';

/** `/register`: the "New Volunteer Account" form → /register/pending. */
export function RegisterScreen() {
  const { api, platform } = useServices();
  const flow = useFlowInstance(() => createRegisterFlow({ api, platform }));
  const state = useFlow(flow);
  if (state.status === 'done') {
    return <Navigate to={paths.registerPending} state={{ approved: state.approved }} />;
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    const field = submitted(event);
    void flow.send({
      type: 'submit',
      firstName: field('firstName'),
      lastName: field('lastName'),
      email: field('email'),
      pin: field('pin'),
    });
  }

  const busy = state.status === 'submitting';
  return (
    <Page title="New Volunteer Account">
      <form className="form" onSubmit={submit} aria-busy={busy}>
        <Field label="First name" name="firstName" autoComplete="given-name" required />
        <Field label="Last name" name="lastName" autoComplete="family-name" required />
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <Field
          label="Password PIN"
          name="pin"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PIN_LENGTH} characters.`}
          required
        />
        <div className="actions">
          <button className="button button--primary" type="submit" disabled={busy}>
            Submit
          </button>
        </div>
      </form>
    </Page>
  );
}
