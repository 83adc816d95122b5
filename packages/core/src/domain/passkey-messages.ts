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
  /** On /account where the server offers no passkeys (no `PUBLIC_URL`): `Add a passkey` is not shown. */
  notOffered: 'Passkeys are not offered here. You sign in with your email and Password PIN.',
  /** The dashboard's offer once the passkey is made. */
  created: 'Passkey created.',
  required: 'Your programme requires a passkey for admins and officers. Create one to continue.',
  createFailed: 'The passkey was not created. You can try again, or keep signing in with your PIN.',
  removed: 'Passkeys removed.',
  removeAll: 'Remove all passkeys',
  removeAllConfirm:
    'Remove all your passkeys? You then sign in with your Password PIN and a code until you add a new one.',
  /** Under the passkey rule, before the first passkey: a code mailed to the account proves it is them. */
  confirmIntro: 'Before you add a passkey, confirm it is you with a code we email you.',
  emailCode: 'Email me a code',
  confirmCode: 'Confirmation code',
  confirmFirst: 'Confirm it is you with the code we email you before adding a passkey.',
  badConfirmCode: 'That code is not valid or has expired. Use Email me a code to get a new one.',
  confirmNotNeeded: 'No confirmation is needed to add a passkey to this account.',
  confirmNotSent: 'The email could not be sent. Please try again in a few minutes.',
  /**
   * Under the passkey rule, Forgot Password cannot remove an admin's or officer's passkeys (a mailbox
   * alone would then lead to a new passkey): the PIN can still be reset without removing them.
   */
  staffPasskeysAtReset:
    'Passkeys of admins and officers cannot be removed here. Untick Remove all passkeys to set your new PIN, and ask an admin to remove your passkeys if you lost them.',
  /** Under the passkey rule, staff keep at least one passkey; an admin can remove them. */
  staffKeepsPasskey:
    'Admins and officers must keep a passkey. Add another before removing this one, or ask an admin to remove your passkeys.',
} as const;

/** The line under `Email me a code` once the code is on its way. */
export function passkeyConfirmSent(email: string): string {
  return `We emailed a 6-digit code to ${email}. It expires in 15 minutes and works once.`;
}

/** The admin's question before removing all of someone's passkeys (a lost phone). */
export function removePasskeysConfirm(name: string): string {
  return `Remove all passkeys of ${name}? They sign in with their Password PIN and a code until they create a new one.`;
}
