import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Presents one embedded PGlite database as the `pg`-style pool Kysely's PostgresDialect expects.
 * PGlite is a single connection, so `connect()` is a mutex: a transaction holds it until release,
 * and concurrent requests wait their turn instead of interleaving statements.
 */
export class PGlitePool implements PostgresPool {
  readonly #db: PGlite;
  #locked = false;
  readonly #waiters: Array<() => void> = [];
  readonly #client: PostgresPoolClient;

  constructor(db: PGlite) {
    this.#db = db;
    this.#client = {
      query: (async (sql: string, parameters: readonly unknown[]) => {
        const result = await this.#db.query<Record<string, unknown>>(sql, [...parameters]);
        return {
          command: commandOf(sql),
          rowCount: result.affectedRows ?? result.rows.length,
          rows: result.rows,
        } satisfies PostgresQueryResult<Record<string, unknown>>;
      }) as PostgresPoolClient['query'],
      release: () => this.#release(),
    };
  }

  async connect(): Promise<PostgresPoolClient> {
    if (this.#locked) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    this.#locked = true;
    return this.#client;
  }

  async end(): Promise<void> {
    await this.#db.close();
  }

  #release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }
}

function commandOf(sql: string): PostgresQueryResult<unknown>['command'] {
  const word = /^\s*(?:with\b[\s\S]*?\)\s*)?(\w+)/i.exec(sql)?.[1]?.toUpperCase();
  switch (word) {
    case 'INSERT':
    case 'UPDATE':
    case 'DELETE':
    case 'MERGE':
      return word;
    default:
      return 'SELECT';
  }
}
