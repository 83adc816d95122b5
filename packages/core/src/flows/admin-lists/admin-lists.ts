/** The dashboard's All Users and All Clients (docs/behaviour.md#dashboard), with optimistic delete. */
import type { ApiClient } from '../../api/client.js';
import type { Client, User } from '../../api/schemas.js';
import type { Dialogs } from '../../ports.js';
import { createOptimisticList } from './optimistic-list.js';
import type { OptimisticListFlow } from './optimistic-list.js';

/** All users (`status=all`), keyed by email; `delete` takes the email. */
export function createUserListFlow({
  api,
  platform,
}: {
  api: Pick<ApiClient, 'listUsers' | 'deleteUser'>;
  platform: Pick<Dialogs, 'alert'>;
}): OptimisticListFlow<User> {
  return createOptimisticList<User>({
    load: async () => (await api.listUsers({ query: { status: 'all' } })).items,
    remove: (user) => api.deleteUser({ params: { email: user.email } }),
    idOf: (user) => user.email,
    platform,
  });
}

/** All clients, keyed by clientId; deleting one also removes its files on the server. */
export function createClientListFlow({
  api,
  platform,
}: {
  api: Pick<ApiClient, 'listAllClients' | 'deleteClient'>;
  platform: Pick<Dialogs, 'alert'>;
}): OptimisticListFlow<Client> {
  return createOptimisticList<Client>({
    load: async () => (await api.listAllClients()).items,
    remove: (client) =>
      api.deleteClient({
        body: { createdBy: client.createdBy, clientEmail: client.email, clientId: client.clientId },
      }),
    idOf: (client) => client.clientId,
    platform,
  });
}
