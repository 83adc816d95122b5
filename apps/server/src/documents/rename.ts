/**
 * Moving a stored document to a new name (its key holds the name): the rename route, and the fix at
 * start that gives every stored name its type's extension.
 *
 * Keys are names, so two requests can aim at the same key: two renames to one name, a rename back to
 * the name a rename just left. The rows decide who owns a key, and only its owner writes or removes
 * its bytes: the new name is claimed by a `claimed` row before its bytes are copied (of two renames
 * to one name one gets the claim; the other touches nothing), the row moves in one transaction that
 * also claims the old name, and the old bytes are removed under that claim before it is let go. A
 * stop at any point leaves the document listed with its bytes; a claim left behind expires and the
 * sweeper removes it with its bytes ({@link dropStaleClaims}).
 */
import { buildDocKey, documentFileName, parseDocKey } from '@vita-docs/core/contract';
import type { Transaction } from 'kysely';
import { audit } from '../audit.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { documentRef } from '../storage/keys.js';
import { StorageError } from '../storage/types.js';
import { findDocument, moveDocumentRow } from './documents.js';
import type { LifecycleServices } from './lifecycle.js';

/** How a move ended: done, the new name belongs to another document, or the document went meanwhile. */
export type MoveResult = 'moved' | 'taken' | 'gone';

/** Who asked for a move, for the audit entry written before it happens. */
export interface MoveAudit {
  actor: string | null;
  ip: string | null;
  detail?: string;
  /**
   * A rename unless said: a move to another category is audited as one, and a client page's move as
   * the link's own event (what `recordLinkEvent` would write: the link as actor).
   */
  action?: 'doc.rename' | 'doc.move' | 'link.move';
}

/** How long a claim lasts if its holder stops (a crash): far longer than a copy takes. */
const CLAIM_MS = 10 * 60_000;

/** Claims `key` for a move; false when a row (a document, an upload, another move) has it. */
async function claim(db: Db | Transaction<Database>, key: string): Promise<boolean> {
  const parts = parseDocKey(key);
  if (!parts) return false;
  const inserted = await db
    .insertInto('documents')
    .values({
      key,
      client_id: parts.clientId,
      doc_type: parts.docType,
      ord: parts.order,
      filename: parts.filename,
      state: 'claimed',
      content_type: 'application/octet-stream',
      max_bytes: 0,
      expires_at: new Date(Date.now() + CLAIM_MS),
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Removes the bytes of a key this move holds, then lets the key go. */
async function release(db: Db, store: LifecycleServices['store'], key: string): Promise<void> {
  await store.delete([key]);
  await db.deleteFrom('documents').where('key', '=', key).where('state', '=', 'claimed').execute();
}

/** Copies under a claim; bytes already at the claimed key belong to no row (a stop's leftover). */
async function copyClaimed(store: LifecycleServices['store'], key: string, newKey: string): Promise<void> {
  try {
    await store.copy(key, newKey);
  } catch (err) {
    if (!(err instanceof StorageError && err.kind === 'conflict')) throw err;
    await store.delete([newKey]);
    await store.copy(key, newKey);
  }
}

/**
 * Moves the stored document at `key` to `newKey` (named `filename`; in another category of the same
 * client when `newKey` names one). The copy is made before any
 * database connection is held: it takes as long as the file is large, and holding one of the pool's
 * few connections that long stalls everyone else's requests.
 */
export async function moveDocument(
  services: LifecycleServices,
  move: { key: string; newKey: string; filename: string; clientId: string },
  who: MoveAudit,
): Promise<MoveResult> {
  const { db, store } = services;
  const { key, newKey, filename } = move;
  await audit(db, {
    actor: who.actor,
    action: who.action ?? 'doc.rename',
    clientId: move.clientId,
    keys: [key, newKey],
    ip: who.ip,
    detail: who.detail ?? null,
  });
  if (!(await claim(db, newKey))) return 'taken';
  try {
    await copyClaimed(store, key, newKey);
  } catch (err) {
    await release(db, store, newKey);
    // Renamed or deleted by another request before its bytes were read.
    if (err instanceof StorageError && err.kind === 'not_found') return 'gone';
    throw err;
  }
  // The row moves only if the file is still there (another request may have renamed or deleted it
  // meanwhile); its row is locked for the move, so of two renames one moves it.
  const moved = await db.transaction().execute(async (trx) => {
    const locked = await trx
      .selectFrom('documents')
      .select('key')
      .where('key', '=', key)
      .where('state', '=', 'stored')
      .forUpdate()
      .executeTakeFirst();
    if (!locked) return false;
    await trx.deleteFrom('documents').where('key', '=', newKey).where('state', '=', 'claimed').execute();
    await moveDocumentRow(trx, key, newKey, filename);
    // The old name stays held until its bytes are gone: a rename back to it waits for that.
    await claim(trx, key);
    return true;
  });
  if (!moved) {
    await release(db, store, newKey);
    return 'gone';
  }
  await release(db, store, key).catch((err: unknown) =>
    services.log.warn({ err, document: documentRef(key) }, 'old bytes left for the sweeper'),
  );
  return 'moved';
}

/**
 * Claims whose holder stopped (a crash between two steps of a move): their bytes are removed while
 * the claim still holds the key, then the claim. Returns how many went.
 */
export async function dropStaleClaims(services: LifecycleServices, before: Date): Promise<number> {
  const { db, store } = services;
  const stale = await db
    .selectFrom('documents')
    .select('key')
    .where('state', '=', 'claimed')
    .where('expires_at', '<', before)
    .execute();
  for (const { key } of stale) await release(db, store, key);
  return stale.length;
}

const JOB = 'document-names-typed/v1';
/** Also the most documents one pass looks at: a programme's worth, not one at a time. */
const BATCH = 500;

/** A free key for `filename` in the document's category: `name (2).pdf`… when the name is taken. */
async function freeKey(
  services: LifecycleServices,
  key: string,
  filename: string,
): Promise<{ newKey: string; filename: string } | null> {
  const parts = parseDocKey(key);
  if (!parts) return null;
  const dot = filename.lastIndexOf('.');
  for (let n = 1; n < 100; n += 1) {
    const candidate = n === 1 ? filename : `${filename.slice(0, dot)} (${n})${filename.slice(dot)}`;
    const newKey = buildDocKey(parts.clientId, parts.docType, parts.order, candidate);
    if (!(await findDocument(services.db, newKey))) return { newKey, filename: candidate };
  }
  return null;
}

/**
 * Gives every stored document whose name does not end in its type's extension (stored before names
 * were typed: `statement.cmd` holding a PDF) the name it would get today (`statement.cmd.pdf`),
 * audited as a rename by nobody. Runs once; a run that could not move everything runs again at the
 * next start. Returns how many documents were renamed.
 */
export async function fixDocumentNames(
  services: LifecycleServices,
  options: { signal?: AbortSignal } = {},
): Promise<number> {
  const { db, log } = services;
  if (await db.selectFrom('server_jobs').select('name').where('name', '=', JOB).executeTakeFirst()) return 0;
  let renamed = 0;
  let failed = 0;
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('documents')
      .select(['key', 'client_id', 'filename', 'content_type'])
      .where('state', '=', 'stored')
      .where('key', '>', after)
      .orderBy('key')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    after = rows[rows.length - 1]?.key ?? after;
    for (const row of rows) {
      if (options.signal?.aborted) return renamed;
      const typed =
        documentFileName(row.filename, row.content_type) ?? documentFileName('file', row.content_type);
      if (typed === null || typed === row.filename) continue;
      try {
        const target = await freeKey(services, row.key, typed);
        const result = target
          ? await moveDocument(
              services,
              { key: row.key, clientId: row.client_id, ...target },
              { actor: null, ip: null, detail: 'name given its type’s extension at start' },
            )
          : 'taken';
        if (result === 'moved') renamed += 1;
        else if (result === 'taken') failed += 1;
      } catch (err) {
        failed += 1;
        log.warn(
          { err, document: documentRef(row.key) },
          'could not give a stored document its type’s extension; the next start tries again',
        );
      }
    }
  }
  if (failed === 0)
    await db
      .insertInto('server_jobs')
      .values({ name: JOB })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  if (renamed > 0) log.info({ renamed }, 'stored documents given their type’s extension');
  return renamed;
}
