import { sql, type ExpressionBuilder } from 'kysely';
import { CODE_LENGTH } from '@vita-docs/core/contract';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { hmac, randomDigits, safeEqual } from './crypto.js';

export type CodePurpose = 'login' | 'reset';

/**
 * Who asks for a code: the browser (a hash of its pre-session) and the network it asks from
 * (`networkOf`). Every share below is counted per browser and per network, never per account, so
 * nobody elsewhere can use up the share of an account's owner; the network's share is what holds
 * back a stranger who clears cookies to be a new browser each time.
 */
export interface Asker {
  requester: string;
  network: string;
}

/** How long an emailed code stays valid. */
const CODE_TTL_MINUTES = 10;
/** Wrong tries after which a code is dead. */
const MAX_CODE_ATTEMPTS = 5;
/** Codes one browser, and one network, may be sent per email and purpose per hour (first sends and resends). */
const MAX_CODES_PER_HOUR = 20;
/** ... and per day. */
const MAX_CODES_PER_DAY = 40;
/**
 * Wrong codes one browser, and one network, may take per email and purpose per day, whatever the
 * number of codes: with 5 tries a code and 40 codes a day, a guesser would otherwise get 200 tries a
 * day at a 6-digit code.
 */
const MAX_WRONG_CODES_PER_DAY = 20;
/** Codes are kept this long after they were sent (the daily counts above need them). */
const KEEP_CODES_HOURS = 25;
/** The advisory lock (with a hash of email and purpose) that takes the tries at one account's codes one at a time. */
const CODE_TRIES_LOCK = 0x636f6465; // 'code'

const codeHash = (key: Buffer, email: string, purpose: CodePurpose, code: string) =>
  hmac(key, `${purpose}|${email}|${code}`);

/**
 * Issues a fresh code for an email and purpose to the browser that asked, killing that browser's
 * earlier live one (only its newest code works). Other browsers' codes stay live: a request from
 * elsewhere never cancels the owner's. Returns the plain code for the mail; only an HMAC of it is stored.
 */
export async function issueCode(
  db: Db,
  key: Buffer,
  input: Asker & { email: string; purpose: CodePurpose; kind: 'initial' | 'resend' },
): Promise<string> {
  const code = randomDigits(CODE_LENGTH);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('codes')
      .set({ consumed_at: new Date() })
      .where('email', '=', input.email)
      .where('purpose', '=', input.purpose)
      .where('requester', '=', input.requester)
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
        network: input.network,
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
  const live = await claimCodeTry(db, input);
  if (!live) {
    // Not tried: no live code, or a daily share of wrong codes used up, or this browser's code already
    // took its last wrong try. Only the last one is worth telling apart: a fresh code helps.
    const dead = await db
      .selectFrom('codes')
      .select('attempts')
      .where('id', '=', newestLiveOf(input))
      .executeTakeFirst();
    return dead !== undefined && dead.attempts >= MAX_CODE_ATTEMPTS ? 'exhausted' : 'wrong';
  }
  if (!safeEqual(live.code_hash, codeHash(key, input.email, input.purpose, input.code))) {
    return live.attempts >= MAX_CODE_ATTEMPTS ? 'exhausted' : 'wrong';
  }
  const consumed = await db
    .updateTable('codes')
    .set({ consumed_at: new Date(), used: true })
    .where('id', '=', live.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return consumed.numUpdatedRows === 1n ? 'ok' : 'wrong';
}

type CodeTry = { email: string; purpose: CodePurpose; requester: string };

/**
 * The newest live code of the browser trying: only the browser that asked for a code may try it, so
 * another browser's wrong guesses cannot use up (and so kill) someone's live code.
 */
const newestLiveOf = (input: CodeTry) => (eb: ExpressionBuilder<Database, 'codes'>) =>
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

/**
 * Counts a try at the browser's newest live code, unless the code took its last wrong try or the
 * browser, or the network the code was asked from, took its share of wrong codes today. The tries at
 * one account's codes go one at a time, so parallel guesses from many browsers cannot all pass the
 * daily count before any of them is in it.
 */
async function claimCodeTry(db: Db, input: CodeTry) {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CODE_TRIES_LOCK}::int, hashtext(${`${input.purpose}|${input.email}`}))`.execute(
      trx,
    );
    return trx
      .updateTable('codes')
      .set({ attempts: sql<number>`attempts + 1` })
      .where('id', '=', newestLiveOf(input))
      .where('attempts', '<', MAX_CODE_ATTEMPTS)
      .where(withinWrongCodeShares(input))
      .returning(['id', 'code_hash', 'attempts'])
      .executeTakeFirst();
  });
}

/**
 * The wrong tries of the day at codes of this email and purpose, so far below the share both of the
 * browser and of the network the tried code was asked from (`codes.network`: wherever the guesses
 * come from, they count where their codes were asked). A used code's one right try is never counted.
 */
const withinWrongCodeShares = (input: CodeTry) => {
  const wrong = sql`c.attempts - c.used::int`;
  return sql<boolean>`(select coalesce(sum(${wrong}) filter (where c.requester = ${input.requester}), 0) < ${MAX_WRONG_CODES_PER_DAY}
      and coalesce(sum(${wrong}) filter (where c.network = codes.network), 0) < ${MAX_WRONG_CODES_PER_DAY}
    from codes c
    where c.email = ${input.email} and c.purpose = ${input.purpose} and c.created_at > now() - interval '1 day')`;
};

/**
 * Whether `asker` may be sent another code for this email and purpose, or which share it used up:
 * the browser's or the network's, whichever is fuller. Codes asked from elsewhere do not count.
 */
export async function codeAllowance(
  db: Db,
  input: Asker & { email: string; purpose: CodePurpose },
): Promise<'ok' | 'hour' | 'day'> {
  const within = (hours: number) => sql<boolean>`created_at > now() - make_interval(hours => ${hours})`;
  const fullest = (hours: number) =>
    sql<number>`greatest(count(*) filter (where requester = ${input.requester} and ${within(hours)}),
      count(*) filter (where network = ${input.network} and ${within(hours)}))::int`;
  const row = await db
    .selectFrom('codes')
    .select([fullest(1).as('hour'), fullest(24).as('day')])
    .where('email', '=', input.email)
    .where('purpose', '=', input.purpose)
    .where(within(24))
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
  await db
    .deleteFrom('codes')
    .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${KEEP_CODES_HOURS})`)
    .execute();
}
