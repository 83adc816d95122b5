/**
 * The data behind a client's link session (routes/link-session.ts): the open request a token or a
 * session names, the session itself (idle 60 minutes at most), the code, the checklist, the link's
 * uploads, and {@link recordLinkEvent}, which records what the client did on the link.
 */
import { LINK_MAX_FILES } from '@vita-docs/core/contract';
import { sql } from 'kysely';
import { audit } from '../audit.js';
import { randomToken, sha256 } from '../auth/crypto.js';
import type { ClientRow } from '../clients/clients.js';
import type { Db } from '../db/database.js';
import { reserveDocument, type Reservation } from '../documents/documents.js';
import { HttpError } from '../http/errors.js';
import { CODE_MINUTES, LINK_IDLE_MINUTES, linkGone, linkState, linkUploader, type LinkRow } from './links.js';

/** An open request and its client. */
export interface OpenLink {
  link: LinkRow;
  client: ClientRow;
}

/** The open request found by `column`, with its client; 410 for none, a closed or an expired one. */
async function openLink(db: Db, column: 'token_hash' | 'id', value: string): Promise<OpenLink> {
  const link = await db.selectFrom('client_links').selectAll().where(column, '=', value).executeTakeFirst();
  if (!link || linkState(link) !== 'open') throw linkGone();
  const client = await db
    .selectFrom('clients')
    .selectAll()
    .where('id', '=', link.client_id)
    .executeTakeFirst();
  if (!client) throw linkGone();
  return { link, client };
}

/** The open request a token belongs to; 410 (the same words) for an unknown, closed or expired one. */
export function openLinkByToken(db: Db, token: string): Promise<OpenLink> {
  return openLink(db, 'token_hash', sha256(token));
}

/**
 * The open request of a link session, its idle timer restarted; undefined for no such session or
 * one idle {@link LINK_IDLE_MINUTES}, 410 once its link closed.
 */
export async function openLinkOfSession(db: Db, token: string): Promise<OpenLink | undefined> {
  const session = await db
    .updateTable('client_link_sessions')
    .set({ last_seen_at: sql`now()` })
    .where('id_hash', '=', sha256(token))
    .where('last_seen_at', '>', sql<Date>`now() - make_interval(mins => ${LINK_IDLE_MINUTES})`)
    .returning('link_id')
    .executeTakeFirst();
  return session && openLink(db, 'id', session.link_id);
}

/** What the client did on the link, for the audit log (its actor is the link). */
export interface LinkEvent {
  action: string;
  ip: string;
  detail?: string;
  keys?: string[];
}

/** A change to the link's row that goes with an event: `opened` sets when it was first opened. */
export type LinkChange = 'opened';

/**
 * Records an event of the link: its row changed first (when the event changes it), then the audit
 * entry, under the link's uploader name and the link's client.
 */
export async function recordLinkEvent(
  db: Db,
  link: Pick<LinkRow, 'id' | 'client_id'>,
  event: LinkEvent,
  change?: LinkChange,
): Promise<void> {
  if (change === 'opened')
    await db
      .updateTable('client_links')
      .set({ opened_at: sql`now()` })
      .where('id', '=', link.id)
      .execute();
  await audit(db, {
    actor: linkUploader(link.id),
    action: event.action,
    clientId: link.client_id,
    ip: event.ip,
    ...(event.detail !== undefined && { detail: event.detail }),
    ...(event.keys !== undefined && { keys: event.keys }),
  });
}

/** Stores a new code's hash, good for {@link CODE_MINUTES}; the one before no longer works. */
export async function storeLinkCode(db: Db, linkId: string, codeHash: string): Promise<void> {
  await db
    .updateTable('client_links')
    .set({ code_hash: codeHash, code_expires_at: sql`now() + make_interval(mins => ${CODE_MINUTES})` })
    .where('id', '=', linkId)
    .execute();
}

/**
 * Opens a link session after a right answer and returns its token. The code is used up by the same
 * statement that checks it is still the one that was right (`code_hash` unchanged): of two requests
 * racing with one code, only one gets a session; the other gets undefined (a wrong answer).
 */
export async function openSessionOnce(
  db: Db,
  link: LinkRow,
  usedCode: boolean,
  ip: string,
): Promise<string | undefined> {
  const token = randomToken(32);
  const opened = await db.transaction().execute(async (trx) => {
    let claim = trx
      .updateTable('client_links')
      .set({ failures: 0, code_hash: null, code_expires_at: null, verified_at: sql`now()` })
      .where('id', '=', link.id);
    if (usedCode) claim = claim.where('code_hash', '=', link.code_hash ?? '');
    if (!(await claim.returning('id').executeTakeFirst())) return false;
    await trx
      .insertInto('client_link_sessions')
      .values({ id_hash: sha256(token), link_id: link.id })
      .execute();
    await recordLinkEvent(trx, link, { action: 'link.verify', ip });
    return true;
  });
  return opened ? token : undefined;
}

/** The files that came in through the link (stored, in order) and its `I don't have this` answers. */
export async function checklistOf(db: Db, link: Pick<LinkRow, 'id' | 'client_id'>) {
  const files = await db
    .selectFrom('documents')
    .select(['key', 'filename', 'size', 'content_type', 'doc_type'])
    .where('client_id', '=', link.client_id)
    .where('uploaded_by', '=', linkUploader(link.id))
    .where('state', '=', 'stored')
    .orderBy('ord')
    .execute();
  const answers = await db
    .selectFrom('client_link_answers')
    .selectAll()
    .where('link_id', '=', link.id)
    .execute();
  return { files, answers };
}

/**
 * Reserves one more upload for the link, at most {@link LINK_MAX_FILES} in all (409 past it): the count
 * and the insert run under a lock on the link's row, so parallel presigns take the last places one at
 * a time instead of all passing the count together.
 */
export async function reserveLinkUpload(db: Db, linkId: string, reservation: Reservation): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('client_links').select('id').where('id', '=', linkId).forUpdate().execute();
    const { n } = await trx
      .selectFrom('documents')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('uploaded_by', '=', reservation.uploadedBy)
      .executeTakeFirstOrThrow();
    if (n >= LINK_MAX_FILES)
      throw new HttpError(409, `At most ${LINK_MAX_FILES} files can be added through one link.`);
    return reserveDocument(trx, reservation);
  });
}

/** The client's volunteer, if their account still exists (told when the client is done). */
export async function volunteerOf(
  db: Db,
  client: Pick<ClientRow, 'created_by'>,
): Promise<string | undefined> {
  if (!client.created_by) return undefined;
  const owner = await db
    .selectFrom('users')
    .select('email')
    .where('email', '=', client.created_by)
    .executeTakeFirst();
  return owner?.email;
}
