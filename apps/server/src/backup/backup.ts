/**
 * A consistent backup of a running server. Every row comes from one database snapshot (a read-only
 * REPEATABLE READ transaction: what pg_dump does; the embedded cluster ships no pg_dump, and a client
 * older than the server refuses to dump it), and the manifest lists exactly the documents stored in
 * that snapshot. Their files are copied afterwards: a file written later belongs to a row the snapshot
 * does not have (left out, as the sweeper would remove it), and the local store never rewrites a file,
 * so only a file deleted or renamed since the snapshot can be missing: then the whole backup is taken
 * again from a new snapshot.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../env.js';
import { objectPath } from '../storage/local-layout.js';
import {
  FORMAT,
  isEmptyDir,
  MANIFEST,
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
  for (let attempt = 1; ; attempt += 1) {
    await fs.mkdir(folder, { recursive: true, mode: 0o700 });
    try {
      return await takeBackup(config, folder, say);
    } catch (error) {
      if (!(error instanceof MovedOn) || attempt === ATTEMPTS) throw error;
      say(`${error.message}; taking the backup again from a new snapshot`);
      await fs.rm(folder, { recursive: true, force: true });
    }
  }
}

async function takeBackup(config: Config, folder: string, say: (line: string) => void): Promise<Manifest> {
  const client = new pg.Client(await runningDatabase(config));
  await client.connect();
  let manifest: Manifest;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
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
  await fs.writeFile(path.join(folder, MANIFEST), `${JSON.stringify(manifest, null, 1)}\n`, { mode: 0o600 });
  return manifest;
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
  await fs.mkdir(path.join(folder, 'database'), { mode: 0o700 });
  for (const { name } of tableRows) {
    if (NOT_BACKED_UP.has(name)) continue;
    tables[name] = await dumpTable(client, name, path.join(folder, 'database', `${name}.jsonl`));
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
  return { format: FORMAT, createdAt, migrations: migrations.map((m) => m.name), tables, storage, documents };
}

async function dumpTable(client: pg.Client, table: string, file: string): Promise<number> {
  const out = await fs.open(file, 'wx', 0o600);
  let count = 0;
  try {
    await client.query(
      `DECLARE dump CURSOR FOR SELECT row_to_json(t)::text AS row FROM ${quoteIdent(table)} t`,
    );
    for (;;) {
      const { rows } = await client.query<{ row: string }>(`FETCH ${FETCH_ROWS} FROM dump`);
      if (rows.length === 0) break;
      await out.write(rows.map((r) => `${r.row}\n`).join(''));
      count += rows.length;
    }
    await client.query('CLOSE dump');
  } finally {
    await out.close();
  }
  return count;
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
  const target = path.join(folder, 'files', relative);
  await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  await fs.writeFile(target, bytes, { mode: 0o600, flag: 'wx' });
  return { path: relative, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}
