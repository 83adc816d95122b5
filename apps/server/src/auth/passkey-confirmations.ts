/**
 * The mailed confirmation a held-back session (the passkey rule, passkey-policy.ts) needs before it
 * enrols a first passkey: PIN + code alone must not be enough to add the authenticator that then
 * signs in for good. A 6-digit code is mailed to the account; it is bound to the session that asked,
 * lives 15 minutes, takes five tries, confirms once, and the confirmation lets one passkey be kept.
 */
import { sql } from 'kysely';
import { CODE_LENGTH } from '@vita-docs/core/contract';
import type { Db } from '../db/database.js';
import { hmac, randomDigits, safeEqual, sha256 } from './crypto.js';

export const CONFIRMATION_MINUTES = 15;
const MAX_TRIES = 5;

const codeHash = (key: Buffer, email: string, code: string) => hmac(key, `passkey-confirm|${email}|${code}`);

/** The session a confirmation belongs to, hashed so the table holds no live cookie value. */
export const sessionHashOf = (sessionToken: string) => sha256(`passkey-confirm|${sessionToken}`);

/** A fresh code for this session, replacing one it asked for before; the plain code is for the mail. */
export async function issueConfirmation(
  db: Db,
  key: Buffer,
  asked: { email: string; sessionHash: string },
): Promise<string> {
  const code = randomDigits(CODE_LENGTH);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('passkey_confirmations').where('session_hash', '=', asked.sessionHash).execute();
    // Rows of sessions long gone are of no use to anyone: dropped whenever a new one is made.
    await trx
      .deleteFrom('passkey_confirmations')
      .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
      .execute();
    await trx
      .insertInto('passkey_confirmations')
      .values({
        user_email: asked.email,
        session_hash: asked.sessionHash,
        code_hash: codeHash(key, asked.email, code),
        expires_at: sql<Date>`now() + make_interval(mins => ${CONFIRMATION_MINUTES})`,
      })
      .execute();
  });
  return code;
}

/**
 * Checks the code this session was mailed. A try is taken atomically before the comparison (parallel
 * guesses cannot exceed five); the right code marks the confirmation, after which the code is spent.
 */
export async function confirm(
  db: Db,
  key: Buffer,
  input: { email: string; sessionHash: string; code: string },
): Promise<boolean> {
  const live = await db
    .updateTable('passkey_confirmations')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('session_hash', '=', input.sessionHash)
    .where('user_email', '=', input.email)
    .where('confirmed_at', 'is', null)
    .where('attempts', '<', MAX_TRIES)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['id', 'code_hash'])
    .executeTakeFirst();
  if (!live || !safeEqual(live.code_hash, codeHash(key, input.email, input.code))) return false;
  const marked = await db
    .updateTable('passkey_confirmations')
    .set({ confirmed_at: new Date() })
    .where('id', '=', live.id)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  return marked.numUpdatedRows === 1n;
}

/** Whether this session holds a confirmed, unused confirmation that has not expired. */
export async function isConfirmed(db: Db, sessionHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('passkey_confirmations')
    .select('id')
    .where('session_hash', '=', sessionHash)
    .where('confirmed_at', 'is not', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Spends this session's confirmation (inside the transaction that keeps the passkey); false without one. */
export async function useConfirmation(db: Db, sessionHash: string): Promise<boolean> {
  const used = await db
    .updateTable('passkey_confirmations')
    .set({ used_at: new Date() })
    .where('session_hash', '=', sessionHash)
    .where('confirmed_at', 'is not', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}
