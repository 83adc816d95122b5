import { CODE_LENGTH, createLoginFlow, createResendFlow, messages } from '@vita-docs/core';
import { useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from '../../app/router';
import { nextQuery, paths, safeNext } from '../../app/paths';
import { useServices } from '../../app/services';
import { useSessionFlow } from '../../app/session';
import { CodeForm } from '../../components/code-form';
import { PasskeySignIn } from '../../components/passkey-sign-in';
import { Page } from '../../components/page';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';

/** `/login/verify`: the emailed 6-digit code, Submit and Resend code → /home (or `next`). */
export function LoginVerifyScreen() {
  const { api, platform, clock, sessionStorage } = useServices();
  const session = useSessionFlow();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const next = safeNext(search.get('next'));
  const flow = useFlowInstance(() =>
    createLoginFlow({ api, platform, storage: sessionStorage, step: 'code' }),
  );
  const state = useFlow(flow);
  const email = state.status === 'signedIn' ? state.user.email : state.email;
  const resend = useFlowInstance(() =>
    createResendFlow({ resend: () => api.loginResend({ body: { email } }), clock, platform }),
  );

  useEffect(() => {
    if (state.status !== 'signedIn') return;
    void session.send({ type: 'signedIn', user: state.user });
    void navigate(next ?? paths.home, { replace: true });
  }, [state, session, navigate, next]);

  // Without the email kept by /login there is nothing to verify: start there.
  if (state.status === 'credentials') return <Navigate to={`${paths.login}${nextQuery(next)}`} replace />;

  // Under the passkey rule, an admin or officer who owns a passkey signs in with it, not with the code.
  if (state.status === 'passkeyRequired') {
    return (
      <Page title={messages.passkeySignIn}>
        <p className="status status--error" role="alert">
          {state.error}
        </p>
        <PasskeySignIn
          onSignedIn={(user) => {
            void session.send({ type: 'signedIn', user });
            void navigate(next ?? paths.home, { replace: true });
          }}
        />
      </Page>
    );
  }

  const busy = state.status === 'verifying' || state.status === 'signedIn';
  return (
    <Page title="Enter your code">
      <p>
        We emailed a {CODE_LENGTH}-digit code to <strong>{email}</strong>. It can take up to a minute to
        arrive.
      </p>
      <CodeForm busy={busy} resend={resend} onCode={(code) => void flow.send({ type: 'submitCode', code })} />
    </Page>
  );
}
