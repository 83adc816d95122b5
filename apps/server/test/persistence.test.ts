import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer, loadConfig } from '../src/app.js';
import { Agent, PIN } from './harness.js';

/**
 * A server on its own embedded PostgreSQL (the `npm start` default), started and stopped by hand; its
 * configuration directory (where the storage key is made) is beside the data directory.
 */
async function start(dataDir: string) {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', XDG_CONFIG_HOME: `${dataDir}-config` });
  const server = await buildServer(config);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}` };
}

const code = async (url: string, email: string) => {
  const mails = (await (await fetch(`${url}/api/dev/outbox`)).json()) as Array<{ to: string; text: string }>;
  return /(\d{6})/.exec(mails.filter((m) => m.to === email).at(-1)!.text)![1]!;
};

describe('an embedded installation', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) {
      await fs.rm(d, { recursive: true, force: true });
      await fs.rm(`${d}-config`, { recursive: true, force: true });
    }
  });

  it('keeps accounts, sessions and the signing secret across a restart', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-persist-'));
    dirs.push(dataDir);
    let { server, url } = await start(dataDir);
    const agent = new Agent(url);
    await agent.prime();
    await agent.post('/api/auth/register', {
      firstName: 'Per',
      lastName: 'Sist',
      email: 'p@example.org',
      pin: PIN,
    });
    await agent.post('/api/auth/login-init', { email: 'p@example.org', pin: PIN });
    await agent.post('/api/auth/login-verify', {
      email: 'p@example.org',
      code: await code(url, 'p@example.org'),
    });
    const client = await agent.post('/api/clients/new', {
      firstName: 'K',
      lastName: 'L',
      email: 'k@example.org',
      phone: '555 010 0199',
    });
    expect(client.status).toBe(200);
    await server.close();

    ({ server, url } = await start(dataDir));
    try {
      const again = agent.at(url);
      // Same session cookie, same CSRF token: the secret and the session survived.
      expect((await again.get('/api/me')).body.user.email).toBe('p@example.org');
      expect((await again.get('/api/clients')).body.items).toHaveLength(1);
      expect((await again.post('/api/auth/logout')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('ends a session after its absolute lifetime even when active', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-persist-'));
    dirs.push(dataDir);
    const { server, url } = await start(dataDir);
    try {
      const agent = new Agent(url);
      await agent.prime();
      await agent.post('/api/auth/register', {
        firstName: 'A',
        lastName: 'B',
        email: 'a@example.org',
        pin: PIN,
      });
      await agent.post('/api/auth/login-init', { email: 'a@example.org', pin: PIN });
      await agent.post('/api/auth/login-verify', {
        email: 'a@example.org',
        code: await code(url, 'a@example.org'),
      });
      expect((await agent.get('/api/me')).status).toBe(200);
      await sql`UPDATE sessions SET created_at = now() - interval '12 hours 1 minute', last_seen_at = now()`.execute(
        server.services.db,
      );
      // Twelve hours passing, as far as the database knows; the lookup kept in memory holds the true
      // creation time (nothing changes it), so it is dropped as twelve hours would have dropped it.
      server.services.sessions.clear();
      expect((await agent.get('/api/me')).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
