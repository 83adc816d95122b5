import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.js';
import { freshDatabase } from './harness.js';

let db: Db;
let drop: () => Promise<void>;

beforeAll(async () => {
  const database = await freshDatabase();
  drop = database.drop;
  db = await openDatabase(database.url);
});

afterAll(async () => {
  await db.destroy();
  await drop();
});

describe('prepared statements', () => {
  it('prepares each query text once per connection and reuses it', async () => {
    await db.connection().execute(async (conn) => {
      for (const email of ['a@example.org', 'b@example.org']) {
        await conn.selectFrom('users').select('email').where('email', '=', email).execute();
      }
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        conn,
      );
      const users = prepared.rows.filter((r) => r.statement.includes('from "users"'));
      expect(users).toHaveLength(1);
    });
  });

  it('leaves schema changes and transaction control unprepared', async () => {
    await db.connection().execute(async (conn) => {
      await sql`create table if not exists unprepared_probe (id int)`.execute(conn);
      await conn.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
      });
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        conn,
      );
      expect(prepared.rows.map((r) => r.statement)).not.toContainEqual(
        expect.stringMatching(/create table|begin|commit/i),
      );
    });
  });

  it('recovers when another server changes the columns of a prepared query', async () => {
    await db.connection().execute(async (conn) => {
      await sql`create table widgets (id int)`.execute(conn);
      await sql`insert into widgets values (1)`.execute(conn);
      const read = () => sql<Record<string, unknown>>`select * from widgets`.execute(conn);
      expect((await read()).rows).toEqual([{ id: 1 }]);
      await sql`alter table widgets add column label text`.execute(conn);
      // PostgreSQL refuses the cached plan once; the statement is then prepared afresh.
      await expect(read()).rejects.toThrow('cached plan must not change result type');
      expect((await read()).rows).toEqual([{ id: 1, label: null }]);
    });
  });
});
