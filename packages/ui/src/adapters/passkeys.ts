/**
 * Making passkeys (docs/behaviour.md#passkeys), for the screens after sign-in; the login screen's part
 * is passkey-sign-in.ts.
 */
import type { ApiClient, Passkey } from '@vita-docs/core';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { browserHasWebAuthn, webAuthn, wire } from './passkey-sign-in';

/** A fingerprint reader, face unlock or screen lock that can hold a passkey on this very device. */
export async function hasPlatformAuthenticator(): Promise<boolean> {
  if (!browserHasWebAuthn()) return false;
  try {
    return await PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable();
  } catch {
    return false;
  }
}

/** Makes a passkey for the signed-in person on this device (or a phone or key the browser offers). */
export async function createPasskey(api: ApiClient, name?: string): Promise<Passkey> {
  const [{ startRegistration }, { options }] = await Promise.all([webAuthn(), api.passkeyRegisterOptions()]);
  const response = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return api.passkeyRegisterVerify({
    body: { response: wire(response), ...(name ? { name } : {}) },
  });
}
