import { createUserDetailFlow, fullName, messages } from '@vita-docs/core';
import type { UserDetailFlow, UserDetailState } from '@vita-docs/core';
import { useEffect } from 'react';
import { Link, Navigate, useParams } from '../app/router';
import { paths } from '../app/paths';
import { useServices } from '../app/services';
import { AdminOnly, PleaseSignIn } from '../components/admin-only';
import { Loading, Page } from '../components/page';
import { roleLabel } from '../components/tag';
import { UserPasskeys } from './admin-user-passkeys';
import { useFlow, useFlowInstance } from '../hooks/use-flow';

/** `/admin/users/{userEmail}`: admins only; others go to /home, signed-out people are asked to sign in. */
export function AdminUserScreen() {
  const { userEmail = '' } = useParams();
  return (
    <AdminOnly title="User">
      {/* A new flow per user: the route param changes without the screen unmounting. */}
      <UserDetail key={userEmail} email={userEmail} />
    </AdminOnly>
  );
}

function UserDetail({ email }: { email: string }) {
  const { api, platform } = useServices();
  const flow = useFlowInstance(() => createUserDetailFlow({ api, platform, email }));
  const state = useFlow(flow);
  useEffect(() => {
    void flow.send({ type: 'load' });
  }, [flow]);

  switch (state.status) {
    case 'loading':
      return (
        <Page title="User">
          <Loading />
        </Page>
      );
    case 'signedOut':
      return <PleaseSignIn title="User" />;
    case 'forbidden':
      return <Navigate to={paths.home} replace />;
    case 'notFound':
    case 'error':
      return (
        <Page title="User" heading={state.status === 'notFound' ? messages.userNotFound : state.error}>
          <BackLink />
        </Page>
      );
    case 'ready':
      return <UserCard flow={flow} state={state} />;
  }
}

function UserCard({
  flow,
  state,
}: {
  flow: UserDetailFlow;
  state: Extract<UserDetailState, { status: 'ready' }>;
}) {
  const { user, busy } = state;
  const name = fullName(user);
  return (
    <Page title={`User ${name}`} heading={`User • ${name}`}>
      <dl className="facts">
        <dt>Email</dt>
        <dd>{user.email}</dd>
        <dt>Status</dt>
        <dd>{user.approved ? 'Approved' : 'Pending approval'}</dd>
        <dt>Role</dt>
        <dd>{user.isAdmin ? 'Admin' : roleLabel(user.role)}</dd>
      </dl>
      <div className="actions">
        {!user.approved && (
          <button
            type="button"
            className="button button--primary"
            disabled={busy}
            onClick={() => void flow.send({ type: 'approve' })}
          >
            Approve
          </button>
        )}
        {!user.isAdmin && user.role !== 'officer' && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void flow.send({ type: 'setRole', role: 'officer' })}
          >
            Make Officer
          </button>
        )}
        {!user.isAdmin && user.role !== 'volunteer' && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void flow.send({ type: 'setRole', role: 'volunteer' })}
          >
            Set Volunteer
          </button>
        )}
        <BackLink />
      </div>
      <UserPasskeys email={user.email} name={name} />
    </Page>
  );
}

function BackLink() {
  return (
    <Link className="button" to={paths.home}>
      Back
    </Link>
  );
}
