import type { ApiClient } from '../../api/client.js';
import { errorMessage, isApiError } from '../../api/errors.js';
import type { User } from '../../api/schemas.js';
import { roleChangeConfirm } from '../../domain/messages.js';
import type { Role } from '../../domain/roles.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';
import { approve, setRole } from './user-actions.js';
import type { UserActionPorts } from './user-actions.js';

/**
 * The admin user screen (docs/behaviour.md#admin-user-screen). `signedOut` and `forbidden` come from
 * the server's answer, so the page is right even when the session changed since it was loaded.
 */
export type UserDetailState =
  | { status: 'loading' }
  | { status: 'ready'; user: User; busy: boolean }
  | { status: 'notFound' }
  | { status: 'signedOut' }
  | { status: 'forbidden' }
  | { status: 'error'; error: string };

export type UserDetailEvent = { type: 'load' } | { type: 'approve' } | { type: 'setRole'; role: Role };

export type UserDetailFlow = Flow<UserDetailState, UserDetailEvent>;

export interface UserDetailFlowOptions extends UserActionPorts {
  api: UserActionPorts['api'] & Pick<ApiClient, 'getUser'>;
  email: string;
}

/** Creates the flow of one user's page. Only admins reach it, so approving always asks for the role. */
export function createUserDetailFlow({ api, platform, email }: UserDetailFlowOptions): UserDetailFlow {
  const store = createStore<UserDetailState>({ status: 'loading' });

  async function load(): Promise<void> {
    try {
      const { user } = await api.getUser({ params: { email } });
      store.setState({ status: 'ready', user, busy: false });
    } catch (error) {
      const status = isApiError(error) ? error.status : 0;
      if (status === 404 || status === 400) store.setState({ status: 'notFound' });
      else if (status === 401) store.setState({ status: 'signedOut' });
      else if (status === 403) store.setState({ status: 'forbidden' });
      else store.setState({ status: 'error', error: errorMessage(error) });
    }
  }

  async function act(action: (user: User) => Promise<User>): Promise<void> {
    const state = store.getState();
    if (state.status !== 'ready' || state.busy) return;
    store.setState({ ...state, busy: true });
    try {
      await action(state.user);
    } catch (error) {
      await platform.alert(errorMessage(error));
    }
    // Whatever happened (approve may succeed and the role call fail), show the account as it is now.
    await load();
  }

  /** A role change ends the person's sessions: the admin is asked first, naming them and the role. */
  async function changeRole(role: Role): Promise<void> {
    const state = store.getState();
    if (state.status !== 'ready' || state.busy) return;
    if (!(await platform.confirm(roleChangeConfirm(state.user, role)))) return;
    return act((user) => setRole({ api, platform }, user, role));
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const ports = { api, platform };
      if (event.type === 'load') return load();
      if (event.type === 'approve') return act((user) => approve(ports, user, true));
      if (event.type === 'setRole') return changeRole(event.role);
    },
  };
}
