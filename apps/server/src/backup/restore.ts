/**
 * Restores a backup (see backup.ts) into a new, empty DATA_DIR (or an empty DATABASE_URL database):
 * the schema is brought to the backup's migrations, every row loaded in one transaction, and each
 * stored file copied and checked against the manifest. Sessions were never backed up: everyone signs
 * in again. The server then starts on it as usual (and applies any newer migrations itself).
 *
 * A backup folder is not trusted: it may have been changed, or made up, by whoever could write where
 * it was kept, and a restore runs with the rights of the server's account (root in a container).
 * Before anything is written: its MAC must verify (authenticate.ts), each table file must have the
 * SHA-256 the manifest gives, only tables a backup writes are loaded, and every stored file's path
 * must stay inside the backup's `files/` folder (and so inside DATA_DIR's), with no link on the way,
 * and have the byte count and SHA-256 the manifest gives (read as a stream, never whole).
 */
import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import readline from 'node:readline';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { preparePrivateDataDir } from '../data-dir.js';
import { startEmbeddedPostgres } from '../db/embedded/cluster.js';
import { migrationProvider } from '../db/migrations.js';
import type { Config } from '../env.js';
import { authenticatedManifest, backupKey } from './authenticate.js';
import {
  DATABASE_DIR,
  FILES_DIR,
  FORMAT,
  isEmptyDir,
  NOT_BACKED_UP,
  quoteIdent,
  type Manifest,
} from './format.js';

const INSERT_ROWS = 500;
/** The names a backup gives its tables (the schema's own: lower case, digits, underscores). */
const TABLE_NAME = /^[a-z][a-z0-9_]*$/;
const NOTHING_WRITTEN = 'Nothing was written.';

export async function restore(config: Config, given: string, say: (line: string) => void): Promise<Manifest> {
  // The folder itself may be reached through a link (`/backups/latest`); nothing inside it may.
  const folder = await fs.realpath(given).catch(() => {
    throw new Error(`${given} is not a backup: there is no such folder.`);
  });
  const { key } = await backupKey(config);
  const manifest = parseManifest(await authenticatedManifest(folder, key), folder);
  await checkTables(folder, manifest);
  await checkStoredFiles(folder, manifest);
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
      await loadTable(client, table, path.join(folder, DATABASE_DIR, `${table}.jsonl`), manifest);
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

/** The manifest's contents, once its MAC verified. */
function parseManifest(bytes: Buffer, folder: string): Manifest {
  const manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
  if (manifest.format !== FORMAT) throw new Error(`${folder} is not a backup this version can restore.`);
  return manifest;
}

const refuse = (why: string) => new Error(`Refusing to restore: ${why}. ${NOTHING_WRITTEN}`);

/** Throws when an entry of the backup (`parts` under the folder) or a folder on its way is a link or missing. */
async function assertPlain(folder: string, parts: string[], what: string): Promise<void> {
  for (let i = 1; i <= parts.length; i += 1) {
    const entry = parts.slice(0, i).join('/');
    const stat = await fs.lstat(path.join(folder, ...parts.slice(0, i))).catch(() => null);
    if (!stat) throw refuse(`the backup's entry ${entry} (${what}) is missing`);
    if (stat.isSymbolicLink()) {
      throw refuse(
        `the backup's entry ${entry} (${what}) is a link; a backup holds none, and a link could lead anywhere`,
      );
    }
    const last = i === parts.length;
    if (last ? !stat.isFile() : !stat.isDirectory()) {
      throw refuse(`the backup's entry ${entry} (${what}) is not a ${last ? 'file' : 'folder'}`);
    }
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * Only tables a backup writes, each file a plain file with the SHA-256 the (authenticated) manifest
 * gives: a row planted in a table file, or a table a backup never holds (`sessions`), is refused.
 */
async function checkTables(folder: string, manifest: Manifest): Promise<void> {
  for (const table of Object.keys(manifest.tables)) {
    if (!TABLE_NAME.test(table) || NOT_BACKED_UP.has(table)) {
      throw refuse(`the backup lists the table ${JSON.stringify(table)}, which a backup never holds`);
    }
    const entry = [DATABASE_DIR, `${table}.jsonl`];
    await assertPlain(folder, entry, `the table ${table}`);
    const expected = manifest.tableSha256[table];
    if (expected === undefined || (await sha256Of(path.join(folder, ...entry))) !== expected) {
      throw refuse(
        `the backup does not verify: its table file ${entry.join('/')} was changed since the backup was taken (its SHA-256 differs from the manifest's)`,
      );
    }
  }
}

/** The parts of a stored file's path; throws, naming the entry, for one that could leave the folder. */
function storedParts(stored: string, docKey: string): string[] {
  const parts = typeof stored === 'string' ? stored.split('/') : [];
  const confined =
    parts.length > 0 &&
    !path.isAbsolute(stored) &&
    parts.every((part) => part !== '' && part !== '.' && part !== '..' && !/[\\\0]/.test(part));
  if (!confined) {
    throw refuse(
      `the backup's entry ${JSON.stringify(stored)} (the file of ${docKey}) is not a path inside its ${FILES_DIR} folder (an absolute path, .. or an empty part)`,
    );
  }
  return parts;
}

/** Every stored file's path stays inside `files/`, with no link on the way, and is named once. */
async function checkStoredFiles(folder: string, manifest: Manifest): Promise<void> {
  if (manifest.storage !== 'local') return;
  const seen = new Set<string>();
  for (const doc of manifest.documents) {
    if (!doc.stored) {
      throw new Error(
        `The manifest has no stored file for ${doc.key}: the backup is incomplete. ${NOTHING_WRITTEN}`,
      );
    }
    const parts = storedParts(doc.stored.path, doc.key);
    if (seen.has(doc.stored.path)) {
      throw refuse(`the backup names its entry ${FILES_DIR}/${doc.stored.path} for two documents`);
    }
    seen.add(doc.stored.path);
    await assertPlain(folder, [FILES_DIR, ...parts], `the file of ${doc.key}`);
    const source = await fs.open(
      path.join(folder, FILES_DIR, ...parts),
      constants.O_RDONLY | constants.O_NOFOLLOW,
    );
    const check = storedCheck(doc.stored, `${FILES_DIR}/${doc.stored.path}`, doc.key);
    try {
      for await (const chunk of source.createReadStream() as AsyncIterable<Buffer>) check.update(chunk);
    } finally {
      await source.close().catch(() => undefined);
    }
    check.end();
  }
}

/**
 * Counts and hashes a stored file's bytes as they stream past: a file longer than the manifest's
 * count is refused as soon as it is exceeded (a file swapped for a huge one is never read through),
 * and at the end its count and SHA-256 must be the manifest's.
 */
function storedCheck(
  stored: { sha256: string; bytes: number },
  entry: string,
  docKey: string,
  fail: (why: string) => Error = refuse,
) {
  const hash = createHash('sha256');
  let seen = 0;
  const damaged = (why: string) =>
    fail(`the backup's entry ${entry} (the file of ${docKey}) is damaged: ${why}`);
  return {
    update(chunk: Buffer) {
      seen += chunk.length;
      if (seen > stored.bytes)
        throw damaged(`it is larger than the ${stored.bytes} bytes the manifest records`);
      hash.update(chunk);
    },
    end() {
      if (seen !== stored.bytes)
        throw damaged(`it is smaller than the ${stored.bytes} bytes the manifest records`);
      if (hash.digest('hex') !== stored.sha256) throw damaged(`its SHA-256 differs from the manifest's`);
    },
  };
}

async function loadTable(client: pg.Client, table: string, file: string, manifest: Manifest): Promise<void> {
  const insert = `INSERT INTO ${quoteIdent(table)} SELECT * FROM json_populate_recordset(NULL::${quoteIdent(table)}, $1::json)`;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length > 0) await client.query(insert, [`[${batch.join(',')}]`]);
    batch = [];
  };
  // Hashed again as it is read: a file changed since it was checked is refused before the commit.
  const hash = createHash('sha256');
  const handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  const input = handle.createReadStream();
  input.on('data', (chunk) => hash.update(chunk));
  try {
    for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) {
      if (!line) continue;
      batch.push(line);
      if (batch.length >= INSERT_ROWS) await flush();
    }
    await flush();
  } finally {
    input.destroy();
  }
  if (hash.digest('hex') !== manifest.tableSha256[table]) {
    throw new Error(`Refusing to restore: the table file of ${table} changed while it was restored.`);
  }
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

/**
 * Copies each document's stored file into place, refusing any whose bytes differ from the manifest's.
 * The paths were checked (checkStoredFiles); the copy still follows no link, in the backup or in
 * DATA_DIR, and never writes over a file.
 */
async function copyFiles(folder: string, root: string, manifest: Manifest): Promise<void> {
  await mkdirNoLink(path.dirname(root), [path.basename(root)]);
  for (const doc of manifest.documents) {
    if (!doc.stored)
      throw new Error(`The manifest has no stored file for ${doc.key}: the backup is incomplete.`);
    const parts = storedParts(doc.stored.path, doc.key);
    const source = await fs.open(
      path.join(folder, FILES_DIR, ...parts),
      constants.O_RDONLY | constants.O_NOFOLLOW,
    );
    await mkdirNoLink(root, parts.slice(0, -1));
    const target = path.join(root, ...parts);
    // Checked again as it streams: a file changed since it was checked is refused, its copy removed.
    const check = storedCheck(
      doc.stored,
      `${FILES_DIR}/${doc.stored.path}`,
      doc.key,
      (why) => new Error(`The restore stopped: ${why}. DATA_DIR holds an incomplete restore: remove it.`),
    );
    const verify = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        try {
          check.update(chunk);
          next(null, chunk);
        } catch (error) {
          next(error as Error);
        }
      },
      flush(next) {
        try {
          check.end();
          next();
        } catch (error) {
          next(error as Error);
        }
      },
    });
    // `wx` (O_CREAT | O_EXCL) neither follows a link nor writes over anything.
    const written = await fs.open(target, 'wx', 0o600);
    try {
      await pipeline(source.createReadStream(), verify, written.createWriteStream());
    } catch (error) {
      await fs.rm(target, { force: true });
      throw error;
    } finally {
      await source.close().catch(() => undefined);
      await written.close().catch(() => undefined);
    }
  }
}

/** Makes the folders `parts` under `base` one by one (0700), refusing any that is a link. */
async function mkdirNoLink(base: string, parts: string[]): Promise<void> {
  let dir = base;
  for (const part of parts) {
    dir = path.join(dir, part);
    const stat = await fs.lstat(dir).catch(() => null);
    if (!stat) {
      await fs.mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      if ((await fs.lstat(dir)).isDirectory()) continue;
    } else if (stat.isDirectory()) continue;
    throw new Error(`Refusing to restore: ${dir} in DATA_DIR is a link or not a folder.`);
  }
}
