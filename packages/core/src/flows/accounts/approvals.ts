import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { User } from '../../api/schemas.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';
import { approve, chooseRole, setRole } from './user-actions.js';
import type { UserActionPorts } from './user-actions.js';

/**
 * The Pending Approvals section (docs/behaviour.md#dashboard). `busy` is the email an action is
 * running for.
 */
export interface ApprovalsState {
  status: 'loading' | 'ready' | 'error';
  items: readonly User[];
  busy: string | null;
  error: string | null;
}

export type ApprovalsEvent =
  | { type: 'reload' }
  | { type: 'approve'; email: string }
  /** Admin: asks Officer or Volunteer, then sets it. */
  | { type: 'setRole'; email: string }
  /** Officer: sets Volunteer, the only role an officer may give. */
  | { type: 'setVolunteer'; email: string };

export type ApprovalsFlow = Flow<ApprovalsState, ApprovalsEvent>;

export interface ApprovalsFlowOptions extends UserActionPorts {
  api: UserActionPorts['api'] & Pick<ApiClient, 'listUsers'>;
  actorIsAdmin: boolean;
  /** Told after an action changed an account, so other lists on the page can follow. */
  onChanged?: () => void;
}

/** Creates the pending-approvals flow. It starts in `loading`: send `reload` to load. */
export function createApprovalsFlow(options: ApprovalsFlowOptions): ApprovalsFlow {
  const { api, platform, actorIsAdmin, onChanged } = options;
  const store = createStore<ApprovalsState>({ status: 'loading', items: [], busy: null, error: null });
  let loads = 0;

  async function reload(): Promise<void> {
    const mine = ++loads;
    store.setState((s) => ({ ...s, status: 'loading', error: null }));
    try {
      const { items } = await api.listUsers({ query: { status: 'pending' } });
      if (mine === loads) store.setState((s) => ({ ...s, status: 'ready', items }));
    } catch (error) {
      if (mine !== loads) return;
      const message = errorMessage(error);
      store.setState((s) => ({ ...s, status: 'error', error: message }));
      await platform.alert(message);
    }
  }

  async function act(email: string, action: (user: User) => Promise<unknown>): Promise<void> {
    const user = store.getState().items.find((u) => u.email === email);
    if (!user || store.getState().busy) return;
    store.setState((s) => ({ ...s, busy: email }));
    try {
      await action(user);
    } catch (error) {
      await platform.alert(errorMessage(error));
    }
    store.setState((s) => ({ ...s, busy: null }));
    onChanged?.();
    await reload();
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const ports = { api, platform };
      switch (event.type) {
        case 'reload':
          return reload();
        case 'approve':
          return act(event.email, (user) => approve(ports, user, actorIsAdmin));
        case 'setRole':
          return act(event.email, (user) => chooseRole(ports, user));
        case 'setVolunteer':
          return act(event.email, (user) => setRole(ports, user, 'volunteer'));
      }
    },
  };
}
