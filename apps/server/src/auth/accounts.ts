/**
 * Making an account and setting its PIN again: registration (an empty install's first account may
 * take the admin seat) and Forgot Password's reset grants, the short-lived proof that a mailed code
 * was right.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { sha256 } from './crypto.js';

/** A registration, its PIN already hashed. */
export interface Registration {
  email: string;
  firstName: string;
  lastName: string;
  pinHash: string;
}

/**
 * Registers an account: `exists` when the email has one (nothing changes), `first` when no admin
 * existed and `mayTakeAdminSeat` (it is then an approved admin), else `pending`; `noAdmin` says no
 * admin existed. Registrations are serialised so two "first" accounts cannot both become admin.
 */
export function registerAccount(
  db: Db,
  r: Registration,
  mayTakeAdminSeat: boolean,
): Promise<{ outcome: 'exists' | 'first' | 'pending'; noAdmin: boolean }> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(7331)`.execute(trx);
    if (await trx.selectFrom('users').select('email').where('email', '=', r.email).executeTakeFirst())
      return { outcome: 'exists' as const, noAdmin: false };
    const hasAdmin = await trx
      .selectFrom('users')
      .select('email')
      .where('is_admin', '=', true)
      .executeTakeFirst();
    const first = hasAdmin === undefined && mayTakeAdminSeat;
    await trx
      .insertInto('users')
      .values({
        email: r.email,
        first_name: r.firstName,
        last_name: r.lastName,
        pin_hash: r.pinHash,
        role: first ? 'officer' : 'volunteer',
        is_admin: first,
        approved: first,
        approved_at: first ? new Date() : null,
      })
      .execute();
    return { outcome: first ? ('first' as const) : ('pending' as const), noAdmin: hasAdmin === undefined };
  });
}

/** Stores a reset grant (only its hash) for `email`, good for `minutes`. */
export async function issueResetGrant(db: Db, grant: string, email: string, minutes: number): Promise<void> {
  await db
    .insertInto('reset_grants')
    .values({
      token_hash: sha256(grant),
      email,
      expires_at: sql<Date>`now() + make_interval(mins => ${minutes})`,
    })
    .execute();
}

/** The email of an unused, unexpired reset grant, if the grant is one. */
export async function liveResetGrant(db: Db, grant: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('reset_grants')
    .select('email')
    .where('token_hash', '=', sha256(grant))
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.email;
}

/** Uses a reset grant up (once: of two requests with it, one wins); the email it was for, if it was live. */
export async function useResetGrant(db: Db, grant: string): Promise<string | undefined> {
  const used = await db
    .updateTable('reset_grants')
    .set({ used_at: new Date() })
    .where('token_hash', '=', sha256(grant))
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('email')
    .executeTakeFirst();
  return used?.email;
}

/** Sets an account's Password PIN (hashed). */
export async function setPinHash(db: Db, email: string, pinHash: string): Promise<void> {
  await db.updateTable('users').set({ pin_hash: pinHash }).where('email', '=', email).execute();
}

/** The person declined the passkey offer for now (asked again later). */
export async function declinePasskeyOffer(db: Db, email: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ passkey_offer_declined_at: sql<Date>`now()` })
    .where('email', '=', email)
    .execute();
}
