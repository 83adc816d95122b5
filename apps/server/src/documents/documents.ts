/**
 * The documents index: one row per document, `pending` from presign until its bytes are verified,
 * then `stored`. Lists, category status and ZIP plans read this table, never the object store.
 * Deletes change rows first and remove bytes after, so a crash between the two leaves bytes without
 * a row (swept later), never a listed document without bytes.
 */
import { buildDocKey, parseDocKey, type DocItem } from '@vita-docs/core/contract';
import { CompiledQuery, sql, type Selectable, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import { isForeignKeyViolation } from '../db/errors.js';
import type { Database, DocumentsTable } from '../db/schema.js';
import type { FileDigest } from '../storage/digest.js';

export type DocumentRow = Selectable<DocumentsTable>;

/**
 * `state = 'stored'` as a literal, not a parameter: a prepared statement's generic plan can then use
 * the partial indexes (`WHERE state = 'stored'`).
 */
const STORED = sql<boolean>`state = 'stored'`;

/** A stored document as the API lists it. */
export interface StoredDocument {
  key: string;
  clientId: string;
  docType: string;
  filename: string;
  order: number;
  contentType: string;
  size: number;
  sha256: string;
  crc32: number;
  storedAt: Date;
  /** The store's version of the verified bytes, when it has versions (S3 ETag). */
  version: string | null;
}

/** A row as a stored document (the caller knows it is stored). */
export function toStored(row: DocumentRow): StoredDocument {
  return {
    key: row.key,
    clientId: row.client_id,
    docType: row.doc_type,
    filename: row.filename,
    order: Number(row.ord),
    contentType: row.content_type,
    size: Number(row.size),
    sha256: row.sha256 ?? '',
    crc32: Number(row.crc32),
    storedAt: row.stored_at ?? row.created_at,
    version: row.version,
  };
}

/** The API's list item. */
export function toDocItem(doc: StoredDocument): DocItem {
  return {
    key: doc.key,
    filename: doc.filename,
    size: doc.size,
    docType: doc.docType,
    contentType: doc.contentType,
    lastModified: doc.storedAt.toISOString(),
    sha256: doc.sha256,
  };
}

/** What presign records about an upload it signs. */
export interface Reservation {
  clientId: string;
  docType: string;
  filename: string;
  contentType: string;
  maxBytes: number;
  expiresAt: Date;
  uploadedBy: string;
  declaredSize?: number | undefined;
  declaredSha256?: string | undefined;
  /** Where it goes in the category's order: the current time unless it takes a replaced file's place. */
  order?: number | undefined;
}

/** Whose uploads a dedupe looks at: `'staff'`, or one uploader's own (a link's `link:<id>`). */
export type SameUploadScope = 'staff' | `link:${string}`;

/**
 * An upload of these very bytes under this name into this category that is already there: stored
 * (its SHA-256 matches) or still pending (announced with the same SHA-256). A retry whose first
 * attempt's answer was lost finds it instead of storing a second copy.
 * `by: 'staff'`: any stored copy (staff see all of a client's files), but no client's unfinished link
 * upload (its URL is the client's, it goes when the link closes, and it would be marked `From client`).
 * `by: <uploader>`: only that uploader's own (a link finds its own retries, and nothing else: whether the
 * programme holds these bytes is none of a link's business).
 */
export async function findSameUpload(
  db: Db,
  q: { clientId: string; docType: string; filename: string; sha256: string; by: SameUploadScope },
): Promise<Pick<DocumentRow, 'key' | 'state' | 'uploaded_by'> | undefined> {
  return db
    .selectFrom('documents')
    .select(['key', 'state', 'uploaded_by'])
    .where('client_id', '=', q.clientId)
    .where('doc_type', '=', q.docType)
    .where('filename', '=', q.filename)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'stored'), eb('sha256', '=', q.sha256)]),
        eb.and([
          eb('state', '=', 'pending'),
          eb('declared_sha256', '=', q.sha256),
          q.by === 'staff' ? eb('uploaded_by', 'not like', 'link:%') : eb.lit(true),
        ]),
      ]),
    )
    .$if(q.by !== 'staff', (qb) => qb.where('uploaded_by', '=', q.by))
    .orderBy('ord')
    .limit(1)
    .executeTakeFirst();
}

/** A pending upload gets a new deadline (its PUT URL is being issued again). */
export async function extendPending(db: Db, key: string, expiresAt: Date): Promise<void> {
  await db
    .updateTable('documents')
    .set({ expires_at: expiresAt })
    .where('key', '=', key)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * Inserts a `pending` row and returns its key. The key's numeric prefix is the current time (or the
 * given order); the primary key makes it unique (a same-millisecond, same-name upload takes the next number).
 */
export async function reserveDocument(db: Db, r: Reservation): Promise<string> {
  for (let order = r.order ?? Date.now(); ; order += 1) {
    const key = buildDocKey(r.clientId, r.docType, order, r.filename);
    const inserted = await db
      .insertInto('documents')
      .values({
        key,
        client_id: r.clientId,
        doc_type: r.docType,
        ord: order,
        filename: r.filename,
        state: 'pending',
        content_type: r.contentType,
        max_bytes: r.maxBytes,
        declared_size: r.declaredSize ?? null,
        declared_sha256: r.declaredSha256 ?? null,
        uploaded_by: r.uploadedBy,
        expires_at: r.expiresAt,
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return key;
  }
}

/** {@link reserveDocument} for staff: undefined when the client was deleted meanwhile. */
export async function reserveStaffUpload(db: Db, r: Reservation): Promise<string | undefined> {
  try {
    return await reserveDocument(db, r);
  } catch (err) {
    if (isForeignKeyViolation(err)) return undefined;
    throw err;
  }
}

/** One row by key, whatever its state. */
export async function findDocument(db: Db, key: string): Promise<DocumentRow | undefined> {
  return db.selectFrom('documents').selectAll().where('key', '=', key).executeTakeFirst();
}

/**
 * Marks a pending row stored with its verified digest, and records the upload in the audit log (as its
 * uploader, with the address the bytes or the completion came from, as the uploader's other entries
 * have theirs; none when the server settled it by itself) in the same statement; the stored document,
 * or null if it was not pending.
 */
export async function markStored(
  db: Db,
  key: string,
  digest: FileDigest & { version?: string | null },
  ip: string | null = null,
): Promise<StoredDocument | null> {
  if (!digest.contentType) throw new Error('Only allow-listed files are stored.');
  const { rows } = await sql<DocumentRow>`
    WITH stored AS (
      UPDATE documents
      SET state = 'stored', size = ${digest.size}, sha256 = ${digest.sha256}, crc32 = ${digest.crc32},
          content_type = ${digest.contentType}, stored_at = now(), version = ${digest.version ?? null}
      WHERE key = ${key} AND state = 'pending'
      RETURNING *
    ), logged AS (
      INSERT INTO audit_log (actor, action, client_id, keys, ip)
      SELECT uploaded_by, 'doc.upload', client_id, jsonb_build_array(key), ${ip}::text FROM stored
    )
    SELECT * FROM stored`.execute(db);
  const [row] = rows;
  return row ? toStored(row) : null;
}

/** A client's stored documents (one category, or all), ordered by the key's numeric prefix. */
export async function listDocuments(
  db: Db,
  clientId: string,
  options: { docType?: string } = {},
): Promise<StoredDocument[]> {
  let query = db.selectFrom('documents').selectAll().where('client_id', '=', clientId).where(STORED);
  if (options.docType !== undefined) query = query.where('doc_type', '=', options.docType);
  return (await query.orderBy('ord').orderBy('key').execute()).map(toStored);
}

/** What the category screen needs about a client, read in one query. */
export interface CategoryListing {
  client: { created_by: string | null };
  /** The client has uploads not yet verified (an S3 upload may have arrived without `complete`). */
  pending: boolean;
  /**
   * The answer's `items`: the category's stored documents in order as the contract's `DocItem`s
   * (each with the earliest other document of the client with the same bytes), as JSON text.
   */
  itemsJson: string;
}

/** A duplicate's fields as the contract writes them (`DocItem.duplicateOf`). */
const DUPLICATE_JSON = `'{"key":' || to_json(d.key) || ',"filename":' || to_json(d.filename)
  || ',"docType":' || to_json(d.doc_type) || '}'`;

/**
 * The list, built by PostgreSQL as the JSON the API answers. The list is the busiest read of the API:
 * rows of 14 fields parsed by `pg`, turned into objects, checked against the contract and written out
 * again cost the server more than the query itself does (see docs/architecture.md, `src/documents/`).
 * Each item is written field by field in the contract's order, with `to_json` escaping the texts as
 * `JSON.stringify` does (`lastModified` as `Date#toISOString` writes it), so the answer is the same
 * bytes; `duplicateOf` is a key of its own only when there is one (as the optional field would be).
 * A document's duplicate is the earliest other stored document of the client with the same bytes:
 * one pass over the client's stored documents, grouped by SHA-256 in order, gives each group's first
 * two (a group's first document points at its second, every other one at its first). That pass costs
 * PostgreSQL about a third less than looking each item's duplicate up on its own (docs/benchmarks.md).
 * A constant text with parameters: prepared once per connection, nothing built per request.
 */
const LIST_CATEGORY = `select c.created_by,
  exists (select 1 from documents p where p.client_id = c.id and p.state = 'pending') as pending,
  (select '[' || coalesce(string_agg(
     '{"key":' || to_json(s.key) || ',"filename":' || to_json(s.filename) || ',"size":' || s.size
     || ',"docType":' || to_json(s.doc_type) || ',"contentType":' || to_json(s.content_type)
     || ',"lastModified":"' || to_char(s.stored_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
     || '","sha256":' || to_json(s.sha256)
     || coalesce(',"duplicateOf":' || case when s.key = s.first_key then s.second else s.first end, '')
     || '}', ',' order by s.ord, s.key), '') || ']'
   from (select d.key, d.filename, d.size, d.doc_type, d.content_type, d.stored_at, d.sha256, d.ord,
           first_value(d.key) over same as first_key,
           first_value(${DUPLICATE_JSON}) over same as first,
           nth_value(${DUPLICATE_JSON}, 2) over same as second
         from documents d where d.client_id = c.id and d.state = 'stored'
         window same as (partition by d.sha256 order by d.ord, d.key
                         rows between unbounded preceding and unbounded following)) s
   where s.doc_type = $2) as items
from clients c where c.id = $1`;

/**
 * The client's owner and one category's stored documents with their duplicates, in one round trip;
 * undefined when the client does not exist.
 */
export async function listCategory(
  db: Db,
  clientId: string,
  docType: string,
): Promise<CategoryListing | undefined> {
  const { rows } = await db.executeQuery<{ created_by: string | null; pending: boolean; items: string }>(
    CompiledQuery.raw(LIST_CATEGORY, [clientId, docType]),
  );
  const row = rows[0];
  return row && { client: { created_by: row.created_by }, pending: row.pending, itemsJson: row.items };
}

/** What the client screen needs about a client's categories, read in one query. */
export interface CategoryStatus {
  client: { created_by: string | null };
  pending: boolean;
  /** Custom categories in the order they were added (the fixed ones come first, from the code). */
  custom: string[];
  /** Categories holding at least one stored document. */
  withFiles: string[];
}

/** The client's owner, custom categories and which categories hold documents; undefined when the client does not exist. */
export async function categoryStatus(db: Db, clientId: string): Promise<CategoryStatus | undefined> {
  const row = await db
    .selectFrom('clients as c')
    .select([
      'c.created_by',
      sql<boolean>`exists (select 1 from documents p where p.client_id = c.id and p.state = 'pending')`.as(
        'pending',
      ),
      sql<
        string[]
      >`array(select t.name from client_doc_types t where t.client_id = c.id order by t.position)`.as(
        'custom',
      ),
      sql<
        string[]
      >`array(select distinct d.doc_type from documents d where d.client_id = c.id and d.state = 'stored')`.as(
        'withFiles',
      ),
    ])
    .where('c.id', '=', clientId)
    .executeTakeFirst();
  return (
    row && {
      client: { created_by: row.created_by },
      pending: row.pending,
      custom: row.custom,
      withFiles: row.withFiles,
    }
  );
}

/** A client's pending uploads, oldest first (at most `limit`). */
export async function pendingDocuments(db: Db, clientId: string, limit: number): Promise<DocumentRow[]> {
  return db
    .selectFrom('documents')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('state', '=', 'pending')
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/**
 * Deletes rows (any state; with `keepClaims`, not a rename's claims, whose bytes are the rename's to
 * remove); returns the keys that had one.
 */
export async function deleteDocumentRows(
  db: Db,
  keys: readonly string[],
  options: { keepClaims?: boolean } = {},
): Promise<string[]> {
  if (keys.length === 0) return [];
  // One statement text whatever the number of keys (an `in (…)` list would prepare one per length).
  let query = db.deleteFrom('documents').where(sql<boolean>`key = any(${[...keys]}::text[])`);
  if (options.keepClaims) query = query.where(sql<boolean>`state <> 'claimed'`);
  const rows = await query.returning('key').execute();
  return rows.map((r) => r.key);
}

/**
 * Moves a stored document's row to `newKey`; false when the row is gone. A row already at `newKey`
 * fails with a unique violation (the caller says the name is taken).
 */
export async function moveDocumentRow(
  db: Db | Transaction<Database>,
  key: string,
  newKey: string,
  filename: string,
): Promise<boolean> {
  // The key holds the category and the order: a move to another category changes them with it.
  const parts = parseDocKey(newKey);
  const moved = await db
    .updateTable('documents')
    .set({ key: newKey, filename, ...(parts && { doc_type: parts.docType, ord: parts.order }) })
    .where('key', '=', key)
    .where('state', '=', 'stored')
    .executeTakeFirst();
  return moved.numUpdatedRows > 0n;
}
