/** Business constants, one place (docs/behaviour.md#numbers). */

/** Digits in an emailed verification code. */
export const CODE_LENGTH = 6;
/** Seconds the Resend button stays disabled after a successful resend. */
export const RESEND_COOLDOWN_SECONDS = 30;
/** Height at which the download dialog's type list scrolls. */
export const CATEGORY_DIALOG_SCROLL_PX = 300;
/** Shortest Password PIN the server accepts. */
export const MIN_PIN_LENGTH = 8;
/** Longest Password PIN the server accepts (hashing cost stays bounded). */
export const MAX_PIN_LENGTH = 128;

/** The file name a client's ZIP is saved under. */
export function zipFileName(clientId: string): string {
  return `client-${clientId}-all-docs.zip`;
}

/**
 * How long queued files are kept on a device (docs/behaviour.md#kept-uploads): the session's default
 * absolute lifetime, so nothing outlives the sign-in it was queued in by default.
 */
export const KEPT_UPLOADS_LIFETIME_HOURS = 12;

/** The retention rule's bounds, in days after a client was submitted (docs/behaviour.md#retention). */
export const RETENTION_MIN_DAYS = 7;
export const RETENTION_MAX_DAYS = 365;
/** How many days before the deletion the client's volunteer is mailed; nothing is deleted sooner after that mail. */
export const RETENTION_NOTICE_DAYS = 7;
