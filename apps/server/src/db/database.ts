import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { hangAwareConnect } from './hang.js';
import { migrationProvider } from './migrations.js';
import { preparedStatementPool } from './prepared.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** Largest number of connections one server process keeps to PostgreSQL. */
const POOL_SIZE = 10;

/**
 * How long a request waits on the database before it answers 503 (`DATABASE_TIMEOUT_MS`): for a
 * connection (a new one, or one of the pool's to come free) and for each statement's answer. Which
 * setting covers which failure: docs/reliability.md#dependencies-that-stop-answering.
 */
const DEFAULT_DATABASE_TIMEOUT_MS = 2_000;
/** How long a request may wait for a connection that is busy under load (the database answering). */
const LOAD_WAIT_MS = 10_000;

/**
 * The pool's settings for a database that stops answering rather than refusing (a hung disk, a
 * partition, every process of the cluster stopped): each case has its own bound.
 */
function hangBounds(timeoutMs: number): pg.PoolConfig {
  return {
    // A backstop only: how long a request waits for a connection is chosen by `hangAwareConnect`
    // (a new one, or any once the database is suspect: `timeoutMs`; one busy under load: this).
    connectionTimeoutMillis: LOAD_WAIT_MS,
    // Each statement's answer, measured by the client: the only bound when the server itself is stopped.
    query_timeout: timeoutMs,
    // The same bound kept by the server, so a statement the client gave up on does not run on.
    statement_timeout: timeoutMs,
    // A transaction whose client went silent (its socket destroyed after a timeout) frees its locks.
    idle_in_transaction_session_timeout: Math.max(5 * timeoutMs, 10_000),
    // A pooled connection to a DATABASE_URL across a network that went away is found dead while idle.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/**
 * Opens a pool on PostgreSQL (the embedded cluster or an external server) and applies every pending
 * migration. Migrations take a lock, so several processes starting together are safe. `afterChange`
 * hears every statement that may have changed rows, once it returned.
 */
export async function openDatabase(
  connection: string | pg.PoolConfig,
  onPoolError: (err: Error) => void = () => undefined,
  afterChange?: (statement: string) => void,
  timeoutMs = DEFAULT_DATABASE_TIMEOUT_MS,
): Promise<Db> {
  const config = typeof connection === 'string' ? { connectionString: connection } : connection;
  // Migrations run first on a connection without these bounds: a schema change may take longer.
  await migrate(config);
  // A database that hangs (rather than refusing) must not hold requests forever: each wait gives up
  // and the request answers 503 (a stopped one refuses at once).
  const pool = new pg.Pool({ ...config, ...hangBounds(timeoutMs), max: POOL_SIZE });
  // An idle connection the database ends (restart, failover, timeout) must not end the process;
  // the pool replaces it on the next query.
  pool.on('error', (err) => onPoolError(err));
  // The pool listens for errors only on idle connections. One the database ends while it is checked
  // out (held for an advisory lock, or between two queries) would emit 'error' to nobody and crash
  // the process; its next query fails instead (a 503), and the pool drops it when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const watch = hangAwareConnect(pool, timeoutMs, LOAD_WAIT_MS);
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: preparedStatementPool(pool, afterChange, watch) }),
  });
}

/** Brings a database to the latest schema, on a pool of its own that is closed afterwards. */
async function migrate(config: pg.PoolConfig): Promise<void> {
  const pool = new pg.Pool({ ...config, max: 1, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const { error, results } = await new Migrator({ db, provider: migrationProvider })
    .migrateToLatest()
    .finally(() => db.destroy());
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
