import { sql } from 'kysely';
import { CODE_LENGTH } from '@vita-docs/core';
import type { Db } from '../db/database.js';
import { hmac, randomDigits, safeEqual } from './crypto.js';

export type CodePurpose = 'login' | 'reset';

/** How long an emailed code stays valid. */
export const CODE_TTL_MINUTES = 10;
/** Wrong tries after which a code is dead. */
export const MAX_CODE_ATTEMPTS = 5;
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
  input: { email: string; purpose: CodePurpose; code: string },
): Promise<boolean> {
  const live = await db
    .updateTable('codes')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('codes')
        .select('id')
        .where('email', '=', input.email)
        .where('purpose', '=', input.purpose)
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
    .set({ consumed_at: new Date() })
    .where('id', '=', live.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return consumed.numUpdatedRows === 1n;
}

/** Seconds until this email may be sent another resend for `purpose` (0 = now). */
export async function resendWaitSeconds(
  db: Db,
  input: { email: string; purpose: CodePurpose; cooldownSeconds: number },
): Promise<number> {
  const last = await db
    .selectFrom('codes')
    .select('created_at')
    .where('email', '=', input.email)
    .where('purpose', '=', input.purpose)
    .where('kind', '=', 'resend')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last) return 0;
  const elapsed = (Date.now() - last.created_at.getTime()) / 1000;
  return Math.max(0, Math.ceil(input.cooldownSeconds - elapsed));
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

/** The email of the newest live code a pre-session asked for (resend without an email). */
export async function emailForRequester(db: Db, requester: string, purpose: CodePurpose): Promise<string | null> {
  const row = await db
    .selectFrom('codes')
    .select('email')
    .where('requester', '=', requester)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.email ?? null;
}

/** True when a live, unexhausted code exists (a resend then makes sense). */
export async function hasLiveCode(db: Db, email: string, purpose: CodePurpose): Promise<boolean> {
  const row = await db
    .selectFrom('codes')
    .select('id')
    .where('email', '=', email)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', sql<Date>`now()`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
