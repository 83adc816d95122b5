import type { User } from '@vita-docs/core/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { UserRow } from '../auth/sessions.js';

/** A user row as the wire contract shows it (never the PIN hash). */
export function toUser(row: UserRow): User {
  return {
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    isAdmin: row.is_admin,
    approved: row.approved,
    createdAt: row.created_at.toISOString(),
    ...(row.suspended ? { suspended: true as const } : {}),
  };
}

/** The account with this (normalised) email, if any. */
export function findUser(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Every account (`pendingOnly`: those awaiting approval), oldest first. */
export function listUserRows(db: Db, pendingOnly: boolean): Promise<UserRow[]> {
  let q = db.selectFrom('users').selectAll().orderBy('created_at', 'asc').orderBy('email', 'asc');
  if (pendingOnly) q = q.where('approved', '=', false);
  return q.execute();
}

/**
 * Gives or takes away `email`'s approval. Only the approval that takes the account from pending to
 * approved records who and when (`approvedNow`, so two officers approving at once send one mail);
 * approving again changes nothing. `updated` is undefined when the account is gone.
 */
export async function setApproval(db: Db, email: string, approved: boolean, by: string) {
  const approvedNow = approved
    ? await db
        .updateTable('users')
        .set({ approved: true, approved_at: new Date(), approved_by: by, suspended: false })
        .where('email', '=', email)
        .where('approved', '=', false)
        .returningAll()
        .executeTakeFirst()
    : undefined;
  const updated =
    approvedNow ??
    (await db
      .updateTable('users')
      .set(
        approved
          ? {
              approved: true,
              suspended: false,
              approved_at: sql<Date>`coalesce(approved_at, now())`,
              approved_by: sql<string>`coalesce(approved_by, ${by})`,
            }
          : { approved: false, approved_at: null, approved_by: null },
      )
      .where('email', '=', email)
      .returningAll()
      .executeTakeFirst());
  return { updated, approvedNow };
}

/** Sets an account's role; undefined when the account is gone. */
export function setRole(db: Db, email: string, role: UserRow['role']): Promise<UserRow | undefined> {
  return db.updateTable('users').set({ role }).where('email', '=', email).returningAll().executeTakeFirst();
}

/** Deletes an account; its clients stay, orphaned, remembering who had them, until an officer reassigns them. */
export async function deleteUserRow(db: Db, email: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('clients')
      .set((eb) => ({ previous_created_by: eb.ref('created_by'), created_by: null }))
      .where('created_by', '=', email)
      .execute();
    await trx.deleteFrom('users').where('email', '=', email).execute();
  });
}
