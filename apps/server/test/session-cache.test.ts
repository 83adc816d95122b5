/**
 * Session lookups kept in memory (src/auth/session-cache.ts) against two server processes on one
 * database: a lookup is kept while changes can be heard, and any change to a user or a session's
 * end — made by the other process, or straight in the database — holds on this process at once.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/auth/crypto.js';
import { createSessionCache, listenForAuthChanges } from '../src/auth/session-cache.js';
import { resolveSession } from '../src/auth/sessions.js';
import { seedPeople, signIn, startApp, startSibling, type Agent, type TestApp } from './harness.js';

/** Asks until `check` holds, for at most `ms`; returns how long it took (or throws). */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('session lookups kept in memory', () => {
  let a: TestApp;
  let b: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;

  beforeAll(async () => {
    a = await startApp();
    people = await seedPeople(a);
    b = await startSibling(a);
    await within(5_000, () => listening(a));
    await within(5_000, () => listening(b));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** The process other than `app`: its statements do not clear `app`'s lookups by themselves. */
  const other = (app: TestApp) => (app === a ? b : a);

  /** Whether `app` keeps lookups now: a session deleted without its trigger still answers. */
  async function listening(app: TestApp): Promise<boolean> {
    const token = randomBytes(24).toString('base64url');
    await other(app)
      .server.services.db.insertInto('sessions')
      .values({
        id_hash: sha256(token),
        user_email: 'volb@example.org',
        last_seen_at: new Date(),
        ip: null,
        user_agent: null,
      })
      .execute();
    const probe = () => fetch(`${app.url}/api/me`, { headers: { cookie: `vita_session=${token}` } });
    if ((await probe()).status !== 200) return false;
    await silently(other(app), `delete from sessions where id_hash = '${sha256(token)}'`);
    return (await probe()).status === 200;
  }

  /** Runs a statement through `via` with triggers off, so no notification is sent. */
  async function silently(via: TestApp, statement: string): Promise<void> {
    await via.server.services.db.connection().execute(async (conn) => {
      await sql`set session_replication_role = replica`.execute(conn);
      try {
        await sql.raw(statement).execute(conn);
      } finally {
        await sql`set session_replication_role = default`.execute(conn);
      }
    });
  }

  const me = (agent: Agent) => agent.get('/api/me');
  const on = (app: TestApp, agent: Agent) => agent.at(app.url);

  it('keeps a lookup while changes are heard: a session ended without a notification still answers', async () => {
    expect(await listening(a)).toBe(true);
  });

  it('a sign-out on one process ends the session on the other at once', async () => {
    const volunteer = await signIn(a, 'vola@example.org');
    // The cookie as it was: a copy of it (another tab, a stolen one) must stop working everywhere.
    const cookie = `vita_session=${volunteer.cookies.get('vita_session')}`;
    const onB = async () => (await fetch(`${b.url}/api/me`, { headers: { cookie } })).status;
    expect(await onB()).toBe(200);
    expect(await onB()).toBe(200); // kept on b now
    expect((await volunteer.post('/api/auth/logout')).status).toBe(200);
    expect(await within(1_000, async () => (await onB()) === 401)).toBeLessThan(1_000);
  });

  it('a change to the user on the other process holds at once: a role taken away, an approval revoked', async () => {
    const officer = await signIn(a, 'officer@example.org');
    expect((await me(officer)).body.user.role).toBe('officer');
    const admin = on(b, people.admin);
    expect(
      (await admin.post('/api/admin/users/officer%40example.org/role', { role: 'volunteer' })).status,
    ).toBe(200);
    // A role change ends the user's sessions; a user changed in place is forgotten too.
    await within(1_000, async () => (await me(officer)).status === 401);
    const again = await signIn(a, 'officer@example.org');
    expect((await me(again)).body.user.role).toBe('volunteer');
    await b.server.services.db
      .updateTable('users')
      .set({ first_name: 'Renamed' })
      .where('email', '=', 'officer@example.org')
      .execute();
    await within(1_000, async () => (await me(again)).body.user?.firstName === 'Renamed');
    await b.server.services.db
      .updateTable('users')
      .set({ approved: false })
      .where('email', '=', 'officer@example.org')
      .execute();
    await within(1_000, async () => (await me(again)).status === 401);
  });

  it('keeps nothing while it cannot hear changes, and keeps again once it hears them', async () => {
    const volunteer = await signIn(a, 'volb@example.org');
    expect((await me(volunteer)).status).toBe(200);
    // Every listening connection is cut: both processes stop keeping lookups at once.
    // (The listening connections' last statement is LISTEN, or the notification each sends itself.)
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
              where query in ('LISTEN vita_auth', 'select pg_notify($1, $2)')`.execute(b.server.services.db);
    await within(1_000, async () => {
      await silently(b, `delete from sessions where user_email = 'volb@example.org'`);
      return (await me(volunteer)).status === 401;
    });
    // It reconnects by itself (after half a second or more) and keeps lookups again.
    await within(10_000, () => listening(a));
  });

  it('stops keeping lookups when its connection goes deaf without failing (a half-open connection, a pooler that drops notifications)', async () => {
    // A TCP relay to the database that can go silent: both directions stop, nothing is closed.
    const target = new URL(a.databaseUrl);
    const socketDir = target.searchParams.get('host');
    let silent = false;
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((inbound) => {
      const outbound = socketDir?.startsWith('/')
        ? net.connect(`${socketDir}/.s.PGSQL.${target.port || 5432}`)
        : net.connect(Number(target.port || 5432), target.hostname);
      sockets.add(inbound).add(outbound);
      inbound.on('data', (chunk) => silent || outbound.write(chunk));
      outbound.on('data', (chunk) => silent || inbound.write(chunk));
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.address() as net.AddressInfo).port;
    const through = new URL(a.databaseUrl);
    through.hostname = '127.0.0.1';
    through.port = String(port);
    through.searchParams.delete('host');
    const cache = createSessionCache();
    const problems: string[] = [];
    const listener = listenForAuthChanges(through.toString(), cache, (err) => problems.push(err.message));
    const keeps = () => {
      cache.set(
        'probe',
        { user: { email: 'x@example.org' } as never, createdAt: 0, lastSeenAt: 0 },
        0,
        cache.generation(),
      );
      return cache.get('probe', 0) !== undefined;
    };
    try {
      await within(5_000, async () => keeps());
      silent = true;
      // Its next proof of hearing (every 5 s) gets no answer within 3 s.
      await within(10_000, async () => !keeps());
      expect(problems).toContain('the connection stopped hearing notifications');
    } finally {
      await listener.close();
      for (const socket of sockets) socket.destroy();
      relay.close();
    }
  }, 20_000);

  it('requests of one session arriving together look it up once, and refresh its idle time once', async () => {
    // What the database is asked, statement by statement, through the server's own pool.
    const asked: string[] = [];
    const db = a.server.services.db.withPlugin({
      transformQuery: ({ node }) => (asked.push(node.kind), node),
      transformResult: async ({ result }) => result,
    });
    const token = randomBytes(24).toString('base64url');
    await db
      .insertInto('sessions')
      .values({
        id_hash: sha256(token),
        user_email: 'volb@example.org',
        // Idle for two minutes: its next use refreshes the idle timer.
        last_seen_at: new Date(Date.now() - 120_000),
        ip: null,
        user_agent: null,
      })
      .execute();
    asked.length = 0;
    const cache = createSessionCache();
    cache.listening(true);
    const policy = { idleMinutes: 30, maxHours: 12 };
    const users = await Promise.all(
      Array.from({ length: 10 }, () => resolveSession(db, token, policy, cache)),
    );
    expect(users.map((u) => u?.email)).toEqual(Array(10).fill('volb@example.org'));
    expect(asked).toEqual(['SelectQueryNode', 'UpdateQueryNode']);
  });
});
