/**
 * Who looks after a client: finding it as the officer and admin calls identify it, giving it to
 * another account (the old owner remembered as previous), the orphans and the accounts to pick from.
 */
import { sql } from 'kysely';
import type { ClientRow } from '../clients/clients.js';
import type { Db } from '../db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors.js';

/** How a move names its client: by id, or by owner (null: an orphan) and the client's email. */
export interface ClientLookup {
  clientId?: string | undefined;
  owner: string | null;
  clientEmail: string;
}

/** The client named, `none`, or `several` when an owner + email names more than one. */
export async function findClientToMove(db: Db, by: ClientLookup): Promise<ClientRow | 'none' | 'several'> {
  let q = db.selectFrom('clients').selectAll();
  if (by.clientId) q = q.where('id', '=', by.clientId);
  else if (by.owner)
    q = q.where('created_by', '=', by.owner.trim().toLowerCase()).where('email', '=', by.clientEmail);
  else q = q.where('created_by', 'is', null).where('email', '=', by.clientEmail);
  const [row, ...others] = await q.limit(2).execute();
  if (!row) return 'none';
  return others.length ? 'several' : row;
}

/**
 * Gives the client to `owner`, remembering `previous`: the updated row; `gone` when the client was
 * deleted meanwhile, `duplicate` when the owner already has a client with its email, `no-account`
 * when the owner's account went.
 */
export async function setClientOwner(
  db: Db,
  clientId: string,
  owner: string,
  previous: string | null,
): Promise<ClientRow | 'gone' | 'duplicate' | 'no-account'> {
  try {
    const row = await db
      .updateTable('clients')
      .set({ created_by: owner, previous_created_by: previous })
      .where('id', '=', clientId)
      .returningAll()
      .executeTakeFirst();
    return row ?? 'gone';
  } catch (err) {
    if (isUniqueViolation(err)) return 'duplicate';
    if (isForeignKeyViolation(err)) return 'no-account';
    throw err;
  }
}

/** Clients whose volunteer's account went, oldest first. */
export function orphanedClients(db: Db): Promise<ClientRow[]> {
  return db
    .selectFrom('clients')
    .selectAll()
    .where('created_by', 'is', null)
    .orderBy('created_at', 'asc')
    .execute();
}

/** The approved accounts a client can be given to, by name. */
export function approvedAccounts(db: Db) {
  return db
    .selectFrom('users')
    .select(['email', 'first_name', 'last_name', 'role', 'is_admin'])
    .where('approved', '=', true)
    .orderBy(sql`lower(first_name)`)
    .orderBy(sql`lower(last_name)`)
    .execute();
}
