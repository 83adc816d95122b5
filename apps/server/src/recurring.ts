/**
 * Recurring background work on a database several server processes share: each interval's run is
 * claimed in the database, so N processes make one run per interval between them, not N
 * (docs/scaling.md). A process's own start still runs the work at once (what a crash left is settled
 * without waiting for the others' timers) and counts as that interval's run.
 */
import { sql } from 'kysely';
import type { Db } from './db/database.js';

/**
 * Claims the run of `name` due now: true for exactly one caller once the last run is `intervalMs` old
 * (less a tenth: the processes' timers drift, and a tick that comes a moment early must not leave the
 * work a whole interval more). An interval of 0 always claims (a start), and counts as a run.
 */
export async function claimRun(db: Db, name: string, intervalMs: number): Promise<boolean> {
  if (intervalMs <= 0) {
    await sql`INSERT INTO recurring_runs (name, ran_at) VALUES (${name}, now())
      ON CONFLICT (name) DO UPDATE SET ran_at = now()`.execute(db);
    return true;
  }
  const seconds = (intervalMs * 0.9) / 1000;
  // Two claims at once: the second waits for the first's row and sees its new `ran_at`.
  const { rows } = await sql<{ name: string }>`
    INSERT INTO recurring_runs (name, ran_at) VALUES (${name}, now())
    ON CONFLICT (name) DO UPDATE SET ran_at = now()
      WHERE recurring_runs.ran_at <= now() - make_interval(secs => ${seconds})
    RETURNING name`.execute(db);
  return rows.length === 1;
}
