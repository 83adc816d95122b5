/**
 * What the audit log records (docs/behaviour.md#audit-log): each action's name as the server writes
 * it. The words the audit screen shows for them are in `audit-labels.ts`.
 */
export const AUDIT_ACTIONS = [
  'doc.upload',
  'doc.view',
  'doc.download',
  'doc.fetch',
  'doc.rename',
  'doc.delete',
  'doctype.add',
  'doctype.delete',
  'client.create',
  'client.submit',
  'client.unsubmit',
  'client.download-all',
  'client.reassign',
  'client.delete',
  'client.retention',
  'retention.set',
  'season.download',
  'season.close',
  'client.season-close',
  'user.approve',
  'user.unapprove',
  'user.role',
  'user.delete',
  'passkey.create',
  'passkey.use',
  'passkey.remove',
  'passkey.policy',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
