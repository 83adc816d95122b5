/**
 * Restores a backup (see backup.ts) into a new, empty DATA_DIR (or an empty DATABASE_URL database):
 * the schema is brought to the backup's migrations, every row loaded in one transaction, and each
 * stored file copied and checked against the manifest. Sessions were never backed up: everyone signs
 * in again. The server then starts on it as usual (and applies any newer migrations itself).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import readline from 'node:readline';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { preparePrivateDataDir } from '../data-dir.js';
import { startEmbeddedPostgres } from '../db/embedded/cluster.js';
import { migrationProvider } from '../db/migrations.js';
import type { Config } from '../env.js';
import { FORMAT, isEmptyDir, MANIFEST, quoteIdent, type Manifest } from './format.js';

const INSERT_ROWS = 500;

export async function restore(
  config: Config,
  folder: string,
  say: (line: string) => void,
): Promise<Manifest> {
  const manifest = JSON.parse(await fs.readFile(path.join(folder, MANIFEST), 'utf8')) as Manifest;
  if (manifest.format !== FORMAT) throw new Error(`${folder} is not a backup this version can restore.`);
  const known = Object.keys(await migrationProvider.getMigrations());
  const unknown = manifest.migrations.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `The backup comes from a newer version (schema ${unknown.join(', ')}): restore it with that version.`,
    );
  }
  if (!(await isEmptyDir(config.dataDir))) {
    throw new Error(
      `Refusing to restore into ${config.dataDir}: it is not empty. Restore into a new, empty DATA_DIR (move this one aside first).`,
    );
  }
  await preparePrivateDataDir(config.dataDir);
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: config.dataDir, log: quietLog(say) });
  try {
    await loadDatabase(embedded?.connection() ?? { connectionString: config.databaseUrl }, folder, manifest);
  } finally {
    await embedded?.stop();
  }
  say(
    `database: ${Object.values(manifest.tables).reduce((a, b) => a + b, 0)} rows in ${Object.keys(manifest.tables).length} tables`,
  );
  if (manifest.storage === 'local') await copyFiles(folder, path.join(config.dataDir, 'files'), manifest);
  return manifest;
}

function quietLog(say: (line: string) => void) {
  return { info: () => undefined, warn: say, error: (_obj: object, message: string) => say(message) };
}

async function loadDatabase(connection: pg.ClientConfig, folder: string, manifest: Manifest): Promise<void> {
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ ...connection, max: 1 }) }),
  });
  try {
    await refuseUsedDatabase(connection);
    const last = manifest.migrations.at(-1);
    if (last) {
      const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(last);
      if (error) throw error instanceof Error ? error : new Error('the migrations failed');
    }
  } finally {
    await db.destroy();
  }
  const client = new pg.Client(connection);
  await client.connect();
  try {
    await client.query('BEGIN');
    const tables = Object.keys(manifest.tables);
    // Rows the migrations themselves made (defaults) give way to the backup's.
    if (tables.length > 0) await client.query(`TRUNCATE ${tables.map(quoteIdent).join(', ')} CASCADE`);
    for (const table of await referencedFirst(client, tables)) {
      await loadTable(client, table, path.join(folder, 'database', `${table}.jsonl`));
    }
    await resetSequences(client);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

/** A database with the app's tables already in it is somebody's data: never restore over it. */
async function refuseUsedDatabase(connection: pg.ClientConfig): Promise<void> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema()`,
    );
    if (Number(rows[0]?.n ?? 0) > 0) {
      throw new Error(
        'Refusing to restore: the database already has tables. Restore into a new, empty database.',
      );
    }
  } finally {
    await client.end();
  }
}

/** The tables in an order where each comes after those it refers to (foreign keys). */
async function referencedFirst(client: pg.Client, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  const ordered: string[] = [];
  const visit = (table: string, seen: Set<string>) => {
    if (ordered.includes(table) || seen.has(table)) return;
    seen.add(table);
    for (const edge of rows) if (edge.child === table && edge.parent !== table) visit(edge.parent, seen);
    if (tables.includes(table)) ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

async function loadTable(client: pg.Client, table: string, file: string): Promise<void> {
  const insert = `INSERT INTO ${quoteIdent(table)} SELECT * FROM json_populate_recordset(NULL::${quoteIdent(table)}, $1::json)`;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length > 0) await client.query(insert, [`[${batch.join(',')}]`]);
    batch = [];
  };
  for await (const line of readline.createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line) continue;
    batch.push(line);
    if (batch.length >= INSERT_ROWS) await flush();
  }
  await flush();
}

/** Serial columns continue after the restored rows. */
async function resetSequences(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ tbl: string; col: string; seq: string }>(
    `SELECT c.relname AS tbl, a.attname AS col, pg_get_serial_sequence(quote_ident(c.relname), a.attname) AS seq
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
        AND pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL`,
  );
  for (const { tbl, col, seq } of rows) {
    await client.query(
      `SELECT setval($1, COALESCE((SELECT max(${quoteIdent(col)}) FROM ${quoteIdent(tbl)}), 0) + 1, false)`,
      [seq],
    );
  }
}

/** Copies each document's stored file into place, refusing any whose bytes differ from the manifest's. */
async function copyFiles(folder: string, root: string, manifest: Manifest): Promise<void> {
  await fs.mkdir(root, { recursive: true, mode: 0o700 });
  for (const doc of manifest.documents) {
    if (!doc.stored)
      throw new Error(`The manifest has no stored file for ${doc.key}: the backup is incomplete.`);
    const bytes = await fs.readFile(path.join(folder, 'files', doc.stored.path));
    if (createHash('sha256').update(bytes).digest('hex') !== doc.stored.sha256) {
      throw new Error(`The backup's file for ${doc.key} is damaged (its SHA-256 differs from the manifest).`);
    }
    const target = path.join(root, doc.stored.path);
    await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await fs.writeFile(target, bytes, { mode: 0o600, flag: 'wx' });
  }
}
