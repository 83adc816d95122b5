import { canManageAllUsers, messages } from '@vita-docs/core';
import type { ReactNode } from 'react';
import { Link, Navigate } from '../app/router';
import { paths } from '../app/paths';
import { useSession } from '../app/session';
import { Loading, Page } from './page';

/** `Please sign in.` with a Login button, titled as the screen it stands for. */
export function PleaseSignIn({ title }: { title: string }) {
  return (
    <Page title={title} heading={messages.pleaseSignIn}>
      <div className="actions">
        <Link className="button button--primary" to={paths.login}>
          Login
        </Link>
      </div>
    </Page>
  );
}

/**
 * An admin screen's gate: a loading line while the session is checked, `Please sign in.` when
 * nobody is, /home for anyone but an admin, else the screen.
 */
export function AdminOnly({ title, children }: { title: string; children: ReactNode }) {
  const session = useSession();
  if (session.status === 'checking') {
    return (
      <Page title={title}>
        <Loading />
      </Page>
    );
  }
  if (session.status === 'signedOut') return <PleaseSignIn title={title} />;
  if (!canManageAllUsers(session.user)) return <Navigate to={paths.home} replace />;
  return children;
}
