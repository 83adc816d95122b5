import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * A fixed-window counter kept in the database, so several server processes share it.
 * Returns whether this hit is within `limit` for the current window of `windowSeconds`.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<boolean> {
  return (await takeRateLimit(db, key, limit, windowSeconds)).allowed;
}

/**
 * {@link hitRateLimit}, also saying when its window ends: a refusal can tell the person when to try again.
 */
export async function takeRateLimit(
  db: Db,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const window = sql`make_interval(secs => ${windowSeconds})`;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: sql<Date>`now()`, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`CASE WHEN rate_limits.window_start < now() - ${window} THEN 1 ELSE rate_limits.count + 1 END`,
        window_start: sql<Date>`CASE WHEN rate_limits.window_start < now() - ${window} THEN now() ELSE rate_limits.window_start END`,
      }),
    )
    .returning([
      'count',
      sql<number>`ceil(extract(epoch from (rate_limits.window_start + ${window} - now())))::int`.as('left'),
    ])
    .executeTakeFirstOrThrow();
  return { allowed: row.count <= limit, retryAfterSeconds: Math.max(1, Number(row.left)) };
}

/** Drops counters whose window ended long ago; called now and then, not per request. */
export async function pruneRateLimits(db: Db): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}

/** Gives back one hit (a successful sign-in should not use up the failure allowance). */
export async function refundRateLimit(db: Db, key: string): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ count: sql<number>`greatest(count - 1, 0)` })
    .where('key', '=', key)
    .execute();
}
