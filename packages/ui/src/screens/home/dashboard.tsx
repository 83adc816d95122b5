import { roleTag } from '@vita-docs/core';
import type { User } from '@vita-docs/core';
import { useState } from 'react';
import { Link, useNavigate } from '../../app/router';
import { paths } from '../../app/paths';
import { useSessionFlow } from '../../app/session';
import { useServices } from '../../app/services';
import { useUploadQueues } from '../../app/upload-queues';
import { Loading, Page } from '../../components/page';
import { Tag } from '../../components/tag';
import { AllClients } from './all-clients';
import { AllUsers } from './all-users';
import { useDashboardFlows } from './dashboard-flows';
import { OrphanedClients } from './orphaned-clients';
import { PasskeyOffer } from './passkey-offer';
import { NewFromClients } from './new-from-clients';
import { PendingApprovals } from './pending-approvals';
import { ProgrammeOverview } from './programme-overview';

/** The signed-in dashboard: greeting, tag, buttons, and the sections the user may see. */
export function Dashboard({ user }: { user: User }) {
  const session = useSessionFlow();
  const queues = useUploadQueues();
  const navigate = useNavigate();
  const { show, approvals, orphans, users, clients, reloadAll, firstLoadDone } = useDashboardFlows(user);
  const { api, clock } = useServices();
  const tag = roleTag(user);
  const [refreshed, setRefreshed] = useState(0);

  const refresh = () => {
    void session.send({ type: 'check' });
    reloadAll();
    setRefreshed((n) => n + 1);
  };
  // Signing out empties the upload queues and deletes what this device kept (asking first if files wait).
  const logout = async () => {
    if (await queues.logout()) await navigate(paths.landing);
  };

  return (
    <Page
      title="Home"
      width="wide"
      heading={
        <>
          Hello, {user.firstName} {tag && <Tag tone="strong">{tag}</Tag>}
        </>
      }
    >
      <DashboardToolbar isAdmin={user.isAdmin} onRefresh={refresh} onLogout={() => void logout()} />
      <PasskeyOffer />
      <NewFromClients reloadKey={refreshed} />
      {!firstLoadDone && <Loading />}
      {firstLoadDone && show.approvals && <PendingApprovals flow={approvals} actorIsAdmin={user.isAdmin} />}
      {firstLoadDone && show.orphans && (
        <OrphanedClients
          flow={orphans}
          onReassigned={() => {
            if (show.clients) void clients.send({ type: 'reload' });
          }}
        />
      )}
      {firstLoadDone && show.users && (
        <AllUsers
          flow={users}
          actor={user}
          onDeleted={() => {
            // The deleted user's clients are orphans now.
            void orphans.send({ type: 'reload' });
            void clients.send({ type: 'reload' });
          }}
        />
      )}
      {firstLoadDone && show.clients && <AllClients flow={clients} />}
      {firstLoadDone && user.isAdmin && <ProgrammeOverview api={api} now={clock.now()} />}
    </Page>
  );
}

/** Add New Client, Enter Existing Client and the admin's screens; Refresh and Logout. */
function DashboardToolbar({
  isAdmin,
  onRefresh,
  onLogout,
}: {
  isAdmin: boolean;
  onRefresh: () => void;
  onLogout: () => void;
}) {
  return (
    <div className="toolbar">
      <div className="actions">
        <Link className="button button--primary" to={paths.newClient}>
          Add New Client
        </Link>
        <Link className="button" to={paths.clients}>
          Enter Existing Client
        </Link>
        {isAdmin && (
          <Link className="button" to={paths.adminAudit}>
            Audit log
          </Link>
        )}
        {isAdmin && (
          <Link className="button" to={paths.adminSettings}>
            Settings
          </Link>
        )}
        {isAdmin && (
          <Link className="button" to={paths.adminSeason}>
            Close season
          </Link>
        )}
      </div>
      <div className="actions">
        <Link className="button" to={paths.account}>
          Account
        </Link>
        <button type="button" className="button" onClick={onRefresh}>
          Refresh
        </button>
        <button type="button" className="button" onClick={onLogout}>
          Logout
        </button>
      </div>
    </div>
  );
}
