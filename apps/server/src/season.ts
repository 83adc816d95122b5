/**
 * The season close (docs/behaviour.md#season-close): every document of every client is deleted and
 * every non-admin account suspended (approved again next season), with audit entries. It is
 * recorded as started before anything changes and as finished after the last step; each step is
 * idempotent, so a close interrupted by a crash is finished at the next start, never left half done.
 */
import { sql } from 'kysely';
import { audit } from './audit.js';
import type { Db } from './db/database.js';
import { deleteDocumentRows } from './documents/documents.js';
import { closeAllLinks } from './client-links/links.js';
import { exclusively, SWEEP_LOCK } from './documents/lifecycle.js';
import type { Services } from './services.js';

const SEASON_LOCK = SWEEP_LOCK + 3;
/** Clients emptied per round (each round: audit entry, rows, bytes). */
const BATCH = 100;

/** The season a close now would close: this calendar year (UTC). */
export function currentSeason(now: Date): number {
  return now.getUTCFullYear();
}

/** What the close of `year` would do now, or did. */
export async function seasonSummary(db: Db, year: number) {
  const closed = await db.selectFrom('season_close').selectAll().where('year', '=', year).executeTakeFirst();
  if (closed?.finished_at) {
    return {
      year,
      users: closed.users ?? 0,
      clients: closed.clients ?? 0,
      documents: closed.documents ?? 0,
      closedAt: closed.finished_at.toISOString(),
    };
  }
  const [users, documents] = await Promise.all([
    db
      .selectFrom('users')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('is_admin', '=', false)
      .where('suspended', '=', false)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('documents')
      .select([sql<number>`count(*)::int`.as('n'), sql<number>`count(distinct client_id)::int`.as('clients')])
      .where('state', '=', 'stored')
      .executeTakeFirstOrThrow(),
  ]);
  return { year, users: users.n, clients: documents.clients, documents: documents.n, closedAt: null };
}

/**
 * Closes (or finishes closing) `year`. The first call records the start and its counts; a call after
 * a crash goes on from where the data is. Resolves once finished; undefined if another process is
 * closing it right now.
 */
export async function closeSeason(
  services: Services,
  year: number,
  by: string | null,
  ip: string | null = null,
) {
  const { db, store, log } = services;
  return exclusively(db, SEASON_LOCK, async () => {
    const before = await seasonSummary(db, year);
    if (before.closedAt) return before;
    // The start and its audit entry together: a close never runs unrecorded.
    const actor = await db.transaction().execute(async (trx) => {
      const started = await trx
        .insertInto('season_close')
        .values({
          year,
          started_by: by,
          users: before.users,
          clients: before.clients,
          documents: before.documents,
        })
        .onConflict((oc) => oc.column('year').doNothing())
        .returning('started_by')
        .executeTakeFirst();
      if (started) {
        await audit(trx, {
          actor: by,
          action: 'season.close',
          ip,
          detail: `${year}: ${before.users} accounts, ${before.clients} clients, ${before.documents} documents`,
        });
        return by;
      }
      // Resumed: the entries name the admin who started it.
      const row = await trx
        .selectFrom('season_close')
        .select('started_by')
        .where('year', '=', year)
        .executeTakeFirst();
      return row?.started_by ?? by;
    });

    // Accounts first: from here nobody but an admin can sign in or keep a session (sessions need `approved`).
    await db
      .updateTable('users')
      .set({ approved: false, suspended: true })
      .where('is_admin', '=', false)
      .where('suspended', '=', false)
      .execute();
    await db
      .deleteFrom('sessions')
      .where('user_email', 'in', db.selectFrom('users').select('email').where('is_admin', '=', false))
      .execute();
    // What any device kept for the season closed can never be opened again, an admin's included.
    await services.journalKeys.destroyAll();
    // Every request link ends with the season: a client's link opens nothing of the next one.
    await closeAllLinks(db);

    // Then every client's documents: audit entry, rows, bytes — a client at a time.
    for (;;) {
      const clients = await db.selectFrom('documents').select('client_id').distinct().limit(BATCH).execute();
      if (clients.length === 0) break;
      for (const { client_id: clientId } of clients) {
        const keys = (
          await db.selectFrom('documents').select('key').where('client_id', '=', clientId).execute()
        ).map((r) => r.key);
        await audit(db, { actor, action: 'client.season-close', clientId, keys, ip, detail: String(year) });
        await deleteDocumentRows(db, keys);
        await store
          .delete(keys)
          .catch((err: unknown) => log.warn({ err }, 'season close: bytes left for the sweeper'));
      }
    }
    await db.updateTable('season_close').set({ finished_at: new Date() }).where('year', '=', year).execute();
    log.info({ year }, 'season closed');
    return seasonSummary(db, year);
  });
}

/** Finishes a close a crash interrupted (at start, before requests are taken). */
export async function resumeSeasonClose(services: Services): Promise<number | undefined> {
  const open = await services.db
    .selectFrom('season_close')
    .select('year')
    .where('finished_at', 'is', null)
    .executeTakeFirst();
  if (!open) return undefined;
  // Undefined: another process holds the close and finishes it.
  return (await closeSeason(services, open.year, null)) ? open.year : undefined;
}

/** Clients read per query while the archive streams: memory stays bounded for any number of clients. */
const CLIENT_PAGE = 100;

const withDocuments = sql<boolean>`exists (select 1 from documents d where d.client_id = clients.id and d.state = 'stored')`;

/** Every client with documents, a page at a time in id order (clients added meanwhile may join). */
export async function* clientsWithDocuments(db: Db) {
  let after = '';
  for (;;) {
    const page = await db
      .selectFrom('clients')
      .select(['id', 'first_name', 'last_name'])
      .where('id', '>', after)
      .where(withDocuments)
      .orderBy('id')
      .limit(CLIENT_PAGE)
      .execute();
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < CLIENT_PAGE) return;
    after = last.id;
  }
}
