/**
 * How uploads become documents outside the request that sent them: settling a pending row whose
 * bytes arrived (S3 uploads, or a local upload whose server stopped between publishing the file and
 * recording it), sweeping what no row accounts for, and indexing once the files stored before the
 * index existed.
 */
import { dropStaleClaims } from './rename.js';
import { parseDocKey } from '@vita-docs/core/contract';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { assertExpected, digestStream, type FileDigest } from '../storage/digest.js';
import { FALLBACK_CONTENT_TYPE, UNSUPPORTED_TYPE_MESSAGE, tooLarge } from '../storage/filetypes.js';
import { documentRef } from '../storage/keys.js';
import { StorageError, type ObjectStore, type StorageErrorKind } from '../storage/types.js';
import {
  findDocument,
  markStored,
  pendingDocuments,
  toStored,
  type DocumentRow,
  type StoredDocument,
} from './documents.js';

/** What the lifecycle needs of the server. */
export interface LifecycleServices {
  db: Db;
  store: ObjectStore;
  log: FastifyBaseLogger;
}

/** How a pending row ended: listed, refused (bytes deleted), or still waiting for its bytes. */
export type Settled =
  | { state: 'stored'; document: StoredDocument }
  | { state: 'refused'; error: StorageError }
  | { state: 'waiting' };

/** Reads the object behind a pending row and checks it against everything the row promised. */
async function verify(
  store: ObjectStore,
  row: DocumentRow,
  size: number,
): Promise<FileDigest & { version: string | null }> {
  if (size > Number(row.max_bytes)) throw tooLarge(Number(row.max_bytes));
  const opened = await store.open(row.key);
  const digest = { ...(await digestStream(opened.stream)), version: opened.version ?? null };
  if (digest.size > Number(row.max_bytes)) throw tooLarge(Number(row.max_bytes));
  if (digest.size === 0) throw new StorageError('unsupported_type', 'The file is empty.');
  if (!digest.contentType) throw new StorageError('unsupported_type', UNSUPPORTED_TYPE_MESSAGE);
  assertExpected(digest, {
    size: row.declared_size === null ? null : Number(row.declared_size),
    sha256: row.declared_sha256,
  });
  return digest;
}

/**
 * Settles one pending row: its bytes verified → stored; bytes that break a rule → deleted with the
 * row, and the refusal returned; no bytes yet → waiting (or, with `dropIfMissing`, the row goes).
 */
export async function settle(
  services: LifecycleServices,
  row: DocumentRow,
  options: { dropIfMissing?: boolean; ip?: string } = {},
): Promise<Settled> {
  const { db, store, log } = services;
  const head = await store.head(row.key);
  if (!head) {
    if (options.dropIfMissing) {
      await db.deleteFrom('documents').where('key', '=', row.key).where('state', '=', 'pending').execute();
    }
    return { state: 'waiting' };
  }
  let digest: FileDigest & { version: string | null };
  try {
    digest = await verify(store, row, head.size);
  } catch (error) {
    // A store that failed or refused to answer has judged nothing: the upload waits for a retry.
    if (
      !(error instanceof StorageError) ||
      error.kind === 'failed' ||
      error.kind === 'not_found' ||
      error.kind === 'unavailable'
    )
      throw error;
    // The bytes go only with the pending row: if another request stored or removed it meanwhile,
    // whatever is at the key now is not this refusal's to delete.
    if (await dropRefused(db, row, error)) {
      log.info(
        { document: documentRef(row.key), kind: error.kind },
        'upload refused after it arrived; deleted',
      );
      await store.delete([row.key]);
    }
    return { state: 'refused', error };
  }
  const document = await markStored(db, row.key, digest, options.ip ?? null);
  if (document) return { state: 'stored', document };
  // Settled (or deleted) by another request meanwhile: report what the index now says.
  const current = await findDocument(db, row.key);
  return current?.state === 'stored'
    ? { state: 'stored', document: toStored(current) }
    : { state: 'waiting' };
}

/**
 * Deletes a refused pending row and, in the same transaction, records why: whichever request settled it
 * (a list, the sweeper), the uploader's `complete` then answers with the reason. False when the row was
 * no longer pending (another request stored or removed it).
 */
async function dropRefused(db: Db, row: DocumentRow, error: StorageError): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('documents')
      .where('key', '=', row.key)
      .where('state', '=', 'pending')
      .returning(['client_id', 'uploaded_by'])
      .executeTakeFirst();
    if (!removed) return false;
    const refusal = { kind: error.kind, message: error.message, refused_at: sql<Date>`now()` };
    await trx
      .insertInto('refused_uploads')
      .values({ key: row.key, client_id: removed.client_id, uploaded_by: removed.uploaded_by, ...refusal })
      .onConflict((oc) => oc.column('key').doUpdateSet({ uploaded_by: removed.uploaded_by, ...refusal }))
      .execute();
    return true;
  });
}

/**
 * Why the upload at `key` was refused after it arrived, as the error to answer with; undefined if it
 * was not (or the record was pruned). Only for the client (and uploader) given: another caller learns nothing.
 */
export async function refusalOf(
  db: Db,
  key: string,
  owner: { clientId: string; uploadedBy?: string },
): Promise<StorageError | undefined> {
  let query = db
    .selectFrom('refused_uploads')
    .select(['kind', 'message'])
    .where('key', '=', key)
    .where('client_id', '=', owner.clientId);
  if (owner.uploadedBy !== undefined) query = query.where('uploaded_by', '=', owner.uploadedBy);
  const row = await query.executeTakeFirst();
  return row && new StorageError(row.kind as StorageErrorKind, row.message);
}

/** Drops refusal records older than a day: every upload URL has long expired by then. */
export async function pruneRefusals(db: Db): Promise<void> {
  await db
    .deleteFrom('refused_uploads')
    .where('refused_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}

/** Pending uploads settled per list, status or ZIP request (the rest wait for the next one or the sweeper). */
const SETTLE_PER_REQUEST = 8;

/**
 * Lists settle a client's uploads whose bytes arrived without `POST /docs/complete` (a client using
 * only the presign-and-PUT API). The local store records its uploads as they arrive, so only S3 needs it.
 * True when one became stored (what the caller read before is then out of date).
 */
export async function settleArrived(services: LifecycleServices, clientId: string): Promise<boolean> {
  if (services.store.kind !== 's3') return false;
  const pending = await pendingDocuments(services.db, clientId, SETTLE_PER_REQUEST);
  const results = await Promise.allSettled(pending.map((row) => settle(services, row)));
  let stored = false;
  for (const result of results) {
    if (result.status === 'rejected')
      services.log.warn({ err: result.reason }, 'could not settle an upload; will retry');
    else if (result.value.state === 'stored') stored = true;
  }
  return stored;
}

/**
 * Settles, before the server takes requests, the uploads a crash interrupted after their bytes were
 * published but before their row said so: a client that lists right after the restart then sees
 * them (and does not upload them a second time). Rows still waiting for bytes cost one `stat` each.
 * Local store only: on S3 every list settles its client's arrived uploads anyway, and a HEAD per
 * pending row would slow every start of every process. Returns how many were stored.
 */
export async function settleInterrupted(services: LifecycleServices): Promise<number> {
  if (services.store.kind !== 'local') return 0;
  const pending = await services.db
    .selectFrom('documents')
    .selectAll()
    .where('state', '=', 'pending')
    .execute();
  let stored = 0;
  for (const row of pending) {
    try {
      if ((await settle(services, row)).state === 'stored') stored += 1;
    } catch (err) {
      services.log.warn({ err, document: documentRef(row.key) }, 'could not settle an upload; will retry');
    }
  }
  return stored;
}

/** Runs `work` only if no other server process is running it (a PostgreSQL advisory lock). */
export async function exclusively<T>(db: Db, lockId: number, work: () => Promise<T>): Promise<T | undefined> {
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${lockId}) as locked`.execute(
      conn,
    );
    if (!rows[0]?.locked) return undefined;
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${lockId})`.execute(conn);
    }
  });
}

export const SWEEP_LOCK = 0x76697461; // 'vita'
const INDEX_LOCK = SWEEP_LOCK + 1;
const INDEX_JOB = 'index-stored-files';
/** Keys looked up in the index per query while walking the store. */
const WALK_BATCH = 500;

/** What one sweep did. */
export interface SweepReport {
  stored: number;
  refused: number;
  droppedPending: number;
  deletedOrphans: number;
}

/**
 * Settles pending rows whose bytes arrived; drops pending rows whose URL expired more than `graceMs`
 * ago with no bytes; deletes objects no row accounts for that are older than `graceMs` (a late S3
 * upload after its client was deleted, the copy left by a rename that stopped half-way). One
 * process at a time; others skip the round.
 */
export async function sweep(
  services: LifecycleServices,
  options: { graceMs: number },
): Promise<SweepReport | undefined> {
  const { db, store } = services;
  // Until the store's existing files are indexed, every one of them looks unaccounted for.
  if (!(await indexDone(db))) return undefined;
  return exclusively(db, SWEEP_LOCK, async () => {
    const report: SweepReport = { stored: 0, refused: 0, droppedPending: 0, deletedOrphans: 0 };
    const cutoff = new Date(Date.now() - options.graceMs);
    const pending = await db
      .selectFrom('documents')
      .selectAll()
      .where('state', '=', 'pending')
      .orderBy('created_at')
      .execute();
    for (const row of pending) {
      const dropIfMissing = row.expires_at < cutoff;
      try {
        const result = await settle(services, row, { dropIfMissing });
        if (result.state === 'stored') report.stored += 1;
        else if (result.state === 'refused') report.refused += 1;
        else if (dropIfMissing && !(await store.head(row.key))) report.droppedPending += 1;
      } catch (err) {
        // One unreadable upload must not stop the round: it is tried again next time.
        services.log.warn({ err, document: documentRef(row.key) }, 'could not settle an upload; will retry');
      }
    }
    await dropStaleClaims(services, cutoff);
    let batch: { key: string; lastModified: Date }[] = [];
    const flush = async () => {
      const keys = batch.map((o) => o.key);
      const known = new Set(
        (
          await db
            .selectFrom('documents')
            .select('key')
            .where(sql<boolean>`key = any(${keys}::text[])`)
            .execute()
        ).map((r) => r.key),
      );
      const orphans = batch.filter((o) => !known.has(o.key) && o.lastModified < cutoff).map((o) => o.key);
      if (orphans.length > 0) {
        services.log.warn(
          { documents: orphans.map(documentRef) },
          'deleting stored files that no document refers to',
        );
        await store.delete(orphans);
        report.deletedOrphans += orphans.length;
      }
      batch = [];
    };
    for await (const object of store.walk()) {
      batch.push(object);
      if (batch.length >= WALK_BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    return report;
  });
}

/**
 * Once per database: files already in the store when the index was created get a `stored` row,
 * hashed from their bytes, so an existing data directory keeps every document. Files whose client
 * no longer exists are left for the sweeper. Returns how many were indexed (undefined if already done
 * or another process is doing it).
 */
const indexDone = async (db: Db) =>
  (await db.selectFrom('server_jobs').select('name').where('name', '=', INDEX_JOB).executeTakeFirst()) !==
  undefined;

export async function indexStoredFiles(services: LifecycleServices): Promise<number | undefined> {
  const { db, store, log } = services;
  if (await indexDone(db)) return undefined;
  return exclusively(db, INDEX_LOCK, async () => {
    if (await indexDone(db)) return undefined;
    const clients = new Set((await db.selectFrom('clients').select('id').execute()).map((c) => c.id));
    let indexed = 0;
    for await (const object of store.walk()) {
      const parts = parseDocKey(object.key);
      if (!parts || !clients.has(parts.clientId)) continue;
      let digest: FileDigest;
      try {
        digest = await digestStream(await store.read(object.key));
      } catch (error) {
        // A file that fails its integrity check (logged by the store) has nothing worth indexing.
        if (error instanceof StorageError && error.kind === 'damaged') continue;
        throw error;
      }
      await db
        .insertInto('documents')
        .values({
          key: object.key,
          client_id: parts.clientId,
          doc_type: parts.docType,
          ord: parts.order,
          filename: parts.filename,
          state: 'stored',
          content_type: digest.contentType ?? FALLBACK_CONTENT_TYPE,
          max_bytes: digest.size,
          size: digest.size,
          sha256: digest.sha256,
          crc32: digest.crc32,
          expires_at: object.lastModified,
          stored_at: object.lastModified,
        })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      indexed += 1;
    }
    await db
      .insertInto('server_jobs')
      .values({ name: INDEX_JOB })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    if (indexed > 0) log.info({ indexed }, 'indexed the files already in the store');
    return indexed;
  });
}
