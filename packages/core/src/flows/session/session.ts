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
  /**
   * `offline`: the server could not be asked (no connection), and this is who last signed in on this
   * device, whose session may well still be live: screens that need the server say so, and files
   * added are kept for that session (docs/behaviour.md#offline). The next check that reaches the
   * server decides.
   */
  | { status: 'signedIn'; user: User; refreshing: boolean; offline?: true }
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

/** Who last signed in on this device, for a start with no connection (the host bounds how long it keeps them). */
export interface RememberedUser {
  read(): User | null;
  /** `null`: forget (a sign-out, or the server said nobody is signed in). */
  write(user: User | null): void;
}

export interface SessionFlowOptions {
  api: Pick<ApiClient, 'me' | 'logout'>;
  platform: Pick<Dialogs, 'alert'>;
  /** Without it, no connection at the start means signed out (the page then says it needs one). */
  remembered?: RememberedUser;
}

const isNetworkError = (error: unknown) => isApiError(error) && error.kind === 'network';

/** Creates the session flow. It starts in `checking`: send `check` to ask the server. */
export function createSessionFlow({ api, platform, remembered }: SessionFlowOptions): SessionFlow {
  const store = createStore<SessionState>({ status: 'checking' });
  // Only the newest check may set the state: a slow answer must not undo a login or logout.
  let generation = 0;

  async function check(): Promise<void> {
    const mine = ++generation;
    const before = store.getState();
    store.setState((s) => (s.status === 'signedIn' ? { ...s, refreshing: true } : { status: 'checking' }));
    let next: SessionState;
    let answered = true;
    try {
      const { user } = await api.me();
      next = { status: 'signedIn', user, refreshing: false };
    } catch (error) {
      answered = !isNetworkError(error);
      next = failedCheck(error, before);
    }
    if (mine !== generation) return;
    // Only the server's answer changes who is remembered; no connection says nothing about it.
    if (answered) remembered?.write(next.status === 'signedIn' ? next.user : null);
    store.setState(next);
  }

  function failedCheck(error: unknown, before: SessionState): SessionState {
    const last = isNetworkError(error) ? remembered?.read() : null;
    if (last) return { status: 'signedIn', user: last, refreshing: false, offline: true };
    const reason = signedOutReason(error);
    // Taken on trust with no connection, and ended meanwhile: as a session that expired under a screen
    // (the queues are kept; after login the person is back where they were).
    const expired = before.status === 'signedIn' && before.offline === true && !isNetworkError(error);
    return { status: 'signedOut', ...(expired ? { expired: true } : {}), ...(reason ? { reason } : {}) };
  }

  async function logout(): Promise<void> {
    generation++;
    try {
      await api.logout();
    } catch (error) {
      await platform.alert(errorMessage(error));
      return;
    }
    remembered?.write(null);
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
          remembered?.write(event.user);
          store.setState({ status: 'signedIn', user: event.user, refreshing: false });
          return;
        case 'expired':
          if (store.getState().status !== 'signedIn') return;
          generation++;
          // The server refused the session: nobody is taken on trust until it vouches again.
          remembered?.write(null);
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
