/** What the server does when its database connections end under it. */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.js';
import { isDatabaseUnavailable } from '../src/db/errors.js';
import { adminQuery, freshDatabase, startApp } from './harness.js';

describe('database connections that end', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await freshDatabase();
    drop = database.drop;
    db = await openDatabase(database.url);
  });
  afterAll(async () => {
    await db?.destroy();
    await drop?.();
  });

  it('survives the database ending a connection that is checked out between two queries', async () => {
    const failure = await db
      .connection()
      .execute(async (held) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(held);
        // Ended from another connection, as a database shutdown or restart ends every one; with a
        // timeout, pg_terminate_backend returns once the backend has exited.
        await sql`select pg_terminate_backend(${rows[0]?.pid}, 10000)`.execute(db);
        return sql`select 1`.execute(held);
      })
      .catch((error: unknown) => error);
    // The next query on it fails in a way the server answers 503 for; the process lives on and the
    // pool hands out a fresh connection.
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it('tells an unreachable database from a wrong query', () => {
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' })),
    ).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(
      false,
    );
  });
});

describe('a running server whose database ends its connections', () => {
  it('survives the database ending its connections', async () => {
    const app = await startApp();
    try {
      expect((await app.agent().get('/api/me')).status).toBe(401);
      const database = new URL(app.databaseUrl).pathname.slice(1);
      // Returns once every one of them has exited (the timeout makes it wait for that).
      await adminQuery(
        `SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = '${database}'`,
      );
      const res = await app.agent().prime();
      expect((await res.get('/api/me')).status).toBe(401);
    } finally {
      await app.close();
    }
  });
});
