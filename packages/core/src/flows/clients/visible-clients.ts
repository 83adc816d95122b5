import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { Client } from '../../api/schemas.js';
import { canManageAllClients } from '../../domain/roles.js';
import type { Actor } from '../../domain/roles.js';
import type { Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

export interface VisibleClientsState {
  status: 'loading' | 'ready' | 'error';
  items: readonly Client[];
  error: string | null;
}

export type VisibleClientsEvent = { type: 'load' };

export type VisibleClientsFlow = Flow<VisibleClientsState, VisibleClientsEvent>;

export interface VisibleClientsFlowOptions {
  api: Pick<ApiClient, 'listClients' | 'listAllClients'>;
  platform: Pick<Dialogs, 'alert'>;
  actor: Actor;
}

/**
 * The Client List: admins see every client, everyone else the clients they created. A load failure
 * is alerted.
 */
export function createVisibleClientsFlow({
  api,
  platform,
  actor,
}: VisibleClientsFlowOptions): VisibleClientsFlow {
  const store = createStore<VisibleClientsState>({ status: 'loading', items: [], error: null });
  let loads = 0;
  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send() {
      const load = ++loads;
      store.setState((s) => ({ ...s, status: 'loading', error: null }));
      try {
        const { items } = canManageAllClients(actor) ? await api.listAllClients() : await api.listClients();
        if (load === loads) store.setState({ status: 'ready', items, error: null });
      } catch (error) {
        if (load !== loads) return;
        const message = errorMessage(error);
        store.setState({ status: 'error', items: [], error: message });
        await platform.alert(message);
      }
    },
  };
}
