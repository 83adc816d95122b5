/**
 * The per-account throttle on wrong PINs from browsers the account never signed in on. It slows
 * guessing down instead of shutting the door: the first few wrong PINs cost nothing, then each try
 * must wait twice as long as the one before (capped), and only a long run of consecutive failures
 * locks the account for new browsers (and mails the owner) until its PIN is reset or the right PIN
 * is given on a browser the account signed in on before. A stranger's guesses therefore delay the
 * owner on a new browser by at most the cap, and never on a browser they signed in on before (which
 * has its own allowance, see devices.ts).
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** Wrong PINs in a row that cost no wait. */
const FREE_FAILURES = 5;
/** The longest wait between two tries, in seconds. */
const MAX_DELAY_SECONDS = 15 * 60;
/** Consecutive wrong PINs after which new browsers are refused until the lock is lifted (at most 100 allowed). */
const LOCK_AFTER_FAILURES = 100;

/**
 * What the throttle says about a try: allowed (and whether, if the PIN is wrong, this try is the one
 * that locks new browsers out), or not yet, or not until the lock is lifted.
 */
export type ThrottleVerdict =
  { allowed: true; locksIfWrong: boolean } | { allowed: false; locked: boolean; retryAfterSeconds: number };

// The wait after n consecutive failures: 0 while n < FREE_FAILURES, then 2^(n - FREE_FAILURES) seconds up to
// MAX_DELAY_SECONDS. In SQL, so the check and the claim are one atomic statement.
const delaySql = sql`make_interval(secs => CASE WHEN login_throttle.failures < ${FREE_FAILURES} THEN 0
  ELSE least(power(2, login_throttle.failures - ${FREE_FAILURES}), ${MAX_DELAY_SECONDS}) END)`;

/**
 * Claims a try for `email`: when it is due, counts it as a failure up front (so parallel tries
 * cannot slip through one window) and allows it; a correct PIN then calls {@link clearFailures}.
 * When it is not due, nothing changes and the verdict says how long to wait.
 */
export async function claimTry(db: Db, email: string): Promise<ThrottleVerdict> {
  const claimed = await db
    .insertInto('login_throttle')
    .values({ email, failures: 1, last_failure_at: sql<Date>`now()` })
    .onConflict((oc) =>
      oc
        .column('email')
        .doUpdateSet({
          failures: sql<number>`login_throttle.failures + 1`,
          last_failure_at: sql<Date>`now()`,
        })
        .where(sql<boolean>`login_throttle.failures < ${LOCK_AFTER_FAILURES}`)
        .where(sql<boolean>`login_throttle.last_failure_at + ${delaySql} <= now()`),
    )
    .returning('failures')
    .executeTakeFirst();
  // Only one claim can take the count to the lock (each adds one, and none passes it): the owner hears once.
  if (claimed) return { allowed: true, locksIfWrong: claimed.failures >= LOCK_AFTER_FAILURES };
  const row = await db
    .selectFrom('login_throttle')
    .select([
      'failures',
      sql<number>`ceil(extract(epoch from (last_failure_at + ${delaySql} - now())))::int`.as('wait'),
    ])
    .where('email', '=', email)
    .executeTakeFirst();
  const locked = (row?.failures ?? 0) >= LOCK_AFTER_FAILURES;
  return {
    allowed: false,
    locked,
    retryAfterSeconds: locked ? MAX_DELAY_SECONDS : Math.max(1, row?.wait ?? 1),
  };
}

/**
 * A correct PIN (or a new one) ends the run of failures. New browsers never get to give one while
 * the lock holds, so it is lifted by a new PIN or by the right PIN on a browser the account signed
 * in on before.
 */
export async function clearFailures(db: Db, email: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('email', '=', email).execute();
}

/** Drops runs of failures that ended long ago; called now and then, not per request. */
export async function pruneThrottle(db: Db): Promise<void> {
  await db
    .deleteFrom('login_throttle')
    .where('last_failure_at', '<', sql<Date>`now() - interval '30 days'`)
    .where('failures', '<', LOCK_AFTER_FAILURES)
    .execute();
}
