import type { User } from '@vita-docs/core/contract';
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
