import type { Db } from './db/database.js';

/** One audited action: who did what to which client / files, from where. */
export interface AuditRecord {
  actor: string | null;
  action: string;
  clientId?: string | null;
  keys?: string[];
  ip?: string | null;
  detail?: string | null;
}

/** Appends to the audit log. Awaited by the caller: an action that cannot be audited fails rather than going unrecorded. */
export async function audit(db: Db, record: AuditRecord): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor: record.actor,
      action: record.action,
      client_id: record.clientId ?? null,
      keys: JSON.stringify(record.keys ?? []),
      ip: record.ip ?? null,
      detail: record.detail ?? null,
    })
    .execute();
}
