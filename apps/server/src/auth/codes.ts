import { sql, type ExpressionBuilder } from 'kysely';
import { CODE_LENGTH } from '@vita-docs/core';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { hmac, randomDigits, safeEqual } from './crypto.js';

export type CodePurpose = 'login' | 'reset';

/** How long an emailed code stays valid. */
const CODE_TTL_MINUTES = 10;
/** Wrong tries after which a code is dead. */
const MAX_CODE_ATTEMPTS = 5;
/** Codes one email may be sent per purpose per hour (first sends and resends together). */
const MAX_CODES_PER_HOUR = 20;
/** ... and per day. */
const MAX_CODES_PER_DAY = 40;
/**
 * Wrong codes one email may take per purpose per day, whatever the number of codes: with 5 tries a
 * code and 40 codes a day, a guesser would otherwise get 200 tries a day at a 6-digit code.
 */
const MAX_WRONG_CODES_PER_DAY = 20;
/** Codes are kept this long after they were sent (the daily counts above need them). */
const KEEP_CODES_HOURS = 25;

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
 * What a code check found: the right code (now used up), a wrong, used or expired one, or the live
 * code of this browser dead after its {@link MAX_CODE_ATTEMPTS} wrong tries (the right code no longer
 * works; a resend or a new sign-in gives a fresh one).
 */
export type CodeCheck = 'ok' | 'wrong' | 'exhausted';

/**
 * Checks a code. A wrong guess uses up one of the code's tries (atomically, so parallel guesses
 * cannot exceed the limit); the right code is consumed so it works once.
 */
export async function consumeCode(
  db: Db,
  key: Buffer,
  input: { email: string; purpose: CodePurpose; code: string; requester: string },
): Promise<CodeCheck> {
  // Only the browser that asked for the code may try it: another browser's wrong guesses cannot
  // use up (and so kill) someone's live code.
  const newestLive = (eb: ExpressionBuilder<Database, 'codes'>) =>
    eb
      .selectFrom('codes')
      .select('id')
      .where('email', '=', input.email)
      .where('purpose', '=', input.purpose)
      .where('requester', '=', input.requester)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .orderBy('id', 'desc')
      .limit(1);
  const live = await db
    .updateTable('codes')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('id', '=', newestLive)
    .where('attempts', '<', MAX_CODE_ATTEMPTS)
    // Tries of the day so far, used or not; a used code's one right try is never counted against it.
    .where(
      sql<boolean>`(select coalesce(sum(c.attempts - c.used::int), 0) from codes c
        where c.email = ${input.email} and c.purpose = ${input.purpose}
          and c.created_at > now() - interval '1 day') < ${MAX_WRONG_CODES_PER_DAY}`,
    )
    .returning(['id', 'code_hash', 'attempts'])
    .executeTakeFirst();
  const expected = codeHash(key, input.email, input.purpose, input.code);
  if (!live) {
    // Not tried: no live code, or the daily cap of wrong codes reached, or this browser's code already
    // took its last wrong try. Only the last one is worth telling apart: a fresh code helps.
    const dead = await db
      .selectFrom('codes')
      .select('attempts')
      .where('id', '=', newestLive)
      .executeTakeFirst();
    return dead !== undefined && dead.attempts >= MAX_CODE_ATTEMPTS ? 'exhausted' : 'wrong';
  }
  if (!safeEqual(live.code_hash, expected)) return live.attempts >= MAX_CODE_ATTEMPTS ? 'exhausted' : 'wrong';
  const consumed = await db
    .updateTable('codes')
    .set({ consumed_at: new Date(), used: true })
    .where('id', '=', live.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return consumed.numUpdatedRows === 1n ? 'ok' : 'wrong';
}

/** Whether this email may be sent another code for `purpose`, or which share it used up. */
export async function codeAllowance(db: Db, email: string, purpose: CodePurpose): Promise<'ok' | 'hour' | 'day'> {
  const row = await db
    .selectFrom('codes')
    .select([
      sql<number>`count(*) filter (where created_at > now() - interval '1 hour')::int`.as('hour'),
      sql<number>`count(*)::int`.as('day'),
    ])
    .where('email', '=', email)
    .where('purpose', '=', purpose)
    .where('created_at', '>', sql<Date>`now() - interval '1 day'`)
    .executeTakeFirstOrThrow();
  if (row.day >= MAX_CODES_PER_DAY) return 'day';
  return row.hour >= MAX_CODES_PER_HOUR ? 'hour' : 'ok';
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
  await db.deleteFrom('codes').where('created_at', '<', sql<Date>`now() - make_interval(hours => ${KEEP_CODES_HOURS})`).execute();
}
