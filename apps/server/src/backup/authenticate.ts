/**
 * A backup's authentication: an HMAC-SHA256 over `manifest.json`, kept in `manifest.mac`, under a key
 * derived from the storage key (its own label), which is never in a backup. The manifest holds the
 * SHA-256 of every table file and of every stored file, so the MAC covers them all: a row planted in
 * a table file, a table added, a path changed, or a manifest written by anyone without the key, and
 * the restore refuses the backup before it writes anything.
 *
 * On S3 the server has no storage key: there the key is derived from `SESSION_SECRET`, which is kept
 * out of the database only when set from the environment (the generated secret is in the database, so
 * in the backup, and would authenticate nothing).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../env.js';
import { deriveSubkey } from '../storage/encryption.js';
import { readStorageKey } from '../storage/storage-key.js';
import { MANIFEST, MANIFEST_MAC } from './format.js';

const MAC_LABEL = 'vita-docs/backup-mac/v1';

export interface BackupKey {
  key: Buffer;
  /** The storage key's fingerprint, to compare with the database's (null on S3). */
  fingerprint: string | null;
}

/** The key that authenticates backups, from the configuration the server runs with. */
export async function backupKey(config: Config): Promise<BackupKey> {
  if (config.s3) {
    if (!config.sessionSecret) {
      throw new Error(
        'With S3 a backup is authenticated with a key derived from SESSION_SECRET (there is no storage key), ' +
          'and without it the server keeps its secret in the database, which is in the backup. Set SESSION_SECRET ' +
          '(the same value for the server, the backup and the restore).',
      );
    }
    return { key: deriveSubkey(Buffer.from(config.sessionSecret, 'utf8'), MAC_LABEL), fingerprint: null };
  }
  const storageKey = await readStorageKey(config.storageKey, config.dataDir);
  return { key: storageKey.derive(MAC_LABEL), fingerprint: storageKey.fingerprint };
}

/** The MAC of a manifest's bytes, as `manifest.mac` holds it (hex, one line). */
const macOf = (key: Buffer, manifest: Buffer): string =>
  createHmac('sha256', key).update(manifest).digest('hex');

/** Writes the manifest and its MAC. */
export async function writeManifest(folder: string, key: Buffer, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  await fs.writeFile(path.join(folder, MANIFEST), bytes, { mode: 0o600, flag: 'wx' });
  await fs.writeFile(path.join(folder, MANIFEST_MAC), `${macOf(key, bytes)}\n`, { mode: 0o600, flag: 'wx' });
}

/** Reads a file of the backup that must be a plain file (not a link), or null when it is missing. */
async function readPlain(folder: string, name: string): Promise<Buffer | null> {
  const file = path.join(folder, name);
  const stat = await fs.lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!stat) return null;
  if (!stat.isFile()) {
    throw new Error(
      `Refusing to restore: the backup's ${name} is a link or not a file. Nothing was written.`,
    );
  }
  return fs.readFile(file);
}

/**
 * The manifest's bytes once its MAC verifies under `key`; throws, saying why, when the backup is not
 * authenticated (no MAC: an earlier version's backup) or does not verify. Nothing in the manifest is
 * used before this.
 */
export async function authenticatedManifest(folder: string, key: Buffer): Promise<Buffer> {
  const manifest = await readPlain(folder, MANIFEST);
  if (!manifest) throw new Error(`${folder} is not a backup: it has no ${MANIFEST}.`);
  const mac = await readPlain(folder, MANIFEST_MAC);
  if (!mac) {
    throw new Error(
      `Refusing to restore: the backup in ${folder} is not authenticated (it has no ${MANIFEST_MAC}; backups taken ` +
        'by earlier versions have none), so nothing shows it was not changed. Restore it with the version that ' +
        'took it, then take a new backup with this one (README, "Backups"). Nothing was written.',
    );
  }
  const given = Buffer.from(mac.toString('utf8').trim(), 'hex');
  const expected = Buffer.from(macOf(key, manifest), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new Error(
      `Refusing to restore: the backup in ${folder} does not verify (its ${MANIFEST} was changed since the ` +
        'backup was taken, or the storage key is not the one of the server that took it). Nothing was written.',
    );
  }
  return manifest;
}
