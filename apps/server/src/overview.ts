/**
 * The programme overview (docs/behaviour.md#programme-overview): two queries, each one pass over
 * its tables with hash joins rather than a probe per client (`bench/overview.mjs` times them on a
 * seeded season).
 */
import { FIXED_CATEGORIES } from '@vita-docs/core/contract';
import { sql } from 'kysely';
import type { Db } from './db/database.js';

const DAY_MS = 86_400_000;
const DAYS_SHOWN = 30;

/**
 * The season's first moment: 1 January of the current year, UTC.
 * @public Used by bench/overview.mjs (through the build, which knip cannot follow).
 */
export function seasonStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
}

/**
 * Per volunteer: their clients this season, those with a file in every category, the categories without.
 * @public Used by bench/overview.mjs (through the build, which knip cannot follow).
 */
export function volunteerTotals(db: Db, since: Date) {
  // Each client's categories (the five fixed ones and its own), and which have a file.
  // A client's missing categories: its category count less the distinct categories its files are
  // in — counting only its own categories (a file left in a category since deleted counts for none).
  const fixed = [...FIXED_CATEGORIES];
  return sql<{
    email: string | null;
    name: string | null;
    clients: number;
    complete: number;
    missing: number;
  }>`
    with pairs as (
      select client_id, doc_type from documents where state = 'stored' group by client_id, doc_type
    ), present as (
      select client_id, count(*)::int as n from (
        select client_id from pairs where doc_type = any(${fixed}::text[])
        union all
        select p.client_id from pairs p join client_doc_types t on t.client_id = p.client_id and t.name = p.doc_type
        where not (p.doc_type = any(${fixed}::text[]))
      ) own
      group by client_id
    ), custom as (
      select client_id, count(*)::int as n from client_doc_types group by client_id
    ), per_client as (
      select c.created_by, ${FIXED_CATEGORIES.length}::int + coalesce(t.n, 0) - coalesce(p.n, 0) as missing
      from clients c left join custom t on t.client_id = c.id left join present p on p.client_id = c.id
      where c.created_at >= ${since}
    )
    select pc.created_by as email, nullif(trim(u.first_name || ' ' || u.last_name), '') as name,
           count(*)::int as clients, (count(*) filter (where pc.missing = 0))::int as complete, sum(pc.missing)::int as missing
    from per_client pc left join users u on u.email = pc.created_by
    group by pc.created_by, u.first_name, u.last_name
    order by sum(pc.missing) desc, pc.created_by`.execute(db);
}

/**
 * Documents stored per day (UTC) over the last 30 days; days without any left out.
 * @public Used by bench/overview.mjs (through the build, which knip cannot follow).
 */
export function uploadsPerDay(db: Db, now: Date) {
  return sql<{ day: string; count: number }>`
    select to_char(day, 'YYYY-MM-DD') as day, count from (
      select (stored_at at time zone 'UTC')::date as day, count(*)::int as count
      from documents where state = 'stored' and stored_at >= ${new Date(now.getTime() - (DAYS_SHOWN - 1) * DAY_MS - (now.getTime() % DAY_MS))}
      group by 1
    ) days order by days.day`.execute(db);
}

export async function programmeOverview(db: Db, now: Date) {
  const since = seasonStart(now);
  const [volunteers, perDay] = await Promise.all([volunteerTotals(db, since), uploadsPerDay(db, now)]);
  const clients = volunteers.rows.reduce((sum, v) => sum + v.clients, 0);
  const complete = volunteers.rows.reduce((sum, v) => sum + v.complete, 0);
  return {
    since: since.toISOString(),
    clients,
    complete,
    uploadsPerDay: perDay.rows,
    volunteers: volunteers.rows,
  };
}
