/**
 * The passkey texts of the screens loaded after sign-in (docs/behaviour.md#passkeys), apart from
 * `messages` so the first page's download does not carry them; the button and offer texts are the product's
 * own wording. The login screen's two are in `messages`.
 */
export const passkeyMessages = {
  offer: 'Sign in faster next time with a passkey',
  create: 'Create a passkey',
  notNow: 'Not now',
  remove: 'Remove',
  add: 'Add a passkey',
  required: 'Your programme requires a passkey for admins and officers. Create one to continue.',
  createFailed: 'The passkey was not created. You can try again, or keep signing in with your PIN.',
  removed: 'Passkeys removed.',
} as const;

/** The admin's question before removing all of someone's passkeys (a lost phone). */
export function removePasskeysConfirm(name: string): string {
  return `Remove all passkeys of ${name}? They sign in with their Password PIN and a code until they create a new one.`;
}
