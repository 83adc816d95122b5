/**
 * Screen texts other than alerts and confirms (core's `messages` holds those); all are listed in
 * docs/behaviour.md#messages. One place, so the tests and the screens agree and a later move into
 * core is a cut and paste.
 */
import { messages } from '@vita-docs/core';
import type { FileProgress } from '@vita-docs/core';

export const PRODUCT_TITLE = 'VITA Documents';

export const texts = {
  deleteUserTitle: 'Delete User?',
  deleteClientTitle: 'Delete Client?',
  noPendingApprovals: 'No accounts are waiting for approval.',
  returningVolunteer: 'Returning volunteer: suspended at the end of last season.',
  noOrphanedClients: 'No clients need reassignment.',
  noUsers: 'No users yet.',
  noClients: 'No clients yet.',
  loading: 'Loading…',
  registerPending: 'Your application is pending approval. Please wait for an admin to accept your account.',
  registerFirstAdmin:
    'This is the first account of this installation, so it is already an approved admin. You can log in now.',
  offline: 'You are offline. Files you add are kept on this device and upload when the connection returns.',
  needsConnection: messages.needsConnection,
  addFiles: 'Add files',
} as const;

/** The volunteer's side of requesting documents from a client (docs/behaviour.md#requesting-documents-from-a-client). */
export const linkTexts = {
  request: 'Request documents from client',
  dialogTitle: 'Request documents',
  send: 'Send link',
  noWayToProve: "Add the client's email or a client PIN first.",
  categories: 'Documents to ask for',
  message: 'Message (optional)',
  days: 'Link works for (days)',
  language: 'Language of the mail and page',
  revoke: 'Revoke link',
  copy: 'Copy',
  copied: 'Copied',
  fromClient: 'From client',
  clientDontHave: "Client: I don't have this",
  newFromClients: 'New from clients',
  qrLabel: 'QR code of the link',
  sent: (email: string, days: number) => `Link sent to ${email}. It works for ${days} days.`,
  notMailed: (days: number) =>
    `Show the client this QR code or give them the link. It works for ${days} days.`,
  openRequest: (sentAt: string, opened: boolean, filesIn: number) =>
    `Request sent ${sentAt}, ${opened ? 'opened' : 'not opened yet'}, ${filesIn} ${filesIn === 1 ? 'file' : 'files'} back.`,
  lockedUntil: (until: string) =>
    `Locked after too many wrong tries until ${until}. You can still revoke the link or send a new request.`,
  lockedForGood:
    'This link closed after too many wrong tries. Send a new request if the client still needs one.',
  doneRequest: (doneAt: string, filesIn: number) =>
    `The client pressed Done ${doneAt}: ${filesIn} ${filesIn === 1 ? 'file' : 'files'} back.`,
} as const;

/** The consent statement form on /admin/settings (docs/behaviour.md#settings-screen). */
export const consentTextTexts = {
  title: 'Consent statement for request links',
  english: 'English',
  spanish: 'Spanish',
  hint: (version: number) =>
    `Clients tick this before their first upload through a request link. Leave a language empty for the default text (shown greyed). Each change gets a new version; this is version ${version}.`,
} as const;

export const programmeNameTexts = {
  title: 'Programme name',
  label: 'Name',
  hint: 'Clients see it on their request page and in every mail about a request link.',
} as const;

/** The body of the "Delete User?" confirm: their clients are kept. */
export function deleteUserBody(name: string, email: string): string {
  return `${name} (${email}) will lose access. This will not delete the clients they created; they will need reassignment.`;
}

/** The body of the "Delete Client?" confirm. */
export function deleteClientBody(name: string): string {
  return `Deleting ${name} also removes all files for the client. This cannot be undone.`;
}

/** The body of the question before leaving a category with files not uploaded (singular or plural). */
export function leaveQueueBody(count: number): string {
  return count === 1
    ? 'Upload now sends it while you go on; Discard removes it from the queue.'
    : 'Upload now sends them while you go on; Discard removes them from the queue.';
}

/** What a drop or pick of files the queue cannot take says (only PDF files and images are stored). */
export function notUploadableMessage(names: readonly string[]): string {
  return `Only PDF files and images can be uploaded. Not added: ${names.join(', ')}`;
}

/** What a queued file is doing, as its line in the queue and the upload tray say it. */
export function progressLabel(progress: FileProgress): string {
  switch (progress.status) {
    case 'converting':
      return 'Converting…';
    case 'saving':
      return 'Keeping on this device…';
    case 'waiting':
      return messages.waitingForConnection;
    case 'queued':
      // Not `Ready`: that is what a category holding stored files says.
      return 'Not uploaded yet';
    case 'uploading':
      return `${progress.total ? Math.floor((progress.loaded / progress.total) * 100) : 0}%`;
    case 'done':
      return 'Uploaded';
    case 'failed':
      return 'Failed';
  }
}
