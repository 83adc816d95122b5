/**
 * What a backup folder holds (docs/backup in README): `manifest.json`, its MAC in `manifest.mac`
 * (authenticate.ts), one JSON-lines file per table under `database/`, and the stored files (still
 * encrypted) under `files/` in the store's own layout.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { Config } from '../env.js';

/** 2: the manifest carries each table file's SHA-256 and is authenticated (`manifest.mac`). */
export const FORMAT = 2;
export const MANIFEST = 'manifest.json';
export const MANIFEST_MAC = 'manifest.mac';
/** Where the table files are, under the backup's folder. */
export const DATABASE_DIR = 'database';
/** Where the stored files are, under the backup's folder. */
export const FILES_DIR = 'files';

/**
 * Tables whose rows are not worth keeping: everyone signs in again after a restore. A backup never
 * holds them, so a restore refuses a backup that does (their rows would be sessions and codes).
 */
export const NOT_BACKED_UP = new Set([
  'sessions',
  // A client's link session too: after a restore the client opens the link again with a new code.
  'client_link_sessions',
  'codes',
  'reset_grants',
  'rate_limits',
  'login_throttle',
  'journal_keys',
  'passkey_challenges',
  // Mailed enrolment codes, bound to a session that a restore does not bring back.
  'passkey_confirmations',
  // Why an upload was refused, kept a day for a late `complete`: its pending row is not restored either.
  'refused_uploads',
  'ended_sessions',
  'recurring_runs',
  'dev_outbox',
  'kysely_migration',
  'kysely_migration_lock',
]);

/** One stored document, as the database snapshot had it. */
export interface ManifestDocument {
  key: string;
  clientId: string;
  docType: string;
  filename: string;
  size: number;
  /** SHA-256 of the document's bytes (what a download gives). */
  sha256: string;
  /** The stored file as copied (local store only): its path under `files/` and the SHA-256 of its encrypted bytes. */
  stored?: { path: string; sha256: string; bytes: number };
}

export interface Manifest {
  format: typeof FORMAT;
  createdAt: string;
  /** The schema the rows belong to: the migrations applied when the snapshot was taken. */
  migrations: string[];
  /** Rows per table. */
  tables: Record<string, number>;
  /** The SHA-256 of each table's file (`database/<table>.jsonl`): the MAC of the manifest covers them. */
  tableSha256: Record<string, string>;
  storage: 'local' | 's3';
  documents: ManifestDocument[];
}

/** Connection settings for the running server's database: DATABASE_URL, else its embedded cluster. */
export async function runningDatabase(config: Config): Promise<pg.ClientConfig> {
  if (config.databaseUrl) return { connectionString: config.databaseUrl };
  const cluster = path.join(config.dataDir, 'postgres');
  const pid = await fs.readFile(path.join(cluster, 'postmaster.pid'), 'utf8').catch(() => null);
  if (pid === null) {
    throw new Error(
      `No running database in ${cluster}. Start the server on this DATA_DIR first (a backup is taken of a running server), or set DATABASE_URL.`,
    );
  }
  const lines = pid.split('\n');
  const password = (await fs.readFile(path.join(config.dataDir, 'postgres.password'), 'utf8')).trim();
  return { host: lines[4] || '127.0.0.1', port: Number(lines[3]), user: 'vita', password, database: 'vita' };
}

/** Whether a folder is missing or holds nothing. */
export async function isEmptyDir(dir: string): Promise<boolean> {
  const entries = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.length === 0;
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
