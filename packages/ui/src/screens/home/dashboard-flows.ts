import {
  canApproveUsers,
  canManageAllClients,
  canManageAllUsers,
  canReassignClients,
  createApprovalsFlow,
  createClientListFlow,
  createOptimisticList,
  createUserListFlow,
} from '@vita-docs/core';
import type { Client, User } from '@vita-docs/core';
import { useCallback, useEffect, useState } from 'react';
import { useServices } from '../../app/services';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';

/** Which sections the signed-in user sees (docs/behaviour.md#dashboard). */
function visibleSections(user: User) {
  return {
    approvals: canApproveUsers(user),
    orphans: canReassignClients(user),
    users: canManageAllUsers(user),
    clients: canManageAllClients(user),
  };
}

/** The dashboard's list flows, loaded once for the sections this user may see. */
export function useDashboardFlows(user: User) {
  const { api, platform } = useServices();
  const show = visibleSections(user);
  const users = useFlowInstance(() => createUserListFlow({ api, platform }));
  const clients = useFlowInstance(() => createClientListFlow({ api, platform }));
  const orphans = useFlowInstance(() =>
    // Orphans are only reloaded and reassigned here, never deleted: the list part of the flow is enough.
    createOptimisticList<Client>({
      load: async () => (await api.orphanedClients()).items,
      remove: async () => undefined,
      idOf: (client) => client.clientId,
      platform,
    }),
  );
  const approvals = useFlowInstance(() =>
    createApprovalsFlow({
      api,
      platform,
      actorIsAdmin: user.isAdmin,
      // An approval changes the All Users card too.
      onChanged: () => {
        if (show.users) void users.send({ type: 'reload' });
      },
    }),
  );

  const { approvals: a, orphans: o, users: u, clients: c } = show;
  const reloadAll = useCallback(() => {
    if (a) void approvals.send({ type: 'reload' });
    if (o) void orphans.send({ type: 'reload' });
    if (u) void users.send({ type: 'reload' });
    if (c) void clients.send({ type: 'reload' });
  }, [a, o, u, c, approvals, orphans, users, clients]);
  // Everything here is fixed for the dashboard's life (it is keyed by the permissions): loads once.
  useEffect(reloadAll, [reloadAll]);

  // The sections appear together once each has loaded the first time: one arrival instead of four,
  // so no section pushes another down while the page is being read.
  const statuses = [
    useFlow(approvals).status,
    useFlow(orphans).status,
    useFlow(users).status,
    useFlow(clients).status,
  ];
  const loading = [a, o, u, c].some((visible, i) => visible && statuses[i] === 'loading');
  const [firstLoadDone, setFirstLoadDone] = useState(false);
  if (!loading && !firstLoadDone) setFirstLoadDone(true);

  return { show, approvals, orphans, users, clients, reloadAll, firstLoadDone };
}
