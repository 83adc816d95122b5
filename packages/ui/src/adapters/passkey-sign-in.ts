/**
 * The browser side of passkeys (docs/behaviour.md#passkeys) the login screen needs; making passkeys is
 * in passkeys.ts, fetched with the screens after sign-in. `@simplewebauthn/browser` is imported only
 * when a ceremony starts, so the first page's download does not carry it (apps/web bundle check).
 */
import type { ApiClient, User } from '@vita-docs/core';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';

export const webAuthn = () => import('@simplewebauthn/browser');

type Answer = Parameters<ApiClient['passkeyLoginVerify']>[0]['body']['response'];
/**
 * A browser answer as the contract's JSON object: the library's types are interfaces without an index
 * signature; the shape is the same, and the server's library checks every byte of it.
 */
export const wire = (r: object) => r as Answer;

/** Whether this browser has WebAuthn at all (a kiosk without it shows the PIN path only). */
export function browserHasWebAuthn(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** Passkeys can be used here: the server offers them (it has `PUBLIC_URL`) and the browser has WebAuthn. */
export async function passkeysOffered(api: ApiClient): Promise<boolean> {
  if (!browserHasWebAuthn()) return false;
  try {
    return (await api.passkeyStatus()).enabled;
  } catch {
    return false;
  }
}

/** The whole passkey sign-in: the browser asks for the passkey, the server checks it and signs in. */
export async function signInWithPasskey(api: ApiClient): Promise<User> {
  const [{ startAuthentication }, { options }] = await Promise.all([webAuthn(), api.passkeyLoginOptions()]);
  const response = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  const { user } = await api.passkeyLoginVerify({
    body: { response: wire(response) },
  });
  return user;
}
