/**
 * Every fixed text of alerts and confirms (docs/behaviour.md#messages), in one place. Screens and flows
 * import these; nothing else spells them out.
 */
import type { QualityWarning } from '../quality/assess.js';
import { RETENTION_MAX_DAYS, RETENTION_MIN_DAYS } from './constants.js';
import { formatDate, formatSizeLimit, fullName } from './format.js';

export const messages = {
  loginEmailNotSent:
    'We could not email your code. If this is your first login, ask an admin to verify your email/domain or try again.',
  forgotEmailNotSent: 'We could not email your code. Please contact an admin.',
  resendFailed: 'We could not resend your code. Please try again or contact an admin.',
  resendSucceeded: 'A fresh code has been sent. It can take up to a minute to arrive.',
  resetSucceeded: 'Password updated. Please log in with your new password.',
  roleUpdated: 'Role updated.',
  roleSetToVolunteer: 'Role set to Volunteer.',
  clientReassigned: 'Client reassigned.',
  deleteFailed: 'Delete failed',
  retakeFailedPrefix: 'Retake failed: ',
  renameFailedPrefix: 'Rename failed: ',
  renameEmpty: 'Please enter a file name',
  deleteFileConfirm: 'Delete this file?',
  noFilesYet: 'No files yet.',
  previewNotAvailable: 'Preview not available. You can download the file instead.',
  noVolunteersFound: 'No volunteers found. Add/approve at least one volunteer account.',
  landingTagline: 'Upload and manage client tax documents securely',
  notSignedIn: 'Not signed in',
  pleaseSignIn: 'Please sign in.',
  userNotFound: 'User not found.',
  /** The login page after an admin changed this person's role (the server's `role_changed`). */
  roleChanged: 'Your role was changed. Please sign in again.',
  photoTooDark: 'This photo looks too dark.',
  photoWashedOut: 'This photo looks washed out.',
  photoBlurry: 'This photo looks blurry.',
  pageBlank: 'This page looks blank.',
  photoTooSmall: 'This photo is too small to read.',
  photoGlare: 'This photo has glare. Tilt the page away from the light and retake.',
  edgesNotFound: 'Page edges not found. The whole photo is used.',
  heicUploadedAsIs: 'This HEIC photo is uploaded as is; this browser cannot convert it.',
  scanTooManyPages: 'A scan can have at most 30 pages.',
  waitingForConnection: 'Waiting for connection…',
  /** A request that could not be sent for want of a connection (never the browser's `Failed to fetch`). */
  needsConnection: 'This page needs a connection.',
  /** The question before signing out when the files kept on the device could not be read (no key, no connection). */
  logoutKeptUnknownConfirm:
    'Files may still be waiting to upload on this device, and they could not be checked just now. Log out anyway? They will be deleted from this device.',
  notKeptOnDevice:
    'This file could not be kept on this device: it is lost if this page is closed before it is uploaded.',
  retryingByItself: 'It is sent again by itself.',
  /** The question before `Revoke link` on the Client Documents page: the client loses the link at once. */
  revokeLinkConfirm: 'Revoke this link? The client will no longer be able to use it.',
  linkRevoked: 'Link revoked.',
  /** Settings: `Days after submission` outside the rule's range (the server's refusal says the same). */
  retentionDaysRange: `Choose between ${RETENTION_MIN_DAYS} and ${RETENTION_MAX_DAYS} days.`,
  // Passkeys on the login screen (the rest, for screens loaded later, are in passkey-messages.ts).
  passkeySignIn: 'Sign in with a passkey',
  passkeyFailed: 'That passkey did not work. Try again, or sign in with your email and Password PIN.',
  /** The answer to a right code of an admin or officer who owns a passkey, under the passkey rule. */
  passkeySignInRequired:
    'Your programme requires admins and officers who have a passkey to sign in with it. Use Sign in with a passkey.',
} as const;

/** The text of a quality warning of a captured page (see `assessImage`). */
export function qualityWarningMessage(warning: QualityWarning): string {
  switch (warning) {
    case 'tooDark':
      return messages.photoTooDark;
    case 'washedOut':
      return messages.photoWashedOut;
    case 'blurry':
      return messages.photoBlurry;
    case 'blank':
      return messages.pageBlank;
    case 'tooSmall':
      return messages.photoTooSmall;
    case 'glare':
      return messages.photoGlare;
    case 'edgesNotFound':
      return messages.edgesNotFound;
  }
}

/** `Upload failed: <status>` followed by the response body. */
export function uploadFailedMessage(status: number, body: string): string {
  return `Upload failed: ${status}${body ? ` ${body}` : ''}`;
}

/**
 * The note under a listed file whose bytes another file of the client already has
 * (docs/behaviour.md#file-list): `Same file as <file name> in <category>`.
 */
export function duplicateNote(original: { filename: string; docType: string }): string {
  return `Same file as ${original.filename} in ${original.docType}`;
}

/** `Delete <n> selected file(s)?` */
export function deleteSelectedConfirm(count: number): string {
  return `Delete ${count} selected file(s)?`;
}

/** The confirm before a custom category and its files are deleted. */
export function deleteCategoryConfirm(name: string): string {
  return `Delete category “${name}” and all files inside it? This cannot be undone.`;
}

/** The resend button label while the cooldown runs (docs/behaviour.md#resend-cooldown). */
export function resendCountdownLabel(secondsLeft: number): string {
  return `Resend in ${secondsLeft}s`;
}

/** `Delete failed` with the reason after it, when there is one. */
export function deleteFailedMessage(reason?: string): string {
  return reason ? `${messages.deleteFailed}: ${reason}` : messages.deleteFailed;
}

/** Files the Scan pages dialog cannot use as pages (not photos, or HEIC this browser cannot read). */
export function scanPagesRefusedMessage(names: readonly string[]): string {
  return `These files cannot be scan pages: ${names.join(', ')}. Add photos (JPEG, PNG, WebP or BMP), or use Upload files.`;
}

/** The question before Cancel throws away a scan's pages. */
export function scanDiscardConfirm(pages: number): string {
  return pages === 1 ? 'Discard the scanned page?' : `Discard the ${pages} scanned pages?`;
}

/** A scan whose PDF could not be made; the pages stay in the dialog. */
export function scanFailedMessage(reason: string): string {
  return `The scan could not be made into a PDF: ${reason}`;
}

/** Said after an upload batch stored files: `3 files uploaded.` */
export function filesUploadedMessage(count: number): string {
  return count === 1 ? '1 file uploaded.' : `${count} files uploaded.`;
}

/**
 * A file over the server's upload limit (docs/behaviour.md#server-messages): `This file is larger than
 * the 25 MB limit.` The server answers it (413) and the upload queue shows it before trying.
 */
export function fileTooLargeMessage(maxUploadBytes: number): string {
  return `This file is larger than the ${formatSizeLimit(maxUploadBytes)} limit.`;
}

/** The question before leaving a category with files not uploaded: `1 file is not uploaded yet.` */
export function notUploadedYetMessage(count: number): string {
  return count === 1 ? '1 file is not uploaded yet.' : `${count} files are not uploaded yet.`;
}

/** The question an admin answers when approving someone: OK makes them Officer, Cancel Volunteer. */
export function makeOfficerQuestion(person: { firstName: string; lastName: string }): string {
  return `Make ${fullName(person)} an Officer? Choose Cancel to make them a Volunteer.`;
}

/** The phrase an admin types to close a season: `CLOSE SEASON 2026`. */
export function seasonClosePhrase(year: number): string {
  return `CLOSE SEASON ${year}`;
}

/** The offer after signing in on a device that kept someone's queued files: `You have 3 files waiting to upload.` */
export function filesWaitingMessage(count: number): string {
  return count === 1 ? 'You have 1 file waiting to upload.' : `You have ${count} files waiting to upload.`;
}

/**
 * With no connection, when the device keeps files the person added that wait for it (after a reload
 * too): `You are offline. 1 file you added is kept on this device and will upload when the connection returns.`
 */
export function offlineKeptMessage(count: number): string {
  return count === 1
    ? 'You are offline. 1 file you added is kept on this device and will upload when the connection returns.'
    : `You are offline. ${count} files you added are kept on this device and will upload when the connection returns.`;
}

/** Kept files whose bytes are gone (not kept, or unreadable): the person must choose them again. */
export function filesLostMessage(count: number): string {
  return count === 1
    ? '1 file could not be restored on this device. Choose it again to upload it:'
    : `${count} files could not be restored on this device. Choose them again to upload them:`;
}

/** Told on the next sign-in on a device where another person's sign-in deleted this person's kept files. */
export function filesDeletedForOtherMessage(count: number): string {
  const files = count === 1 ? '1 file' : `${count} files`;
  return `${files} you left waiting to upload on this device were deleted because someone else signed in here. Upload them again.`;
}

/** The question before the kept-files banner's Discard deletes them from the device (not uploaded). */
export function discardKeptConfirm(count: number): string {
  return count === 1
    ? 'Discard 1 file waiting to upload? It is deleted from this device and not uploaded.'
    : `Discard ${count} files waiting to upload? They are deleted from this device and not uploaded.`;
}

/** The question before signing out while files are not uploaded: they are deleted from the device. */
export function logoutWithWaitingConfirm(count: number): string {
  const files = count === 1 ? '1 file is' : `${count} files are`;
  return `${files} still waiting to upload. Log out anyway? They will be deleted from this device.`;
}

/** The tray in the header while files are sent: `Uploading 2 of 5`. */
export function uploadingTrayLabel(current: number, total: number): string {
  return `Uploading ${current} of ${total}`;
}

/** The tray while files wait for something (Upload, a retry, the connection): `3 files waiting to upload`. */
export function waitingTrayLabel(count: number): string {
  return count === 1 ? '1 file waiting to upload' : `${count} files waiting to upload`;
}

/** The question before an admin changes someone's role on the user screen (it ends their sessions). */
export function roleChangeConfirm(
  person: { firstName: string; lastName: string },
  role: 'officer' | 'volunteer',
): string {
  const what =
    role === 'officer' ? `Make ${fullName(person)} an Officer?` : `Set ${fullName(person)} to Volunteer?`;
  return `${what} They will be signed out and must sign in again.`;
}

/** `Dec 2, 2026`: a day as the submission line and the retention notices name it (UTC), as every date. */
export function longDate(iso: string): string {
  return formatDate(iso, { utc: true });
}

/** The question before `Mark as submitted`: what it means, and what the retention rule then does. */
export function markSubmittedConfirm(clientName: string, retentionDays: number | null): string {
  const rule =
    retentionDays === null
      ? ''
      : ` The retention rule deletes their documents ${retentionDays} days after that; until then you can undo it.`;
  return `Mark ${clientName} as submitted? This records that their return was filed.${rule}`;
}

/** The client documents page once submitted: `Submitted on December 2, 2026` */
export function submittedOnText(iso: string): string {
  return `Submitted on ${longDate(iso)}`;
}

/** While the retention rule is on: `Documents will be deleted on January 1, 2027.` */
export function documentsDeletedOnText(iso: string): string {
  return `Documents will be deleted on ${longDate(iso)}.`;
}

/** The Settings screen under a saved rule: how many clients it will touch and its next day. */
export function retentionReachText(clients: number, nextDeletionOn: string | null): string {
  if (clients === 0 || !nextDeletionOn)
    return 'No submitted client has documents for this rule to delete yet.';
  const who = clients === 1 ? '1 submitted client' : `${clients} submitted clients`;
  return `This rule will delete the documents of ${who}. The next deletion is on ${longDate(nextDeletionOn)}.`;
}
