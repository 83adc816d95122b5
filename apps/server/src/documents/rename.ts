/**
 * Moving a stored document to a new name (its key holds the name): the rename route, and the fix at
 * start that gives every stored name its type's extension. Bytes copied, then the row moved, then the
 * old bytes removed: a stop at any point leaves the document listed with its bytes; an extra copy has
 * no row and is swept.
 */
import { buildDocKey, documentFileName, parseDocKey } from '@vita-docs/core';
import { audit } from '../audit.js';
import { isUniqueViolation } from '../db/errors.js';
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
}

/**
 * Moves the stored document at `key` to `newKey` (named `filename`). The copy is made before any
 * database connection is taken: it takes as long as the file is large, and holding one of the pool's
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
    action: 'doc.rename',
    clientId: move.clientId,
    keys: [key, newKey],
    ip: who.ip,
    detail: who.detail ?? null,
  });
  try {
    await store.copy(key, newKey);
  } catch (err) {
    // The name's bytes are there already: another rename of this file to this name got there first,
    // or, rarely, another file's.
    if (err instanceof StorageError && err.kind === 'conflict') return 'taken';
    throw err;
  }
  // The row is moved only if the file is still there: another request may have renamed or deleted
  // it while its bytes were copied. Its row is locked for the move, so of two renames one moves it.
  const moved = await db
    .transaction()
    .execute(async (trx) => {
      const locked = await trx
        .selectFrom('documents')
        .select('key')
        .where('key', '=', key)
        .where('state', '=', 'stored')
        .forUpdate()
        .executeTakeFirst();
      if (!locked) return false;
      await moveDocumentRow(trx, key, newKey, filename);
      return true;
    })
    .catch((err: unknown) => {
      // The copy stays either way: on a unique violation another file's row lists that key (its
      // bytes); otherwise a commit whose answer was lost may list it. Unlisted, it is swept.
      if (isUniqueViolation(err)) return 'taken' as const;
      throw err;
    });
  if (moved === 'taken') return 'taken';
  if (!moved) {
    // Renamed or deleted by another request while copying: the copy is ours to remove, unless that
    // request renamed the file to this same name (its row lists the same bytes).
    if (!(await findDocument(db, newKey))) await store.delete([newKey]);
    return 'gone';
  }
  await store
    .delete([key])
    .catch((err: unknown) =>
      services.log.warn({ err, document: documentRef(key) }, 'old bytes left for the sweeper'),
    );
  return 'moved';
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
