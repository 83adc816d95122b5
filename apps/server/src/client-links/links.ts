/**
 * Requests that a client hand in documents through a link (docs/behaviour.md#requesting-documents-from-a-client).
 * The link's token is kept only as its SHA-256 (256 random bits: no brute force, so no slow hash); it
 * proves nothing alone: a 6-digit code mailed to the client (and the client PIN when there is one)
 * opens a link session, which reaches only this request's categories of this client.
 */
import {
  CLIENT_LINK_TEXTS,
  type ClientLinkLanguage,
  type LinkStatusResponse,
} from '@vita-docs/core/contract';
import { sql, type Selectable } from 'kysely';
import { audit } from '../audit.js';
import { sha256 } from '../auth/crypto.js';
import type { Db } from '../db/database.js';
import type { ClientLinksTable } from '../db/schema.js';
import { takeRateLimit } from '../auth/rate-limit.js';
import { HttpError, tooManyRequests } from '../http/errors.js';

export type LinkRow = Selectable<ClientLinksTable>;

/** Wrong answers before the link locks, and for how long. */
const MAX_FAILURES = 5;
const LOCK_MINUTES = 30;
/** A link session ends after this long without a request. */
export const LINK_IDLE_MINUTES = 60;
/**
 * Per network address, on top of each link's own five tries: generous, since a drop-off site's clients
 * may all come from its one wi-fi address; enough to stop one address trying many links.
 */
export const LINK_IP_LIMITS = { open: { max: 60, window: 900 }, verify: { max: 60, window: 900 } } as const;

/**
 * Request links a client can be sent a day, and a volunteer can send an hour: each mails a message the
 * volunteer wrote to the client's address, so without a bound an account could mail anyone at will.
 * @internal Exported for its tests.
 */
export const LINK_REQUEST_LIMITS = {
  perClient: { max: 5, window: 24 * 3600 },
  perVolunteer: { max: 30, window: 3600 },
} as const;

/** "12 minutes", "3 hours": how long until a refused request may be sent again, rounded up. */
function waitInWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes < 60) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

/**
 * Counts one more request link by `volunteer` for `clientId`; 429 saying when to try again once either
 * limit of {@link LINK_REQUEST_LIMITS} is reached. The volunteer's own limit first: a volunteer refused
 * there uses up nothing of the client's day.
 */
export async function claimLinkRequest(db: Db, volunteer: string, clientId: string): Promise<void> {
  const { perVolunteer, perClient } = LINK_REQUEST_LIMITS;
  const mine = await takeRateLimit(db, `link-request-by:${volunteer}`, perVolunteer.max, perVolunteer.window);
  if (!mine.allowed)
    throw tooManyRequests(
      `You can send at most ${perVolunteer.max} request links an hour. Try again in ${waitInWords(mine.retryAfterSeconds)}.`,
      mine.retryAfterSeconds,
    );
  const theirs = await takeRateLimit(db, `link-request-for:${clientId}`, perClient.max, perClient.window);
  if (!theirs.allowed)
    throw tooManyRequests(
      `A client can be sent at most ${perClient.max} request links a day. Try again in ${waitInWords(theirs.retryAfterSeconds)}.`,
      theirs.retryAfterSeconds,
    );
}

/**
 * Writes one link session may make a minute (consent, answers, presigns, completes, removes): far
 * above what a client adding 100 files needs, low enough that a script cannot fill the database in a
 * burst. Counted per link, so a second session of the same link shares it. `I'm done` is not counted:
 * it happens once, and a client who hit the limit can still finish.
 * @internal Exported for its tests.
 */
export const LINK_WRITES_PER_MINUTE = 240;

/**
 * Writes one link may make a day (adding 100 files is about 200): bounds the audit entries a link can
 * add (each change of state is one) over its life, whatever pace a script keeps under the minute's limit.
 * @internal Exported for its tests.
 */
export const LINK_WRITES_PER_DAY = 2_000;

/**
 * Counts one write of a link session; 429 (in the link's language) past {@link LINK_WRITES_PER_MINUTE}
 * or {@link LINK_WRITES_PER_DAY}.
 */
export async function claimLinkWrite(db: Db, link: Pick<LinkRow, 'id' | 'language'>): Promise<void> {
  const texts = CLIENT_LINK_TEXTS[link.language];
  const refused = (message: string, retryAfterSeconds: number) =>
    new HttpError(429, message, { 'retry-after': String(retryAfterSeconds) }, 'rate_limited');
  const minute = await takeRateLimit(db, `link-write:${link.id}`, LINK_WRITES_PER_MINUTE, 60);
  if (!minute.allowed) throw refused(texts.tooFast, minute.retryAfterSeconds);
  const day = await takeRateLimit(db, `link-write-day:${link.id}`, LINK_WRITES_PER_DAY, 24 * 60 * 60);
  if (!day.allowed) throw refused(texts.tooManyToday, day.retryAfterSeconds);
}

/** A mailed code works this long. */
export const CODE_MINUTES = 10;

/** The `uploaded_by` of a document that came through link `id`: marks it `From client`. */
export const linkUploader = (id: string): `link:${string}` => `link:${id}`;

/** An expired, revoked, finished or unknown link: the same words, nothing about whom it was for. */
export const linkGone = () => new HttpError(410, CLIENT_LINK_TEXTS.en.expired, {}, 'link_expired');

/** What a link's state is now: its closing reason, `expired` once past its end, else `open`. */
export function linkState(row: Pick<LinkRow, 'closed_reason' | 'expires_at'>, now = new Date()) {
  if (row.closed_reason) return row.closed_reason;
  return row.expires_at <= now ? 'expired' : 'open';
}

/**
 * A closed link's upload URLs store nothing more: the reservations they would fill go (a file still
 * streaming in is then refused, and bytes already sent to S3 for it are swept as unreferenced).
 */
async function dropPendingUploads(db: Db, linkIds: readonly string[] | 'every link'): Promise<void> {
  if (linkIds !== 'every link' && linkIds.length === 0) return;
  await db
    .deleteFrom('documents')
    .where('state', '=', 'pending')
    .where(
      'uploaded_by',
      linkIds === 'every link' ? 'like' : 'in',
      linkIds === 'every link' ? 'link:%' : linkIds.map(linkUploader),
    )
    .execute();
}

/** Closes the client's open request (a new one, a revoke): its sessions and unfinished uploads end with it. */
export async function closeOpenLink(
  db: Db,
  clientId: string,
  reason: 'revoked' | 'replaced',
): Promise<LinkRow | undefined> {
  const closed = await db
    .updateTable('client_links')
    .set({ closed_at: sql`now()`, closed_reason: reason })
    .where('client_id', '=', clientId)
    .where('closed_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (closed) {
    await db.deleteFrom('client_link_sessions').where('link_id', '=', closed.id).execute();
    await dropPendingUploads(db, [closed.id]);
  }
  return closed;
}

/**
 * The client's `I'm done`: closes the link as done with its sessions and, as a revoke or expiry does, its
 * unfinished uploads (an upload URL handed out before stores nothing after). False if it was closed already.
 */
export async function finishLink(db: Db, linkId: string): Promise<boolean> {
  const closed = await db
    .updateTable('client_links')
    .set({ closed_at: sql`now()`, closed_reason: 'done' })
    .where('id', '=', linkId)
    .where('closed_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!closed) return false;
  await db.deleteFrom('client_link_sessions').where('link_id', '=', linkId).execute();
  await dropPendingUploads(db, [linkId]);
  return true;
}

/**
 * The client's `I don't have this` (with its note) for one category, or taking it back. True when it
 * changed something: the same answer given again is no new event for the audit log.
 */
export async function setAnswer(
  db: Db,
  linkId: string,
  docType: string,
  answer: { missing: boolean; note: string | null },
): Promise<boolean> {
  if (!answer.missing) {
    const removed = await db
      .deleteFrom('client_link_answers')
      .where('link_id', '=', linkId)
      .where('doc_type', '=', docType)
      .executeTakeFirst();
    return removed.numDeletedRows > 0n;
  }
  const { note } = answer;
  const written = await db
    .insertInto('client_link_answers')
    .values({ link_id: linkId, doc_type: docType, note })
    .onConflict((oc) =>
      oc
        .columns(['link_id', 'doc_type'])
        .doUpdateSet({ note, at: sql`now()` })
        .where(sql<boolean>`client_link_answers.note IS DISTINCT FROM excluded.note`),
    )
    .returning('link_id')
    .executeTakeFirst();
  return written !== undefined;
}

/** Records the consent version the client ticked; true when it differs from the one already recorded. */
export async function recordConsent(db: Db, linkId: string, version: string): Promise<boolean> {
  const row = await db
    .updateTable('client_links')
    .set({ consent_version: version })
    .where('id', '=', linkId)
    .where(sql<boolean>`consent_version IS DISTINCT FROM ${version}`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Audits a link's completed upload once: a `complete` sent again (a retry, a script) for a file already
 * recorded adds no entry. (The store's own `doc.upload` entry records the bytes arriving.)
 */
export async function auditLinkUploadOnce(
  db: Db,
  entry: { linkId: string; clientId: string; key: string; ip: string },
): Promise<void> {
  const keys = JSON.stringify([entry.key]);
  await db
    .insertInto('audit_log')
    .columns(['actor', 'action', 'client_id', 'keys', 'ip'])
    .expression(
      db
        .selectNoFrom([
          sql<string>`${linkUploader(entry.linkId)}`.as('actor'),
          sql<string>`'link.upload'`.as('action'),
          sql<string>`${entry.clientId}`.as('client_id'),
          sql<string>`${keys}::jsonb`.as('keys'),
          sql<string>`${entry.ip}`.as('ip'),
        ])
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('audit_log')
                .select('id')
                .where('client_id', '=', entry.clientId)
                .where('action', '=', 'link.upload')
                .where(sql<boolean>`keys @> ${keys}::jsonb`),
            ),
          ),
        ),
    )
    .execute();
}

/** A season close ends every open request (and every link session) at once. */
export async function closeAllLinks(db: Db): Promise<void> {
  await db
    .updateTable('client_links')
    .set({ closed_at: sql`now()`, closed_reason: 'season' })
    .where('closed_at', 'is', null)
    .execute();
  await db.deleteFrom('client_link_sessions').execute();
  await dropPendingUploads(db, 'every link');
}

/**
 * Claims one try at the link's code/PIN: false while it is locked (5 wrong answers within its lock).
 * Claimed before checking, in one statement, so parallel guesses get no more than five tries together.
 */
export async function claimTry(db: Db, id: string): Promise<boolean> {
  const row = await db
    .updateTable('client_links')
    .set({ failures: sql`failures + 1` })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', sql<Date>`now()`)]))
    .where('failures', '<', MAX_FAILURES)
    .returning('failures')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Wrong answers over a link's whole life before it closes for good (`locked`: the volunteer sends a new
 * request). The 30-minute lock alone would let a 4-digit client PIN (the only proof of a client without
 * email) be guessed five times every half hour for up to 14 days; with this, 15 guesses in all.
 */
export const MAX_WRONG_TOTAL = 15;

/**
 * Counts a wrong answer, in one statement: the fifth in a row locks the link for {@link LOCK_MINUTES}
 * (and counting starts again after), the {@link MAX_WRONG_TOTAL}th in all closes it with its sessions
 * and unfinished uploads. Says which of these this answer did.
 */
export async function settleWrongTry(db: Db, id: string): Promise<'wrong' | 'locked' | 'closed'> {
  const { rows } = await sql<{ locked: boolean; closed: boolean }>`
    UPDATE client_links SET
      wrong_total = wrong_total + 1,
      closed_reason = CASE WHEN closed_at IS NULL AND wrong_total + 1 >= ${MAX_WRONG_TOTAL}
        THEN 'locked' ELSE closed_reason END,
      closed_at = CASE WHEN closed_at IS NULL AND wrong_total + 1 >= ${MAX_WRONG_TOTAL}
        THEN now() ELSE closed_at END,
      locked_until = CASE WHEN failures >= ${MAX_FAILURES}
        THEN now() + make_interval(mins => ${LOCK_MINUTES}) ELSE locked_until END,
      failures = CASE WHEN failures >= ${MAX_FAILURES} THEN 0 ELSE failures END
    WHERE id = ${id}
    RETURNING closed_reason = 'locked' AS closed, coalesce(locked_until > now(), false) AS locked`.execute(
    db,
  );
  const [row] = rows;
  if (row?.closed) {
    await db.deleteFrom('client_link_sessions').where('link_id', '=', id).execute();
    await dropPendingUploads(db, [id]);
    return 'closed';
  }
  return row?.locked ? 'locked' : 'wrong';
}

/** The volunteer's view of a client's requests: the newest one, files that came in, `I don't have this` answers. */
export async function linkStatus(db: Db, clientId: string): Promise<LinkStatusResponse> {
  const newest = await db
    .selectFrom('client_links')
    .selectAll()
    .where('client_id', '=', clientId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const fromClient = await db
    .selectFrom('documents')
    .select(['key', 'uploaded_by'])
    .where('client_id', '=', clientId)
    .where('state', '=', 'stored')
    .where('uploaded_by', 'like', 'link:%')
    .execute();
  const answers = await db
    .selectFrom('client_link_answers as a')
    .innerJoin('client_links as l', 'l.id', 'a.link_id')
    .select(['a.doc_type', 'a.note', 'a.at'])
    .where('l.client_id', '=', clientId)
    .orderBy('a.at', 'desc')
    .execute();
  const seen = new Set<string>();
  const state = newest ? linkState(newest) : null;
  return {
    request: newest
      ? {
          state: state ?? 'open',
          categories: newest.categories,
          sentAt: newest.created_at.toISOString(),
          expiresAt: newest.expires_at.toISOString(),
          openedAt: newest.opened_at?.toISOString() ?? null,
          doneAt: newest.closed_reason === 'done' ? (newest.closed_at?.toISOString() ?? null) : null,
          lockedUntil:
            state === 'open' && newest.locked_until && newest.locked_until > new Date()
              ? newest.locked_until.toISOString()
              : null,
          filesIn: fromClient.filter((d) => d.uploaded_by === linkUploader(newest.id)).length,
        }
      : null,
    fromClient: fromClient.map((d) => d.key),
    answers: answers
      .filter((a) => !seen.has(a.doc_type) && seen.add(a.doc_type))
      .map((a) => ({ docType: a.doc_type, note: a.note, at: a.at.toISOString() })),
  };
}

/** Mail sent to the client in the request's language. */
export interface LinkMailer {
  send(mail: { to: string; subject: string; text: string }): Promise<boolean>;
}

/**
 * Reminds clients who have not pressed `I'm done`: on day 3 and day 6 of an open request, once each
 * (the update that counts the reminder is the claim: two processes cannot both send it). Requests past
 * their end are closed as expired first, so they get none. Returns the number of reminders sent.
 */
export async function remindAndExpire(db: Db, mailer: LinkMailer): Promise<number> {
  const expired = await db
    .updateTable('client_links')
    .set({ closed_at: sql`now()`, closed_reason: 'expired' })
    .where('closed_at', 'is', null)
    .where('expires_at', '<=', sql<Date>`now()`)
    .returning(['id', 'client_id'])
    .execute();
  await dropPendingUploads(
    db,
    expired.map((link) => link.id),
  );
  for (const link of expired) {
    await db.deleteFrom('client_link_sessions').where('link_id', '=', link.id).execute();
    await audit(db, { actor: null, action: 'link.expire', clientId: link.client_id });
  }
  // Day 6 counts as both reminders: a server that was down on day 3 sends one mail, not two.
  const { rows } = await sql<{ id: string; client_id: string; language: ClientLinkLanguage }>`
    UPDATE client_links SET reminders_sent = CASE WHEN created_at <= now() - interval '6 days' THEN 2 ELSE 1 END
    WHERE closed_at IS NULL AND expires_at > now()
      AND ((reminders_sent = 0 AND created_at <= now() - interval '3 days')
        OR (reminders_sent = 1 AND created_at <= now() - interval '6 days'))
    RETURNING id, client_id, language`.execute(db);
  let sent = 0;
  for (const link of rows) {
    const client = await db
      .selectFrom('clients')
      .select(['email', 'first_name'])
      .where('id', '=', link.client_id)
      .executeTakeFirst();
    if (!client?.email) continue;
    const texts = CLIENT_LINK_TEXTS[link.language];
    await audit(db, { actor: null, action: 'link.remind', clientId: link.client_id });
    const ok = await mailer.send({
      to: client.email,
      subject: texts.reminderSubject,
      text: texts.reminderBody.replace('{firstName}', client.first_name),
    });
    if (ok) sent += 1;
  }
  return sent;
}

/** A new request link (only its token's hash is kept). */
export interface NewLink {
  id: string;
  token: string;
  clientId: string;
  createdBy: string;
  categories: string[];
  message: string | null;
  language: LinkRow['language'];
  expiresAt: Date;
}

/**
 * Stores a new request link, closing (`replaced`) the client's open one, both audited under the
 * volunteer, in one transaction: a client never has two open requests, nor one unrecorded.
 */
export async function insertLink(db: Db, link: NewLink, from: { ip: string; detail: string }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const replaced = await closeOpenLink(trx, link.clientId, 'replaced');
    if (replaced)
      await audit(trx, {
        actor: link.createdBy,
        action: 'link.revoke',
        clientId: link.clientId,
        ip: from.ip,
        detail: 'replaced by a new request',
      });
    await trx
      .insertInto('client_links')
      .values({
        id: link.id,
        token_hash: sha256(link.token),
        client_id: link.clientId,
        created_by: link.createdBy,
        categories: JSON.stringify(link.categories),
        message: link.message,
        language: link.language,
        expires_at: link.expiresAt,
      })
      .execute();
    await audit(trx, {
      actor: link.createdBy,
      action: 'link.create',
      clientId: link.clientId,
      ip: from.ip,
      detail: from.detail,
    });
  });
}

/** The owner has seen what came back: the client's finished requests leave `New from clients`. */
export async function markDoneLinksSeen(db: Db, clientId: string): Promise<void> {
  await db
    .updateTable('client_links')
    .set({ seen_at: sql`now()` })
    .where('client_id', '=', clientId)
    .where('closed_reason', '=', 'done')
    .where('seen_at', 'is', null)
    .execute();
}

/** `New from clients`: the volunteer's clients whose finished request is not seen yet, latest first. */
export function doneUnseen(db: Db, volunteer: string) {
  return db
    .selectFrom('client_links as l')
    .innerJoin('clients as c', 'c.id', 'l.client_id')
    .select(['c.id', 'c.first_name', 'c.last_name', 'l.closed_at'])
    .where('l.closed_reason', '=', 'done')
    .where('l.seen_at', 'is', null)
    .where('c.created_by', '=', volunteer)
    .orderBy('l.closed_at', 'desc')
    .limit(100)
    .execute();
}
