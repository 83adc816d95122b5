import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import type { hangAwareConnect } from './hang.js';

/** Statement texts given a name; past this many, new texts run unnamed (a bound on backend memory). */
const MAX_NAMED_STATEMENTS = 500;

/** Only data statements are worth a plan cache; DDL (migrations) and `begin`/`commit` are not. */
const PLANNED = /^\s*(select|insert|update|delete|with)\b/i;

/** Statements that may change rows (told to `afterChange`). */
const WRITES = /^\s*(update|delete|insert|with|truncate)\b/i;

/** PostgreSQL refuses a cached plan whose columns changed (another server migrated `select *`). */
const RESULT_TYPE_CHANGED = 'cached plan must not change result type';

/** What `pg` says when a statement got no answer within `query_timeout`. */
const QUERY_TIMED_OUT = 'Query read timeout';

/**
 * Kysely sends every query unnamed, so PostgreSQL parses and plans each one again: on this app's
 * one-row lookups that is most of the database's work (figures: docs/architecture.md, `src/db/`).
 * Naming each distinct statement text lets `pg` prepare it once per connection and then only bind
 * and execute. The texts come from the query builder, so their number
 * is bounded by the code; the cap is a guard against a builder that inlines values.
 */
export function preparedStatementPool(
  pool: pg.Pool,
  afterChange?: (text: string) => void,
  watch?: ReturnType<typeof hangAwareConnect>,
): PostgresPool {
  const names = new Map<string, string>();
  let counter = 0;

  const nameFor = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= MAX_NAMED_STATEMENTS || !PLANNED.test(text)) return known;
    counter += 1;
    const name = `vita_${counter}`;
    names.set(text, name);
    return name;
  };

  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    // A statement that got no answer leaves the connection waiting for it: `pg` would queue the next
    // one (a transaction's rollback) behind it for another timeout, and the pool would hand it out
    // again. It fails at once from here, and is destroyed, not pooled, when released.
    let stuck: Error | undefined;
    async function run<R>(text: string, values: readonly unknown[]): Promise<PostgresQueryResult<R>> {
      if (stuck) throw stuck;
      const name = nameFor(text);
      try {
        const result = await client.query<R & pg.QueryResultRow>({
          text,
          values: [...values],
          ...(name && { name }),
        });
        watch?.answered();
        if (afterChange && WRITES.test(text)) afterChange(text);
        return result as PostgresQueryResult<R>;
      } catch (err) {
        // The next use of this text gets a new name, so every connection prepares it afresh.
        if (name && err instanceof Error && err.message.includes(RESULT_TYPE_CHANGED)) names.delete(text);
        if (err instanceof Error && err.message === QUERY_TIMED_OUT) {
          stuck = err;
          watch?.noAnswer();
        }
        throw err;
      }
    }
    function query<R>(text: string, values: readonly unknown[]): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query<R>(
      textOrCursor: string | PostgresCursor<R>,
      values: readonly unknown[] = [],
    ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
      // The dialect is built without a cursor class, so Kysely never streams through one.
      if (typeof textOrCursor !== 'string') throw new Error('Cursors are not configured.');
      return run<R>(textOrCursor, values);
    }
    return { query, release: () => client.release(stuck) };
  };

  return {
    connect: async () => wrap(await (watch ? watch.connect() : pool.connect())),
    end: () => pool.end(),
  };
}
