import { sql } from 'kysely';
import { CODE_LENGTH } from '@vita-docs/core';
import type { Db } from '../db/database.js';
import { hmac, randomDigits, safeEqual } from './crypto.js';

export type CodePurpose = 'login' | 'reset';

/** How long an emailed code stays valid. */
const CODE_TTL_MINUTES = 10;
/** Wrong tries after which a code is dead. */
const MAX_CODE_ATTEMPTS = 5;
/** Codes one email may be sent per purpose per hour (first sends and resends together). */
export const MAX_CODES_PER_HOUR = 20;

const codeHash = (key: Buffer, email: string, purpose: CodePurpose, code: string) =>
  hmac(key, `${purpose}|${email}|${code}`);

/**
 * Issues a fresh code for an email and purpose, killing any earlier live one (only the newest
 * code works). Returns the plain code for the mail; only an HMAC of it is stored.
 */
export async function issueCode(
  db: Db,
  key: Buffer,
  input: { email: string; purpose: CodePurpose; kind: 'initial' | 'resend'; requester: string | null },
): Promise<string> {
  const code = randomDigits(CODE_LENGTH);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('codes')
      .set({ consumed_at: new Date() })
      .where('email', '=', input.email)
      .where('purpose', '=', input.purpose)
      .where('consumed_at', 'is', null)
      .execute();
    await trx
      .insertInto('codes')
      .values({
        email: input.email,
        purpose: input.purpose,
        kind: input.kind,
        code_hash: codeHash(key, input.email, input.purpose, code),
        requester: input.requester,
        expires_at: sql<Date>`now() + make_interval(mins => ${CODE_TTL_MINUTES})`,
      })
      .execute();
  });
  return code;
}

/**
 * Checks a code. A wrong guess uses up one of the code's tries (atomically, so parallel guesses
 * cannot exceed the limit); the right code is consumed so it works once.
 */
export async function consumeCode(
  db: Db,
  key: Buffer,
  input: { email: string; purpose: CodePurpose; code: string; requester: string },
): Promise<boolean> {
  // Only the browser that asked for the code may try it: another browser's wrong guesses cannot
  // use up (and so kill) someone's live code.
  const live = await db
    .updateTable('codes')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('codes')
        .select('id')
        .where('email', '=', input.email)
        .where('purpose', '=', input.purpose)
        .where('requester', '=', input.requester)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .orderBy('id', 'desc')
        .limit(1),
    )
    .where('attempts', '<', MAX_CODE_ATTEMPTS)
    .returning(['id', 'code_hash'])
    .executeTakeFirst();
  const expected = codeHash(key, input.email, input.purpose, input.code);
  if (!live || !safeEqual(live.code_hash, expected)) return false;
  const consumed = await db
    .updateTable('codes')
    .set({ consumed_at: new Date(), used: true })
    .where('id', '=', live.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return consumed.numUpdatedRows === 1n;
}

/** Codes sent to this email for `purpose` within the last hour. */
export async function codesSentLastHour(db: Db, email: string, purpose: CodePurpose): Promise<number> {
  const row = await db
    .selectFrom('codes')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('email', '=', email)
    .where('purpose', '=', purpose)
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The open challenge of a pre-session: the email of the newest first code it asked for within the
 * code lifetime, provided no code of that email has signed anyone in since. Resends are only ever
 * for this challenge, so a stranger cannot make the server mail (and rate-limit) someone else.
 */
export async function openChallenge(db: Db, requester: string, purpose: CodePurpose): Promise<string | null> {
  const initial = await db
    .selectFrom('codes')
    .select(['email', 'created_at'])
    .where('requester', '=', requester)
    .where('purpose', '=', purpose)
    .where('kind', '=', 'initial')
    .where('created_at', '>', sql<Date>`now() - make_interval(mins => ${CODE_TTL_MINUTES})`)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!initial) return null;
  const used = await db
    .selectFrom('codes')
    .select('id')
    .where('email', '=', initial.email)
    .where('purpose', '=', purpose)
    .where('used', '=', true)
    .where('created_at', '>=', initial.created_at)
    .limit(1)
    .executeTakeFirst();
  return used ? null : initial.email;
}

/** Deletes codes nobody can use any more. */
export async function pruneCodes(db: Db): Promise<void> {
  await db.deleteFrom('codes').where('created_at', '<', sql<Date>`now() - interval '2 hours'`).execute();
}
