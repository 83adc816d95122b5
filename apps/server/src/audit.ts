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

/**
 * Appends to the audit log and returns the entry's id. Awaited by the caller: an action that cannot
 * be audited fails rather than going unrecorded.
 */
export async function audit(db: Db, record: AuditRecord): Promise<number> {
  const { id } = await db
    .insertInto('audit_log')
    .values({
      actor: record.actor,
      action: record.action,
      client_id: record.clientId ?? null,
      keys: JSON.stringify(record.keys ?? []),
      ip: record.ip ?? null,
      detail: record.detail ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Records that a signed link fetched a document's bytes: the actor is whoever the link was issued to
 * (the entry `issuedUnder`, written when it was signed), the address is the fetcher's.
 */
export async function auditFetch(
  db: Db,
  fetch: { issuedUnder: number; clientId: string; key: string; ip: string },
): Promise<void> {
  // One statement: a PDF viewer fetches a link in many ranges, and each fetch waits for its entry.
  await db
    .insertInto('audit_log')
    .values({
      actor: (eb) => eb.selectFrom('audit_log').select('actor').where('id', '=', fetch.issuedUnder),
      action: 'doc.fetch',
      client_id: fetch.clientId,
      keys: JSON.stringify([fetch.key]),
      ip: fetch.ip,
      detail: `link of entry ${fetch.issuedUnder}`,
    })
    .execute();
}
