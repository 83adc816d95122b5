import {
  CODE_LENGTH,
  createForgotFlow,
  createResendFlow,
  MIN_PIN_LENGTH,
  passkeyMessages,
} from '@vita-docs/core';
import type { FormEvent } from 'react';
import { Navigate } from '../../app/router';
import { paths } from '../../app/paths';
import { useServices } from '../../app/services';
import { CodeForm } from '../../components/code-form';
import { Field } from '../../components/field';
import { submitted } from '../../components/form';
import { Page } from '../../components/page';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';

type Step = 'email' | 'code' | 'newPin';

/** One forgot-password page's flow; the email travels between the pages in session storage. */
function useForgotFlow(step: Step) {
  const { api, platform, sessionStorage } = useServices();
  const flow = useFlowInstance(() => createForgotFlow({ api, platform, storage: sessionStorage, step }));
  return { flow, state: useFlow(flow) };
}

/** `/forgot` (docs/behaviour.md#forgot-password-screens): an email and Send Code → /forgot/verify. */
export function ForgotScreen() {
  const { flow, state } = useForgotFlow('email');
  if (state.status === 'code') return <Navigate to={paths.forgotVerify} />;
  const busy = state.status === 'sendingCode';
  return (
    <Page title="Forgot Password">
      <p>Enter the email of your account and we will send you a {CODE_LENGTH}-digit code.</p>
      <form
        className="form"
        aria-busy={busy}
        onSubmit={(event) => void flow.send({ type: 'submitEmail', email: submitted(event)('email') })}
      >
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={'email' in state ? state.email : ''}
          required
        />
        <div className="actions">
          <button className="button button--primary" type="submit" disabled={busy}>
            Send Code
          </button>
        </div>
      </form>
    </Page>
  );
}

/** `/forgot/verify`: the code (numeric, at most 6), Submit and Resend code → /forgot/reset. */
export function ForgotVerifyScreen() {
  const { api, platform, clock } = useServices();
  const { flow, state } = useForgotFlow('code');
  const email = 'email' in state ? state.email : '';
  const resend = useFlowInstance(() =>
    createResendFlow({ resend: () => api.forgotResend({ body: { email } }), clock, platform }),
  );
  if (state.status === 'email') return <Navigate to={paths.forgot} replace />;
  if (state.status === 'newPin') return <Navigate to={paths.forgotReset} />;
  const busy = state.status === 'verifying';
  return (
    <Page title="Enter your code">
      <p>
        If an account exists for <strong>{email}</strong>, we emailed it a {CODE_LENGTH}-digit code.
      </p>
      <CodeForm busy={busy} resend={resend} onCode={(code) => void flow.send({ type: 'submitCode', code })} />
    </Page>
  );
}

/** `/forgot/reset`: New Password, Confirm New Password, Save → alert → /login. */
export function ForgotResetScreen() {
  const { flow, state } = useForgotFlow('newPin');
  if (state.status === 'email') return <Navigate to={paths.forgot} replace />;
  if (state.status === 'done') return <Navigate to={paths.login} replace />;

  function submit(event: FormEvent<HTMLFormElement>) {
    const field = submitted(event);
    void flow.send({
      type: 'submitNewPin',
      newPin1: field('newPin1'),
      newPin2: field('newPin2'),
      removePasskeys: field('removePasskeys') === 'on',
    });
  }

  const busy = state.status === 'saving';
  return (
    <Page title="Set a new password">
      <form className="form" aria-busy={busy} onSubmit={submit}>
        <Field
          label="New Password"
          name="newPin1"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PIN_LENGTH} characters.`}
          required
        />
        <Field
          label="Confirm New Password"
          name="newPin2"
          type="password"
          autoComplete="new-password"
          required
        />
        {/* The reset mail lists the account's passkeys: one that is not theirs goes with the old PIN. */}
        <label className="checkbox">
          <input type="checkbox" name="removePasskeys" />
          {passkeyMessages.removeAll}
        </label>
        <div className="actions">
          <button className="button button--primary" type="submit" disabled={busy}>
            Save
          </button>
        </div>
      </form>
    </Page>
  );
}
