/**
 * A consistent backup of a running server. Every row comes from one database snapshot (a read-only
 * REPEATABLE READ transaction: what pg_dump does; the embedded cluster ships no pg_dump, and a client
 * older than the server refuses to dump it), and the manifest lists exactly the documents stored in
 * that snapshot. Their files are copied afterwards: a file written later belongs to a row the snapshot
 * does not have (left out, as the sweeper would remove it), and the local store never rewrites a file,
 * so only a file deleted or renamed since the snapshot can be missing: then the whole backup is taken
 * again from a new snapshot. The manifest is authenticated (authenticate.ts) with a key derived from
 * the storage key, which is not in the backup.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../env.js';
import { objectPath } from '../storage/local-layout.js';
import { backupKey, writeManifest, type BackupKey } from './authenticate.js';
import {
  DATABASE_DIR,
  FILES_DIR,
  FORMAT,
  isEmptyDir,
  NOT_BACKED_UP,
  quoteIdent,
  runningDatabase,
  type Manifest,
  type ManifestDocument,
} from './format.js';

const ATTEMPTS = 3;
const FETCH_ROWS = 1_000;

/** A file the snapshot's rows name is gone: a document deleted or renamed while the backup ran. */
class MovedOn extends Error {}

export async function backUp(config: Config, folder: string, say: (line: string) => void): Promise<Manifest> {
  if (!(await isEmptyDir(folder))) {
    throw new Error(`${folder} is not empty: a backup goes into a new, empty folder.`);
  }
  // First: without the key no backup could be restored, so none is taken.
  const key = await backupKey(config);
  for (let attempt = 1; ; attempt += 1) {
    await fs.mkdir(folder, { recursive: true, mode: 0o700 });
    try {
      return await takeBackup(config, key, folder, say);
    } catch (error) {
      if (!(error instanceof MovedOn) || attempt === ATTEMPTS) throw error;
      say(`${error.message}; taking the backup again from a new snapshot`);
      await fs.rm(folder, { recursive: true, force: true });
    }
  }
}

async function takeBackup(
  config: Config,
  key: BackupKey,
  folder: string,
  say: (line: string) => void,
): Promise<Manifest> {
  const client = new pg.Client(await runningDatabase(config));
  await client.connect();
  let manifest: Manifest;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await assertServersKey(client, key);
    manifest = await dumpSnapshot(client, folder, config.s3 ? 's3' : 'local');
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
  say(
    `database: ${Object.values(manifest.tables).reduce((a, b) => a + b, 0)} rows in ${Object.keys(manifest.tables).length} tables, ${manifest.documents.length} documents`,
  );
  if (manifest.storage === 'local') {
    const root = path.join(config.dataDir, 'files');
    for (const doc of manifest.documents) doc.stored = await copyStored(root, folder, doc.key);
  }
  await writeManifest(folder, key.key, `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}

/**
 * The key given is the server's (its fingerprint is the one the database recorded): a backup
 * authenticated under another key would be refused by the restore that has the server's.
 */
async function assertServersKey(client: pg.Client, key: BackupKey): Promise<void> {
  if (key.fingerprint === null) return;
  const { rows } = await client.query<{ fingerprint: string }>('SELECT fingerprint FROM storage_key');
  const recorded = rows[0]?.fingerprint;
  if (recorded !== undefined && recorded !== key.fingerprint) {
    throw new Error(
      "The storage key given is not the server's (its fingerprint differs from the one recorded in the database). " +
        'Run the backup with the storage key the server has (STORAGE_KEY or STORAGE_KEY_FILE).',
    );
  }
}

/** Every table's rows (JSON lines) and the stored documents, all read in the transaction's one snapshot. */
async function dumpSnapshot(
  client: pg.Client,
  folder: string,
  storage: Manifest['storage'],
): Promise<Manifest> {
  const { rows: migrations } = await client.query<{ name: string }>(
    'SELECT name FROM kysely_migration ORDER BY name',
  );
  const { rows: tableRows } = await client.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
  );
  const tables: Record<string, number> = {};
  const tableSha256: Record<string, string> = {};
  await fs.mkdir(path.join(folder, DATABASE_DIR), { mode: 0o700 });
  for (const { name } of tableRows) {
    if (NOT_BACKED_UP.has(name)) continue;
    const dumped = await dumpTable(client, name, path.join(folder, DATABASE_DIR, `${name}.jsonl`));
    tables[name] = dumped.rows;
    tableSha256[name] = dumped.sha256;
  }
  const { rows: docs } = await client.query<{
    key: string;
    client_id: string;
    doc_type: string;
    filename: string;
    size: string;
    sha256: string;
  }>(
    `SELECT key, client_id, doc_type, filename, size, sha256 FROM documents WHERE state = 'stored' ORDER BY key`,
  );
  const documents: ManifestDocument[] = docs.map((row) => ({
    key: row.key,
    clientId: row.client_id,
    docType: row.doc_type,
    filename: row.filename,
    size: Number(row.size),
    sha256: row.sha256,
  }));
  const createdAt = new Date().toISOString();
  return {
    format: FORMAT,
    createdAt,
    migrations: migrations.map((m) => m.name),
    tables,
    tableSha256,
    storage,
    documents,
  };
}

async function dumpTable(
  client: pg.Client,
  table: string,
  file: string,
): Promise<{ rows: number; sha256: string }> {
  const out = await fs.open(file, 'wx', 0o600);
  const hash = createHash('sha256');
  let count = 0;
  try {
    await client.query(
      `DECLARE dump CURSOR FOR SELECT row_to_json(t)::text AS row FROM ${quoteIdent(table)} t`,
    );
    for (;;) {
      const { rows } = await client.query<{ row: string }>(`FETCH ${FETCH_ROWS} FROM dump`);
      if (rows.length === 0) break;
      const text = rows.map((r) => `${r.row}\n`).join('');
      hash.update(text);
      await out.write(text);
      count += rows.length;
    }
    await client.query('CLOSE dump');
  } finally {
    await out.close();
  }
  return { rows: count, sha256: hash.digest('hex') };
}

async function copyStored(
  root: string,
  folder: string,
  key: string,
): Promise<NonNullable<ManifestDocument['stored']>> {
  const source = objectPath(root, key);
  const relative = path.relative(root, source);
  const bytes = await fs.readFile(source).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT')
      throw new MovedOn(`the file of ${key} was deleted or renamed since the snapshot`);
    throw error;
  });
  const target = path.join(folder, FILES_DIR, relative);
  await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  await fs.writeFile(target, bytes, { mode: 0o600, flag: 'wx' });
  return { path: relative, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}
