/** Two-step sign-in (docs/behaviour.md#sign-in): credentials, then the emailed code. */
import type { ApiClient } from '../../api/client.js';
import { errorMessage, isApiError } from '../../api/errors.js';
import type { User } from '../../api/schemas.js';
import { messages } from '../../domain/messages.js';
import type { Dialogs, KeyValueStorage } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';
import { STORAGE_KEYS } from '../storage-keys.js';

/** Where the sign-in stands. `error` is the last failure, also shown as an alert. */
export type LoginState =
  | { status: 'credentials'; email: string; error: string | null }
  | { status: 'sendingCode'; email: string }
  | { status: 'code'; email: string; error: string | null }
  | { status: 'verifying'; email: string }
  /**
   * The code was right, but under the passkey rule this admin or officer signs in with their passkey
   * only: `error` says so, shown beside `Sign in with a passkey` (not as an alert).
   */
  | { status: 'passkeyRequired'; email: string; error: string }
  | { status: 'signedIn'; user: User };

/** What the user does. */
export type LoginEvent =
  | { type: 'submitCredentials'; email: string; pin: string }
  | { type: 'submitCode'; code: string }
  /** Back to the credentials form (e.g. a Back link on the verify page). */
  | { type: 'startOver' };

/** The ports of {@link createLoginFlow}. */
export interface LoginFlowOptions {
  api: Pick<ApiClient, 'loginInit' | 'loginVerify'>;
  /** Session storage: keeps the email between /login and /login/verify. */
  storage: KeyValueStorage;
  platform: Pick<Dialogs, 'alert'>;
  /** `code` for the /login/verify page: starts at the code step with the email kept for the session. */
  step?: 'credentials' | 'code';
}

/** The sign-in flow. */
export type LoginFlow = Flow<LoginState, LoginEvent>;

/**
 * Creates the sign-in flow. Every flow is a store: `send` events, `getState`, `subscribe`; screens
 * render the state and send what the person does.
 *
 * @example
 * ```ts
 * import { createApiClient, createLoginFlow } from '@vita-docs/core';
 *
 * const login = createLoginFlow({ api: createApiClient({}), storage: sessionStorage, platform: window });
 * login.subscribe((state) => {
 *   if (state.status === 'code') showCodeForm(state.email, state.error);
 *   if (state.status === 'signedIn') goTo('/dashboard');
 * });
 * login.send({ type: 'submitCredentials', email: 'vera@example.org', pin: '1234' });
 * // …after the person types the code from the email:
 * login.send({ type: 'submitCode', code: '123456' });
 * ```
 */
export function createLoginFlow({
  api,
  storage,
  platform,
  step = 'credentials',
}: LoginFlowOptions): LoginFlow {
  const kept = storage.getItem(STORAGE_KEYS.loginEmail) ?? '';
  const store = createStore<LoginState>(
    step === 'code' && kept
      ? { status: 'code', email: kept, error: null }
      : { status: 'credentials', email: kept, error: null },
  );

  async function fail(next: LoginState & { error: string | null }): Promise<void> {
    store.setState(next);
    if (next.error) await platform.alert(next.error);
  }

  async function submitCredentials(email: string, pin: string): Promise<void> {
    const trimmed = email.trim();
    store.setState({ status: 'sendingCode', email: trimmed });
    try {
      const { emailSent } = await api.loginInit({ body: { email: trimmed, pin } });
      if (!emailSent)
        return await fail({ status: 'credentials', email: trimmed, error: messages.loginEmailNotSent });
      storage.setItem(STORAGE_KEYS.loginEmail, trimmed);
      store.setState({ status: 'code', email: trimmed, error: null });
    } catch (error) {
      await fail({ status: 'credentials', email: trimmed, error: errorMessage(error) });
    }
  }

  async function submitCode(email: string, code: string): Promise<void> {
    store.setState({ status: 'verifying', email });
    try {
      const { user } = await api.loginVerify({ body: { code: code.trim(), email } });
      store.setState({ status: 'signedIn', user });
    } catch (error) {
      if (isApiError(error) && error.code === 'passkey_required')
        return store.setState({ status: 'passkeyRequired', email, error: error.message });
      await fail({ status: 'code', email, error: errorMessage(error) });
    }
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const state = store.getState();
      switch (event.type) {
        case 'submitCredentials':
          if (state.status === 'credentials') await submitCredentials(event.email, event.pin);
          return;
        case 'submitCode':
          if (state.status === 'code') await submitCode(state.email, event.code);
          return;
        case 'startOver':
          if (
            state.status === 'code' ||
            state.status === 'credentials' ||
            state.status === 'passkeyRequired'
          ) {
            store.setState({ status: 'credentials', email: state.email, error: null });
          }
          return;
      }
    },
  };
}
