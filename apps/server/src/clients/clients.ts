import { canAccessClient, FIXED_CATEGORIES, isCategoryTemplate, type Client } from '@vita-docs/core/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors.js';
import type { ClientsTable } from '../db/schema.js';
import type { UserRow } from '../auth/sessions.js';
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
  const row = await findClient(db, clientId);
  assertClientAccess(user, row);
  return row;
}

/** The client with that id, whoever asks. */
export function findClient(db: Db, clientId: string): Promise<ClientRow | undefined> {
  return db.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirst();
}

/** Deletes a client's row; its documents' rows go with it (the bytes are the caller's). */
export async function deleteClientRow(db: Db, clientId: string): Promise<void> {
  await db.deleteFrom('clients').where('id', '=', clientId).execute();
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

/** Adds the custom category `name` to the client unless it has it already. */
export async function ensureDocType(db: Db, clientId: string, name: string): Promise<void> {
  if (await hasDocType(db, clientId, name)) return;
  await db
    .insertInto('client_doc_types')
    .values({ client_id: clientId, name })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Storage prefix of one category of a client, or of the whole client. */
export function docPrefix(clientId: string, docType?: string): string {
  return docType === undefined ? `${clientId}/` : `${clientId}/${encodeURIComponent(docType)}/`;
}

/** What a new client is made of (the PIN already hashed). */
export interface NewClient {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  pinHash: string | null;
  createdBy: string;
}

/** Inserts a client; `duplicate` when its volunteer already has a client with that email. */
export async function insertClient(db: Db, c: NewClient): Promise<ClientRow | 'duplicate'> {
  try {
    return await db
      .insertInto('clients')
      .values({
        id: c.id,
        first_name: c.firstName,
        last_name: c.lastName,
        email: c.email,
        phone: c.phone,
        pin_hash: c.pinHash,
        created_by: c.createdBy,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (err) {
    if (isUniqueViolation(err)) return 'duplicate';
    throw err;
  }
}

/** Every client (`createdBy` undefined), or one volunteer's, newest first. */
export function listClientRows(db: Db, createdBy?: string): Promise<ClientRow[]> {
  let query = db.selectFrom('clients').selectAll();
  if (createdBy !== undefined) query = query.where('created_by', '=', createdBy);
  return query.orderBy('created_at', 'desc').execute();
}

/** Marks the client submitted now; undefined when it was deleted meanwhile. */
export async function markSubmitted(db: Db, clientId: string, by: string): Promise<Date | undefined> {
  const row = await db
    .updateTable('clients')
    .set({ submitted_at: new Date(), submitted_by: by })
    .where('id', '=', clientId)
    .returning('submitted_at')
    .executeTakeFirst();
  if (!row) return undefined;
  // The column is nullable in general, never right after this update set it.
  if (!row.submitted_at) throw new Error('submitted_at was not stored');
  return row.submitted_at;
}

/**
 * Takes a submission back, until the retention rule deleted the documents under it (after that there
 * is nothing to keep); undefined when the client is not submitted or that happened.
 */
export function unmarkSubmitted(db: Db, clientId: string): Promise<ClientRow | undefined> {
  return db
    .updateTable('clients')
    .set({ submitted_at: null, submitted_by: null, retention_notice_at: null, retention_due_at: null })
    .where('id', '=', clientId)
    .where('submitted_at', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('documents_deleted_at', 'is', null),
        eb('documents_deleted_at', '<', eb.ref('submitted_at')),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Adds a custom category: `duplicate` when it exists, `gone` when the client was deleted meanwhile. */
export async function insertDocType(
  db: Db,
  clientId: string,
  name: string,
): Promise<'added' | 'duplicate' | 'gone'> {
  try {
    await db.insertInto('client_doc_types').values({ client_id: clientId, name }).execute();
    return 'added';
  } catch (err) {
    if (isUniqueViolation(err)) return 'duplicate';
    if (isForeignKeyViolation(err)) return 'gone';
    throw err;
  }
}

/** The client's custom category of that name, if there is one. */
export async function findCustomDocType(db: Db, clientId: string, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('client_doc_types')
    .select('name')
    .where('client_id', '=', clientId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.name;
}

/** Deletes a custom category's rows and its documents' rows, together (the bytes are the caller's). */
export async function deleteDocTypeRows(db: Db, clientId: string, name: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('documents')
      .where('client_id', '=', clientId)
      .where('doc_type', '=', name)
      .execute();
    await trx
      .deleteFrom('client_doc_types')
      .where('client_id', '=', clientId)
      .where('name', '=', name)
      .execute();
  });
}

/**
 * Makes `docType` one of the client's categories for a document moved there: an existing one is
 * used, a template the client lacks is added (as `addDocType` would), anything else is refused.
 * Returns whether it was added.
 */
export async function ensureMoveTarget(db: Db, clientId: string, docType: string): Promise<boolean> {
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
