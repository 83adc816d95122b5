/**
 * The words the audit screen shows for each recorded action. Apart from the actions themselves
 * (`audit.ts`, which the API contract loads with the first page): only the audit screen needs these.
 */
import type { AuditAction } from './audit.js';
import { parseDocKey } from './files.js';

/** The audit screen's name for an action. */
export const AUDIT_ACTION_LABELS: Readonly<Record<AuditAction, string>> = {
  'doc.upload': 'Uploaded a file',
  'doc.view': 'Viewed a file',
  'doc.download': 'Downloaded a file',
  'doc.fetch': 'Opened a file link',
  'doc.rename': 'Renamed a file',
  'doc.move': 'Moved a file to another category',
  'doc.delete': 'Deleted files',
  'doctype.add': 'Added a document type',
  'doctype.delete': 'Deleted a document type',
  'client.create': 'Created a client',
  'client.submit': 'Submitted a client',
  'client.unsubmit': 'Undid a client’s submission',
  'client.download-all': 'Downloaded a client’s ZIP',
  'client.reassign': 'Reassigned a client',
  'client.delete': 'Deleted a client',
  'client.retention': 'Documents deleted by the retention rule',
  'retention.set': 'Changed the retention rule',
  'season.download': 'Downloaded every client’s documents',
  'season.close': 'Closed the season',
  'client.season-close': 'Documents deleted by the season close',
  'user.approve': 'Approved an account',
  'user.unapprove': 'Withdrew an approval',
  'user.role': 'Changed a role',
  'user.delete': 'Deleted an account',
  'passkey.create': 'Created a passkey',
  'passkey.use': 'Signed in with a passkey',
  'passkey.remove': 'Removed passkeys',
  'passkey.policy': 'Changed the passkey rule',
  'link.create': 'Requested documents from a client',
  'link.send': 'Mailed a document request',
  'link.open': 'Client opened a request link',
  'link.verify': 'Client proved who they are',
  'link.fail': 'Wrong code or PIN on a request link',
  'link.lock': 'A request link locked after wrong answers',
  'link.code': 'Mailed a client a request code',
  'link.consent': 'Client signed the consent statement',
  'link.upload': 'Client uploaded a file',
  'link.remove': 'Client removed a file',
  'link.missing': 'Client does not have a document',
  'link.done': 'Client finished a request',
  'link.revoke': 'Revoked a request link',
  'link.expire': 'A request link expired',
  'link.remind': 'Reminded a client of a request',
  'consent.set': 'Changed the consent statement of request links',
  'programme.set': 'Changed the programme name',
  'reading.set': 'Changed checking documents on the device',
};

/** The label of a recorded action; an action this version does not know shows as recorded. */
export function auditActionLabel(action: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
}

/**
 * Who did it, for people: an account's email as recorded; a client acting through a request link
 * (recorded as `link:<id>`) by their name, `Client Rosa Díaz (request link)` (the screen and the CSV).
 */
export function auditActorLabel(entry: { actor: string | null; clientName: string | null }): string {
  const { actor, clientName } = entry;
  if (actor === null) return '—';
  if (!actor.startsWith('link:')) return actor;
  return clientName ? `Client ${clientName} (request link)` : 'Client (request link)';
}

/** The files an entry names, as `category / file name` where the key says so (the screen and the CSV). */
export function auditFiles(keys: readonly string[]): string[] {
  return keys.map((key) => {
    const parts = parseDocKey(key);
    return parts ? `${parts.docType} / ${parts.filename}` : key;
  });
}
