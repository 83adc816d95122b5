import { canAccessClient, FIXED_CATEGORIES, isCategoryTemplate, type Client } from '@vita-docs/core/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ClientsTable } from '../db/schema.js';
import type { UserRow } from '../auth/sessions.js';
import { isForeignKeyViolation } from '../db/errors.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { actorOf } from '../http/route.js';

export type ClientRow = Selectable<ClientsTable>;

export const CLIENT_NOT_FOUND = 'Client not found.';

/** A client row as the wire contract shows it (never the PIN hash). */
export function toClient(row: ClientRow): Client {
  return {
    clientId: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    hasPin: row.pin_hash !== null,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    ...(row.created_by === null ? { previousCreatedBy: row.previous_created_by } : {}),
    submittedAt: row.submitted_at?.toISOString() ?? null,
  };
}

/** The client, if `user` may work with its documents (owner or admin); 404 / 403 otherwise. */
export async function clientFor(db: Db, user: UserRow, clientId: string): Promise<ClientRow> {
  const row = await db.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirst();
  assertClientAccess(user, row);
  return row;
}

/** 404 when the client does not exist, 403 when `user` may not work with its documents. */
export function assertClientAccess<T extends { created_by: string | null }>(
  user: UserRow,
  client: T | undefined,
): asserts client is T {
  if (!client) throw notFound(CLIENT_NOT_FOUND);
  if (!canAccessClient(actorOf(user), { createdBy: client.created_by })) {
    throw forbidden('This client belongs to another volunteer.');
  }
}

/** The client's categories: the five fixed ones, then custom ones in the order they were added. */
export async function clientDocTypes(db: Db, clientId: string): Promise<string[]> {
  const custom = await db
    .selectFrom('client_doc_types')
    .select('name')
    .where('client_id', '=', clientId)
    .orderBy('position', 'asc')
    .execute();
  return [...FIXED_CATEGORIES, ...custom.map((c) => c.name)];
}

/** True when `docType` is one of the client's categories; a fixed one, which every client has, needs no query. */
export async function hasDocType(db: Db, clientId: string, docType: string): Promise<boolean> {
  if ((FIXED_CATEGORIES as readonly string[]).includes(docType)) return true;
  const row = await db
    .selectFrom('client_doc_types')
    .select('name')
    .where('client_id', '=', clientId)
    .where('name', '=', docType)
    .executeTakeFirst();
  return row !== undefined;
}

/** Storage prefix of one category of a client, or of the whole client. */
export function docPrefix(clientId: string, docType?: string): string {
  return docType === undefined ? `${clientId}/` : `${clientId}/${encodeURIComponent(docType)}/`;
}

/**
 * Makes `docType` one of the client's categories for a document moved there: an existing one is
 * used, a template the client lacks is added (as `addDocType` would), anything else is refused.
 * Returns whether it was added.
 */
export async function ensureDocType(db: Db, clientId: string, docType: string): Promise<boolean> {
  if (await hasDocType(db, clientId, docType)) return false;
  if (!isCategoryTemplate(docType)) throw badRequest(`Unknown document type “${docType}”.`);
  const added = await db
    .insertInto('client_doc_types')
    .values({ client_id: clientId, name: docType })
    // Added meanwhile by another request: then it is there, which is all a move needs.
    .onConflict((oc) => oc.doNothing())
    .returning('name')
    .executeTakeFirst()
    .catch((err: unknown) => {
      // The client was deleted between the check and this insert.
      throw isForeignKeyViolation(err) ? notFound(CLIENT_NOT_FOUND) : err;
    });
  return added !== undefined;
}
