import { createLoginFlow, messages } from '@vita-docs/core';
import type { FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from '../../app/router';
import { nextQuery, paths, safeNext } from '../../app/paths';
import { useServices } from '../../app/services';
import { useSession, useSessionFlow } from '../../app/session';
import { PasskeySignIn } from '../../components/passkey-sign-in';
import { Field } from '../../components/field';
import { submitted } from '../../components/form';
import { Page } from '../../components/page';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';

/**
 * `/login` (docs/behaviour.md#login-screen): `Sign in with a passkey` (where offered), then email and
 * Password PIN; the email is kept for the session → /login/verify.
 */
export function LoginScreen() {
  const { api, platform, sessionStorage } = useServices();
  const [search] = useSearchParams();
  const next = safeNext(search.get('next'));
  const flow = useFlowInstance(() => createLoginFlow({ api, platform, storage: sessionStorage }));
  const state = useFlow(flow);
  const sessionFlow = useSessionFlow();
  const session = useSession();
  const navigate = useNavigate();
  if (state.status === 'code') return <Navigate to={`${paths.loginVerify}${nextQuery(next)}`} />;

  function submit(event: FormEvent<HTMLFormElement>) {
    const field = submitted(event);
    void flow.send({ type: 'submitCredentials', email: field('email'), pin: field('pin') });
  }

  const busy = state.status === 'sendingCode';
  return (
    <Page title="Login">
      {session.status === 'signedOut' && session.reason === 'role_changed' && (
        <p className="status status--error" role="alert">
          {messages.roleChanged}
        </p>
      )}
      <PasskeySignIn
        onSignedIn={(user) => {
          void sessionFlow.send({ type: 'signedIn', user });
          void navigate(next ?? paths.home, { replace: true });
        }}
      />
      <form className="form" onSubmit={submit} aria-busy={busy}>
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          defaultValue={state.status === 'signedIn' ? '' : state.email}
          required
        />
        <Field label="Password PIN" name="pin" type="password" autoComplete="current-password" required />
        <div className="actions">
          <button className="button button--primary" type="submit" disabled={busy}>
            Login
          </button>
          <Link to={paths.forgot}>Forgot Password</Link>
        </div>
      </form>
      <p>
        New volunteer? <Link to={paths.register}>Register</Link>
      </p>
    </Page>
  );
}
