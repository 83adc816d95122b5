import type { ApiClient } from '../../api/client.js';
import { errorMessage, isApiError } from '../../api/errors.js';
import type { User } from '../../api/schemas.js';
import type { Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

/**
 * Who is signed in. `checking` only before the first answer; a later re-check keeps the user on
 * screen (`refreshing`) so the dashboard does not flash.
 */
export type SessionState =
  | { status: 'checking' }
  | { status: 'signedIn'; user: User; refreshing: boolean }
  /**
   * `expired`: the server stopped knowing the session while a screen was in use (a 401); `reason`:
   * the server said why (`role_changed`: an admin changed this person's role).
   */
  | { status: 'signedOut'; expired?: boolean; reason?: SignedOutReason };

/** Why the server ended a session, when it says so (its error `code`). */
export type SignedOutReason = 'role_changed';

function signedOutReason(error: unknown): SignedOutReason | undefined {
  return isApiError(error) && error.code === 'role_changed' ? 'role_changed' : undefined;
}

export type SessionEvent =
  /** Asks the server (GET /me); any failure counts as signed out (docs/behaviour.md#session-check). */
  | { type: 'check' }
  /** The login flow finished: no need to ask the server again. */
  | { type: 'signedIn'; user: User }
  /** A signed-in call was answered 401: the session ended on the server (expired, revoked); `error` says why. */
  | { type: 'expired'; error?: unknown }
  | { type: 'logout' };

export type SessionFlow = Flow<SessionState, SessionEvent>;

export interface SessionFlowOptions {
  api: Pick<ApiClient, 'me' | 'logout'>;
  platform: Pick<Dialogs, 'alert'>;
}

/** Creates the session flow. It starts in `checking`: send `check` to ask the server. */
export function createSessionFlow({ api, platform }: SessionFlowOptions): SessionFlow {
  const store = createStore<SessionState>({ status: 'checking' });
  // Only the newest check may set the state: a slow answer must not undo a login or logout.
  let generation = 0;

  async function check(): Promise<void> {
    const mine = ++generation;
    store.setState((s) => (s.status === 'signedIn' ? { ...s, refreshing: true } : { status: 'checking' }));
    let next: SessionState;
    try {
      const { user } = await api.me();
      next = { status: 'signedIn', user, refreshing: false };
    } catch (error) {
      const reason = signedOutReason(error);
      next = reason ? { status: 'signedOut', reason } : { status: 'signedOut' };
    }
    if (mine === generation) store.setState(next);
  }

  async function logout(): Promise<void> {
    generation++;
    try {
      await api.logout();
    } catch (error) {
      await platform.alert(errorMessage(error));
      return;
    }
    store.setState({ status: 'signedOut' });
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      switch (event.type) {
        case 'check':
          return check();
        case 'signedIn':
          generation++;
          store.setState({ status: 'signedIn', user: event.user, refreshing: false });
          return;
        case 'expired':
          if (store.getState().status !== 'signedIn') return;
          generation++;
          {
            const reason = signedOutReason(event.error);
            store.setState(
              reason
                ? { status: 'signedOut', expired: true, reason }
                : { status: 'signedOut', expired: true },
            );
          }
          return;
        case 'logout':
          return logout();
      }
    },
  };
}
