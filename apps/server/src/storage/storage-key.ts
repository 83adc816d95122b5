/**
 * The local store's master key: from `STORAGE_KEY`, or a key file outside the data directory
 * (`STORAGE_KEY_FILE`, else `storage.key` in the user's configuration directory, created on the first
 * start). The database keeps only the key's fingerprint: a start with another key, or without the
 * key once one was used, stops with a message saying so, before anything is served.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import type { StorageKeySource } from '../env.js';
import { storageKeyFrom, type StorageKey } from './encryption.js';

const KEY_BYTES = 32;

const isCode = (error: unknown, code: string): boolean =>
  error instanceof Error && 'code' in error && error.code === code;

/** The real path of `target`, or of its nearest existing parent with the rest appended. */
async function realish(target: string): Promise<string> {
  const resolved = path.resolve(target);
  try {
    return await fs.realpath(resolved);
  } catch {
    const parent = path.dirname(resolved);
    return parent === resolved ? resolved : path.join(await realish(parent), path.basename(resolved));
  }
}

/** Refuses a key file inside the data directory: a backup of that directory would carry its own key. */
async function assertOutside(keyFile: string, dataDir: string): Promise<void> {
  const relative = path.relative(await realish(dataDir), await realish(keyFile));
  if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
    throw new Error(
      `The storage key file ${keyFile} is inside the data directory ${dataDir}. Keep it somewhere else ` +
        '(STORAGE_KEY_FILE), so a copy of the data directory cannot be read without it.',
    );
  }
}

/** The key a key file holds: 32 bytes in base64 on one line. */
function parseKeyFile(text: string, file: string): Buffer {
  const trimmed = text.trim();
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (key.length !== KEY_BYTES) {
    throw new Error(
      `The storage key file ${file} does not hold a storage key (32 random bytes in base64 on one line).`,
    );
  }
  return key;
}

/** Writes a new random key to `file` (0600, its folder 0700); another process's key wins a race. */
async function createKeyFile(file: string): Promise<Buffer | null> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx', 0o600);
  } catch (error) {
    if (isCode(error, 'EEXIST')) return null;
    throw error;
  }
  try {
    await handle.writeFile(`${key.toString('base64')}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return key;
}

/** Reads the key a source names (creating the default file when allowed); null when the file is missing. */
async function readKey(
  source: StorageKeySource,
  options: { dataDir: string; mayCreate: boolean; log: Pick<FastifyBaseLogger, 'warn'> },
): Promise<Buffer | null> {
  if (source.kind === 'value') return source.key;
  await assertOutside(source.path, options.dataDir);
  let text: string;
  try {
    text = await fs.readFile(source.path, 'utf8');
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
    if (!source.createIfMissing || !options.mayCreate) return null;
    const created = await createKeyFile(source.path);
    if (!created) return readKey(source, { ...options, mayCreate: false });
    options.log.warn(
      `Created a new storage key at ${source.path}. Every stored file is encrypted with it: back it up separately ` +
        '(not with the data directory). Without it the stored files cannot be read.',
    );
    return created;
  }
  const { mode } = await fs.stat(source.path);
  // Refused like an open data directory: a key others can read protects nothing.
  if ((mode & 0o077) !== 0) {
    throw new Error(
      `The storage key file ${source.path} can be read or changed by other users. Make it private, then start again: chmod 600 ${source.path}`,
    );
  }
  return parseKeyFile(text, source.path);
}

/** Where the key was looked for, in words. */
const describeSource = (source: StorageKeySource) =>
  source.kind === 'value' ? 'STORAGE_KEY' : `the key file ${source.path}`;

/**
 * The master key for the local store, checked against the fingerprint the database recorded the
 * first time a key was used (and recorded now if this is that time). Throws, with what to do, when
 * the key is missing or is not the recorded one.
 */
export async function loadStorageKey(
  source: StorageKeySource,
  deps: { db: Db; dataDir: string; log: FastifyBaseLogger },
): Promise<StorageKey> {
  const { db } = deps;
  const recorded = async () =>
    (await db.selectFrom('storage_key').select('fingerprint').executeTakeFirst())?.fingerprint;
  const before = await recorded();
  const master = await readKey(source, {
    dataDir: deps.dataDir,
    mayCreate: before === undefined,
    log: deps.log,
  });
  if (!master) {
    if (source.kind === 'file' && !source.createIfMissing && before === undefined) {
      throw new Error(`STORAGE_KEY_FILE names ${source.path}, which does not exist.`);
    }
    throw new Error(
      `The stored files are encrypted with a storage key, but there is none at ${source.kind === 'file' ? source.path : 'STORAGE_KEY'}. ` +
        'Put the key file back from its backup, or set STORAGE_KEY or STORAGE_KEY_FILE to the key. Without it the files cannot be read.',
    );
  }
  const key = storageKeyFrom(master);
  if (before === undefined) {
    await db
      .insertInto('storage_key')
      .values({ fingerprint: key.fingerprint })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }
  const fingerprint = before ?? (await recorded());
  const matches =
    fingerprint !== undefined &&
    fingerprint.length === key.fingerprint.length &&
    timingSafeEqual(Buffer.from(fingerprint), Buffer.from(key.fingerprint));
  if (!matches) {
    throw new Error(
      `The storage key from ${describeSource(source)} is not the key the stored files are encrypted with ` +
        '(its fingerprint differs from the one recorded in the database). Start with the original key; ' +
        'files encrypted with one key cannot be read with another.',
    );
  }
  return key;
}

/**
 * The storage key a source names, for the backup commands: read, never made (a backup and a restore
 * are run with the key the server has), with the server's checks of the key file. The fingerprint is
 * the caller's to compare with the database's.
 */
export async function readStorageKey(source: StorageKeySource, dataDir: string): Promise<StorageKey> {
  const master = await readKey(source, { dataDir, mayCreate: false, log: { warn: () => undefined } });
  if (!master) {
    throw new Error(
      `There is no storage key at ${source.kind === 'file' ? source.path : 'STORAGE_KEY'}. Run the command with the ` +
        'storage key the server has (STORAGE_KEY or STORAGE_KEY_FILE): a backup is authenticated with it.',
    );
  }
  return storageKeyFrom(master);
}
