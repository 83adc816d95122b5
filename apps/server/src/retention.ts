/**
 * The retention rule (docs/behaviour.md#retention): an admin may have every client's documents deleted
 * a number of days after the client was submitted. The client's volunteer is mailed 7 days before,
 * and nothing is deleted before the day that mail named has ended (`retention_due_at`): a shortened
 * rule waits for its notice, a changed rule or files uploaded after a deletion get a new one.
 * The client, its categories and the audit trail stay; one audit entry per client says what went.
 * One process at a time runs it (an advisory lock), at start and every hour; each run is idempotent.
 */
import { RETENTION_NOTICE_DAYS } from '@vita-docs/core/contract';
import { sql } from 'kysely';
import { audit } from './audit.js';
import type { Db } from './db/database.js';
import { deleteDocumentRows } from './documents/documents.js';
import { exclusively, SWEEP_LOCK } from './documents/lifecycle.js';
import type { Services } from './services.js';

const RETENTION_LOCK = SWEEP_LOCK + 2;
const DAY_MS = 86_400_000;
const hasDocuments = sql<boolean>`exists (select 1 from documents d where d.client_id = clients.id and d.state = 'stored')`;
/** Clients handled per run and step: a big backlog is worked off over the next runs. */
const BATCH = 200;

/** The rule in force: days after submission, or null when off. */
async function retentionDays(db: Db): Promise<number | null> {
  const row = await db.selectFrom('retention').select('days').executeTakeFirst();
  return row?.days ?? null;
}

/** Sets the rule; a changed rule withdraws the notices sent under the old one (new ones follow). */
export async function setRetentionDays(db: Db, days: number | null, by: string): Promise<number | null> {
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('retention').select('days').forUpdate().executeTakeFirst();
    await trx
      .insertInto('retention')
      .values({ id: true, days, updated_by: by })
      .onConflict((oc) => oc.column('id').doUpdateSet({ days, updated_by: by, updated_at: new Date() }))
      .execute();
    if ((before?.days ?? null) !== days) {
      await trx
        .updateTable('clients')
        .set({ retention_notice_at: null, retention_due_at: null })
        .where('retention_notice_at', 'is not', null)
        .execute();
    }
  });
  return days;
}

/**
 * When documents named in a notice mailed at `noticeAt` may go: the later of the rule's day and a
 * week after the mail, then the end of that (UTC) day plus 12 hours, so the named day is over in
 * every US time zone before anything is deleted.
 */
function dueAfter(submittedAt: Date, noticeAt: Date, days: number): { named: Date; due: Date } {
  const earliest = Math.max(
    submittedAt.getTime() + days * DAY_MS,
    noticeAt.getTime() + RETENTION_NOTICE_DAYS * DAY_MS,
  );
  const named = new Date(earliest - (earliest % DAY_MS));
  return { named, due: new Date(named.getTime() + DAY_MS + 12 * 3_600_000) };
}

/** What {@link deletionDay} needs of a client. */
interface SubmittedClient {
  submitted_at: Date;
  created_by: string | null;
  retention_notice_at: Date | null;
  retention_due_at: Date | null;
}

/**
 * The day the rule deletes a submitted client's documents, as the notice names it (or will name
 * it): a notice already sent fixes it; otherwise it is the rule's day, or a week after the notice
 * still to be sent, whichever is later. Clients without a volunteer go on the rule's day.
 */
function deletionDay(client: SubmittedClient, days: number, now: Date): Date {
  const ruleDay = client.submitted_at.getTime() + days * DAY_MS;
  if (client.created_by === null) return new Date(ruleDay - (ruleDay % DAY_MS));
  if (
    client.retention_notice_at &&
    client.retention_due_at &&
    client.retention_notice_at >= client.submitted_at
  ) {
    return new Date(client.retention_due_at.getTime() - DAY_MS - 12 * 3_600_000);
  }
  const noticeAt = Math.max(now.getTime(), ruleDay - RETENTION_NOTICE_DAYS * DAY_MS);
  return dueAfter(client.submitted_at, new Date(noticeAt), days).named;
}

/** Submitted clients whose documents the rule has not deleted yet (all of them, or one). */
function submittedWithDocuments(db: Db, clientId?: string) {
  let q = db
    .selectFrom('clients')
    .select(['id', 'submitted_at', 'created_by', 'retention_notice_at', 'retention_due_at'])
    .where('submitted_at', 'is not', null)
    .where(hasDocuments);
  if (clientId) q = q.where('id', '=', clientId);
  return q.execute();
}

/** What the rule will do (the Settings screen): how many clients it will touch, and its next day. */
export async function retentionReach(
  db: Db,
  now: Date,
): Promise<{ days: number | null; clients: number; nextDeletionOn: string | null }> {
  const days = await retentionDays(db);
  if (days === null) return { days, clients: 0, nextDeletionOn: null };
  const rows = await submittedWithDocuments(db);
  let next: number | null = null;
  for (const row of rows) {
    if (!row.submitted_at) continue;
    const day = deletionDay({ ...row, submitted_at: row.submitted_at }, days, now).getTime();
    next = next === null ? day : Math.min(next, day);
  }
  return { days, clients: rows.length, nextDeletionOn: next === null ? null : new Date(next).toISOString() };
}

/** A client's submission as its documents page shows it (docs/behaviour.md#retention). */
export async function submissionStatus(
  db: Db,
  client: { id: string; submitted_at: Date | null; documents_deleted_at: Date | null },
  now: Date,
) {
  const days = await retentionDays(db);
  const submittedAt = client.submitted_at;
  const deletedUnderIt =
    submittedAt !== null &&
    client.documents_deleted_at !== null &&
    client.documents_deleted_at >= submittedAt;
  let deleteOn: string | null = null;
  if (submittedAt && days !== null) {
    const [row] = await submittedWithDocuments(db, client.id);
    if (row) deleteOn = deletionDay({ ...row, submitted_at: submittedAt }, days, now).toISOString();
  }
  return {
    submittedAt: submittedAt?.toISOString() ?? null,
    deleteOn,
    canUndo: submittedAt !== null && !deletedUnderIt,
    retentionDays: days,
  };
}

/** `Dora C.`: how a notice names the client (enough for the volunteer, little for anyone else). */
function shortName(first: string, last: string): string {
  return last ? `${first} ${last.slice(0, 1)}.` : first;
}

/** `December 2, 2026` */
function longDate(at: Date): string {
  return at.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** The notice to a client's volunteer (docs/behaviour.md#retention). */
function retentionNotice(
  to: string,
  client: { first: string; last: string; id: string },
  deleteOn: Date,
  days: number,
  appUrl: string | undefined,
) {
  const name = shortName(client.first, client.last);
  const when = longDate(deleteOn);
  return {
    to,
    subject: `Documents for ${name} will be deleted on ${when}`,
    text: [
      `The documents of ${name} (client ${client.id}) will be deleted on ${when}: the programme deletes a client's documents ${days} days after the client was submitted.`,
      '',
      appUrl
        ? `Download them before then if they are still needed: ${appUrl}/clients/${encodeURIComponent(client.id)}/docs`
        : 'Download them before then if they are still needed.',
    ].join('\n'),
  };
}

/** What one run did. */
export interface RetentionReport {
  noticed: number;
  deleted: number;
  files: number;
}

/**
 * Notices: submitted long enough ago that the deletion is at most 7 days away, not yet told since
 * their last submission, with documents to lose and a volunteer to tell. Returns how many went.
 */
async function sendDueNotices(services: Services, days: number, now: Date): Promise<number> {
  const { db, mailer, config } = services;
  const noticeBefore = new Date(now.getTime() - (days - RETENTION_NOTICE_DAYS) * DAY_MS);
  const toNotify = await db
    .selectFrom('clients')
    .select(['id', 'first_name', 'last_name', 'created_by', 'submitted_at'])
    .where('submitted_at', '<=', noticeBefore)
    .where((eb) =>
      eb.or([eb('retention_notice_at', 'is', null), eb('retention_notice_at', '<', eb.ref('submitted_at'))]),
    )
    .where('created_by', 'is not', null)
    .where(hasDocuments)
    .orderBy('submitted_at')
    .limit(BATCH)
    .execute();
  let noticed = 0;
  for (const client of toNotify) {
    if (!client.submitted_at || !client.created_by) continue;
    const { named, due } = dueAfter(client.submitted_at, now, days);
    const sent = await mailer.send(
      retentionNotice(
        client.created_by,
        { first: client.first_name, last: client.last_name, id: client.id },
        named,
        days,
        config.publicUrl,
      ),
    );
    // Recorded only once handed over: an undelivered notice is tried again, and delays the deletion.
    if (sent) {
      await db
        .updateTable('clients')
        .set({ retention_notice_at: now, retention_due_at: due })
        .where('id', '=', client.id)
        .execute();
      noticed += 1;
    }
  }
  return noticed;
}

/** Deletes one client's stored documents under the rule; returns how many files went. */
async function deleteClientDocuments(
  services: Services,
  id: string,
  days: number,
  now: Date,
): Promise<number> {
  const { db, store, log } = services;
  const keys = (
    await db
      .selectFrom('documents')
      .select('key')
      .where('client_id', '=', id)
      .where('state', '=', 'stored')
      .execute()
  ).map((r) => r.key);
  // Recorded first, rows next, bytes last: never a listed document without its bytes.
  await audit(db, {
    actor: null,
    action: 'client.retention',
    clientId: id,
    keys,
    detail: `${days} days after submission`,
  });
  await deleteDocumentRows(db, keys);
  // Files uploaded from now on are not covered by this notice: they get one of their own.
  await db
    .updateTable('clients')
    .set({ documents_deleted_at: now, retention_notice_at: null, retention_due_at: null })
    .where('id', '=', id)
    .execute();
  await store
    .delete(keys)
    .catch((err: unknown) => log.warn({ err }, 'retention: bytes left for the sweeper'));
  return keys.length;
}

/** The clients whose documents may go now: the day their notice named is over (without a volunteer: the rule's day). */
async function clientsDueForDeletion(db: Db, days: number, now: Date): Promise<string[]> {
  const deleteBefore = new Date(now.getTime() - days * DAY_MS);
  const rows = await db
    .selectFrom('clients')
    .select(['id'])
    .where('submitted_at', '<=', deleteBefore)
    .where((eb) =>
      eb.or([
        eb('created_by', 'is', null),
        eb.and([eb('retention_notice_at', '>=', eb.ref('submitted_at')), eb('retention_due_at', '<=', now)]),
      ]),
    )
    .where(hasDocuments)
    .orderBy('submitted_at')
    .limit(BATCH)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Applies the rule as of `now`: mails the notices that are due, then deletes the documents whose day
 * has come. Undefined when the rule is off or another process is running it.
 */
export async function runRetention(services: Services, now: Date): Promise<RetentionReport | undefined> {
  const days = await retentionDays(services.db);
  if (days === null) return undefined;
  return exclusively(services.db, RETENTION_LOCK, async () => {
    const report: RetentionReport = { noticed: 0, deleted: 0, files: 0 };
    report.noticed = await sendDueNotices(services, days, now);
    for (const id of await clientsDueForDeletion(services.db, days, now)) {
      report.files += await deleteClientDocuments(services, id, days, now);
      report.deleted += 1;
    }
    if (report.noticed || report.deleted) services.log.info(report, 'retention rule applied');
    return report;
  });
}
