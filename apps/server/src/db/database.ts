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
export async function openDatabase(target: DatabaseTarget): Promise<Db> {
  let db: Db;
  if ('url' in target) {
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target.url, max: 10 }) }),
    });
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
