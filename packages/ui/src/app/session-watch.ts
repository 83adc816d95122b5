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

/**
 * The API client with every signed-in call watched: an answer that the session ended (it expired, was
 * ended elsewhere, or the person's role was changed) calls `onExpired` with the error, which says why,
 * before the error reaches the caller as usual.
 */
export function watchSession(api: ApiClient, onExpired: (error: unknown) => void): ApiClient {
  const watched = new Map<string, unknown>();
  // A proxy like the client itself: its methods are made on first use.
  return new Proxy(api, {
    get(target, name, receiver) {
      const call: unknown = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || typeof call !== 'function' || SESSIONLESS.has(name)) return call;
      if (!watched.has(name)) {
        const method = call as (...args: unknown[]) => Promise<unknown>;
        watched.set(name, async (...args: unknown[]) => {
          try {
            return await method(...args);
          } catch (error) {
            if (isApiError(error) && (error.code === 'not_signed_in' || error.code === 'role_changed'))
              onExpired(error);
            throw error;
          }
        });
      }
      return watched.get(name);
    },
  });
}
