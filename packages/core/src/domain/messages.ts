/**
 * Every fixed text of alerts and confirms (docs/behaviour.md#messages), in one place. Screens and flows
 * import these; nothing else spells them out.
 */
import type { QualityWarning } from '../quality/assess.js';
import { formatSizeLimit } from './format.js';

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
  photoTooDark: 'This photo looks too dark.',
  photoWashedOut: 'This photo looks washed out.',
  photoBlurry: 'This photo looks blurry.',
  pageBlank: 'This page looks blank.',
  photoTooSmall: 'This photo is too small to read.',
  heicUploadedAsIs: 'This HEIC photo is uploaded as is; this browser cannot convert it.',
  scanTooManyPages: 'A scan can have at most 30 pages.',
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
