import { searchFold } from '@vita-docs/core/contract';
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

/**
 * The ids a client search means: the text itself (an id, maybe of a deleted client) and every client
 * whose name contains it, compared without case or accents. The names are folded here rather than in
 * SQL because PostgreSQL's accent folding (`unaccent`) is an extension the embedded server may lack;
 * a programme has hundreds or a few thousand clients, one narrow read.
 */
async function clientIdsFor(db: Db, text: string): Promise<string[]> {
  const wanted = searchFold(text);
  const rows = await db.selectFrom('clients').select(['id', 'first_name', 'last_name']).execute();
  const named = rows.filter((r) => searchFold(`${r.first_name} ${r.last_name}`).includes(wanted));
  return [text, ...named.map((r) => r.id)];
}

/** What the admin's audit log is filtered by; every filter optional. */
export interface AuditFilter {
  limit: number;
  clientId?: string | undefined;
  /** A client's id or part of its name. */
  client?: string | undefined;
  actor?: string | undefined;
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  before?: number | undefined;
}

/** Audit entries, newest first, each with its client's name (null once the client is deleted). */
export async function readAuditLog(db: Db, f: AuditFilter) {
  let q = db
    .selectFrom('audit_log')
    .leftJoin('clients', 'clients.id', 'audit_log.client_id')
    .selectAll('audit_log')
    .select(['clients.first_name', 'clients.last_name'])
    .orderBy('audit_log.id', 'desc')
    .limit(f.limit);
  if (f.clientId) q = q.where('audit_log.client_id', '=', f.clientId);
  if (f.client) q = q.where('audit_log.client_id', 'in', await clientIdsFor(db, f.client));
  if (f.actor) q = q.where('audit_log.actor', '=', f.actor);
  if (f.action) q = q.where('audit_log.action', '=', f.action);
  if (f.from) q = q.where('audit_log.at', '>=', new Date(f.from));
  if (f.to) q = q.where('audit_log.at', '<', new Date(f.to));
  if (f.before) q = q.where('audit_log.id', '<', f.before);
  return q.execute();
}
