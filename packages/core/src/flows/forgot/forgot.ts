/** Password reset (docs/behaviour.md#password-reset): send code, verify it, set the new PIN, back to login. */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import { messages } from '../../domain/messages.js';
import type { Dialogs, KeyValueStorage } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';
import { STORAGE_KEYS } from '../storage-keys.js';

/** Where the reset stands. `done` means: go to /login. */
export type ForgotState =
  | { status: 'email'; email: string; error: string | null }
  | { status: 'sendingCode'; email: string }
  | { status: 'code'; email: string; error: string | null }
  | { status: 'verifying'; email: string }
  | { status: 'newPin'; email: string; error: string | null }
  | { status: 'saving'; email: string }
  | { status: 'done' };

/** What the user does. */
export type ForgotEvent =
  | { type: 'submitEmail'; email: string }
  | { type: 'submitCode'; code: string }
  /** `removePasskeys`: `Remove all passkeys` ticked (one in the reset mail is not theirs). */
  | { type: 'submitNewPin'; newPin1: string; newPin2: string; removePasskeys?: boolean };

/** The ports of {@link createForgotFlow}. */
export interface ForgotFlowOptions {
  api: Pick<ApiClient, 'forgotInit' | 'forgotVerify' | 'forgotReset'>;
  /** Session storage: keeps the email across the three pages. */
  storage: KeyValueStorage;
  platform: Pick<Dialogs, 'alert'>;
  /** The page this flow drives: /forgot (`email`), /forgot/verify (`code`) or /forgot/reset (`newPin`). */
  step?: 'email' | 'code' | 'newPin';
}

/** The password-reset flow. */
export type ForgotFlow = Flow<ForgotState, ForgotEvent>;

/** Creates the password-reset flow. */
export function createForgotFlow({ api, storage, platform, step = 'email' }: ForgotFlowOptions): ForgotFlow {
  const email = storage.getItem(STORAGE_KEYS.forgotEmail) ?? '';
  const store = createStore<ForgotState>(
    step !== 'email' && email
      ? { status: step, email, error: null }
      : { status: 'email', email, error: null },
  );

  async function fail(next: ForgotState & { error: string | null }): Promise<void> {
    store.setState(next);
    if (next.error) await platform.alert(next.error);
  }

  async function submitEmail(typed: string): Promise<void> {
    const email = typed.trim();
    store.setState({ status: 'sendingCode', email });
    try {
      const { emailSent } = await api.forgotInit({ body: { email } });
      if (emailSent === false)
        return await fail({ status: 'email', email, error: messages.forgotEmailNotSent });
      storage.setItem(STORAGE_KEYS.forgotEmail, email);
      store.setState({ status: 'code', email, error: null });
    } catch (error) {
      await fail({ status: 'email', email, error: errorMessage(error) });
    }
  }

  async function submitCode(email: string, code: string): Promise<void> {
    store.setState({ status: 'verifying', email });
    try {
      await api.forgotVerify({ body: { code: code.trim(), email } });
      store.setState({ status: 'newPin', email, error: null });
    } catch (error) {
      await fail({ status: 'code', email, error: errorMessage(error) });
    }
  }

  async function submitNewPin(
    email: string,
    newPin1: string,
    newPin2: string,
    removePasskeys: boolean,
  ): Promise<void> {
    store.setState({ status: 'saving', email });
    try {
      await api.forgotReset({ body: { newPin1, newPin2, ...(removePasskeys && { removePasskeys }) } });
    } catch (error) {
      return fail({ status: 'newPin', email, error: errorMessage(error) });
    }
    storage.removeItem(STORAGE_KEYS.forgotEmail);
    await platform.alert(messages.resetSucceeded);
    store.setState({ status: 'done' });
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const state = store.getState();
      if (event.type === 'submitEmail' && state.status === 'email') await submitEmail(event.email);
      if (event.type === 'submitCode' && state.status === 'code') await submitCode(state.email, event.code);
      if (event.type === 'submitNewPin' && state.status === 'newPin') {
        await submitNewPin(state.email, event.newPin1, event.newPin2, event.removePasskeys === true);
      }
    },
  };
}
