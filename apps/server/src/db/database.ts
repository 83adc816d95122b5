import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations.js';
import { preparedStatementPool } from './prepared.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** Largest number of connections one server process keeps to PostgreSQL. */
const POOL_SIZE = 10;

/**
 * Opens a pool on PostgreSQL (the embedded cluster or an external server) and applies every pending
 * migration. Migrations take a lock, so several processes starting together are safe. `afterChange`
 * hears every statement that may have changed rows, once it returned.
 */
export async function openDatabase(
  connection: string | pg.PoolConfig,
  onPoolError: (err: Error) => void = () => undefined,
  afterChange?: (statement: string) => void,
): Promise<Db> {
  const config = typeof connection === 'string' ? { connectionString: connection } : connection;
  // A database that hangs (rather than refusing) must not hold requests forever: waiting for a
  // connection gives up and the request answers 503 (a stopped one refuses at once).
  const pool = new pg.Pool({ ...config, max: POOL_SIZE, connectionTimeoutMillis: 10_000 });
  // An idle connection the database ends (restart, failover, timeout) must not end the process;
  // the pool replaces it on the next query.
  pool.on('error', (err) => onPoolError(err));
  // The pool listens for errors only on idle connections. One the database ends while it is checked
  // out (held for an advisory lock, or between two queries) would emit 'error' to nobody and crash
  // the process; its next query fails instead (a 503), and the pool drops it when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: preparedStatementPool(pool, afterChange) }),
  });
  try {
    await migrate(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}

/** Brings a database to the latest schema. */
async function migrate(db: Db): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `Database migration ${failed} failed: ${error instanceof Error ? error.message : 'unknown error'}`,
      {
        cause: error,
      },
    );
  }
}
