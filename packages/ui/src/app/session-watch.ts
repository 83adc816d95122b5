import { isApiError } from '@vita-docs/core';
import type { ApiClient } from '@vita-docs/core';

/**
 * Calls whose 401 says nothing about a session that was there: the session check itself, and the
 * sign-in (PIN or passkey), registration and password-reset calls (a wrong PIN answers 401).
 */
const SESSIONLESS = new Set<string>([
  'me',
  'register',
  'loginInit',
  'loginVerify',
  'loginResend',
  'logout',
  'forgotInit',
  'forgotVerify',
  'forgotResend',
  'forgotReset',
  'passkeyStatus',
  'passkeyLoginOptions',
  'passkeyLoginVerify',
]);

/** Whether `code`, the answer to `call`, says the session ended. */
function endsSession(call: string, code: string | null | undefined): boolean {
  // The server says `role_changed` once (its answer drops the cookie), so whichever call gets it
  // tells (the passkey offer's status too: kept to itself, why was lost, and the next call said only
  // "Please sign in."); the session check reads it itself.
  if (code === 'role_changed') return call !== 'me';
  return code === 'not_signed_in' && !SESSIONLESS.has(call);
}

/**
 * The API client with every signed-in call watched: an answer that the session ended (it expired, was
 * ended elsewhere, or the person's role was changed) calls `onExpired` with the error, which says why,
 * before the error reaches the caller as usual.
 */
export function watchSession(api: ApiClient, onExpired: (error: unknown) => void): ApiClient {
  const watched: Record<string, unknown> = {};
  for (const [name, call] of Object.entries(api) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    watched[name] = async (...args: unknown[]) => {
      try {
        return await call(...args);
      } catch (error) {
        if (isApiError(error) && endsSession(name, error.code)) onExpired(error);
        throw error;
      }
    };
  }
  return watched as ApiClient;
}
