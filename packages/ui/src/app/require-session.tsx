import type { ReactNode } from 'react';
import { Navigate, useLocation } from './router';
import { Loading, Page } from '../components/page';
import { loginFor } from './paths';
import { useSession } from './session';

/**
 * Guards the client and document routes: without a session they send the person to login and back
 * here afterwards (/clients/new → /login?next=/clients/new).
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname } = useLocation();
  if (session.status === 'checking') {
    return (
      <Page title="Loading">
        <Loading />
      </Page>
    );
  }
  if (session.status === 'signedOut') return <Navigate to={loginFor(pathname)} replace />;
  return children;
}
