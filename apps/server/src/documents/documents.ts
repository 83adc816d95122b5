/**
 * The documents index: one row per document, `pending` from presign until its bytes are verified,
 * then `stored`. Lists, category status and ZIP plans read this table, never the object store.
 * Deletes change rows first and remove bytes after, so a crash between the two leaves bytes without
 * a row (swept later), never a listed document without bytes.
 */
import { buildDocKey, type DocItem } from '@vita-docs/core';
import { sql, type Selectable, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
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
  duplicateOf?: { key: string; filename: string; docType: string };
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
    ...(doc.duplicateOf ? { duplicateOf: doc.duplicateOf } : {}),
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
}

/**
 * Inserts a `pending` row and returns its key. The key's numeric prefix is the current time; the
 * primary key makes it unique (a same-millisecond, same-name upload takes the next number).
 */
export async function reserveDocument(db: Db, r: Reservation): Promise<string> {
  for (let order = Date.now(); ; order += 1) {
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

/** One row by key, whatever its state. */
export async function findDocument(db: Db, key: string): Promise<DocumentRow | undefined> {
  return db.selectFrom('documents').selectAll().where('key', '=', key).executeTakeFirst();
}

/** Marks a pending row stored with its verified digest; the stored document, or null if it was not pending. */
export async function markStored(
  db: Db,
  key: string,
  digest: FileDigest & { version?: string | null },
): Promise<StoredDocument | null> {
  if (!digest.contentType) throw new Error('Only allow-listed files are stored.');
  const row = await db
    .updateTable('documents')
    .set({
      state: 'stored',
      size: digest.size,
      sha256: digest.sha256,
      crc32: digest.crc32,
      content_type: digest.contentType,
      stored_at: new Date(),
      version: digest.version ?? null,
    })
    .where('key', '=', key)
    .where('state', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  return row ? toStored(row) : null;
}

/**
 * A client's stored documents (one category, or all), ordered by the key's numeric prefix. With
 * `duplicates`, each carries the earliest other document of the client with the same bytes.
 */
export async function listDocuments(
  db: Db,
  clientId: string,
  options: { docType?: string; duplicates?: boolean } = {},
): Promise<StoredDocument[]> {
  let query = db.selectFrom('documents').selectAll().where('client_id', '=', clientId).where(STORED);
  if (options.docType !== undefined) query = query.where('doc_type', '=', options.docType);
  const docs = (await query.orderBy('ord').orderBy('key').execute()).map(toStored);
  if (!options.duplicates || docs.length === 0) return docs;
  // Every stored file of the client sharing a hash with one listed, earliest first: one indexed query.
  const hashes = [...new Set(docs.map((d) => d.sha256))];
  const twins = await db
    .selectFrom('documents')
    .select(['key', 'filename', 'doc_type', 'sha256'])
    .where('client_id', '=', clientId)
    .where(STORED)
    .where(sql<boolean>`sha256 = any(${hashes}::text[])`)
    .orderBy('ord')
    .orderBy('key')
    .execute();
  for (const doc of docs) {
    const twin = twins.find((t) => t.sha256 === doc.sha256 && t.key !== doc.key);
    if (twin) doc.duplicateOf = { key: twin.key, filename: twin.filename, docType: twin.doc_type };
  }
  return docs;
}

/** The categories of a client that hold at least one stored document. */
export async function categoriesWithDocuments(db: Db, clientId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('documents')
    .select('doc_type')
    .distinct()
    .where('client_id', '=', clientId)
    .where(STORED)
    .execute();
  return new Set(rows.map((r) => r.doc_type));
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

/** Deletes rows (any state); returns the keys that had one. */
export async function deleteDocumentRows(db: Db, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  // One statement text whatever the number of keys (an `in (…)` list would prepare one per length).
  const rows = await db.deleteFrom('documents').where(sql<boolean>`key = any(${[...keys]}::text[])`).returning('key').execute();
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
  const moved = await db
    .updateTable('documents')
    .set({ key: newKey, filename })
    .where('key', '=', key)
    .where('state', '=', 'stored')
    .executeTakeFirst();
  return moved.numUpdatedRows > 0n;
}
