import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations.js';
import { PGlitePool } from './pglite-pool.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** Where the data lives: a PostgreSQL URL, an on-disk PGlite directory, or in memory (tests). */
export type DatabaseTarget = { url: string } | { pgliteDir: string } | { memory: true };

/** Opens the database and applies every pending migration. */
export async function openDatabase(
  target: DatabaseTarget,
  onPoolError: (err: Error) => void = () => undefined,
): Promise<Db> {
  let db: Db;
  if ('url' in target) {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle connection the database ends (restart, failover, timeout) must not end the process;
    // the pool replaces it on the next query.
    pool.on('error', (err) => onPoolError(err));
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    let pglite: PGlite;
    if ('pgliteDir' in target) {
      await fs.mkdir(path.dirname(target.pgliteDir), { recursive: true });
      pglite = await PGlite.create(target.pgliteDir);
    } else {
      pglite = await PGlite.create();
    }
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PGlitePool(pglite) }) });
  }
  try {
    const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`Database migration ${failed} failed: ${error instanceof Error ? error.message : 'unknown error'}`, {
        cause: error,
      });
    }
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}
