/**
 * What the server lets out, and to whom: its files on disk (the data directory, the storage key file)
 * only to its own account; the development outbox and an empty install's admin seat only to the server
 * machine; logs and mail without signatures, codes or personal data; answers no cache keeps; cookies a
 * sibling site cannot plant; names without characters that make them show something else, and
 * queries within bounds. docs/security.md lists each control beside its test here: each fails if its
 * control is undone.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, loadConfig } from '../src/app.js';
import { samplePdf } from './storage.js';
import { createClient, upload } from './docs-helpers.js';
import {
  freshDatabase,
  PIN,
  register,
  seedPeople,
  signIn,
  startApp,
  TEST_STORAGE_KEY,
  type TestApp,
} from './harness.js';

/** A GET with a chosen `Host` header (fetch would not send one). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
}

describe('what the server exposes, and to whom', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps the data directory private: new folders 0700, files 0600', async () => {
    const clientId = await createClient(people.volA);
    await upload(people.volA, clientId, 'Banking Info', 'bank.pdf', samplePdf('bank'));
    const open: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (((await fs.stat(full)).mode & 0o077) !== 0) open.push(full);
        if (entry.isDirectory()) await walk(full);
      }
    };
    await walk(path.join(app.config.dataDir, 'files'));
    expect(open).toEqual([]);
  });

  it('refuses to start on a data directory others can read, saying how to fix it', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-open-'));
    await fs.chmod(dataDir, 0o755);
    const database = await freshDatabase();
    try {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', STORAGE_KEY: TEST_STORAGE_KEY });
      await expect(buildServer(config, { database: database.url })).rejects.toThrow(`chmod 700 ${dataDir}`);
    } finally {
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('never serves the dev outbox through a proxy on this machine, whatever header it forwards with', async () => {
    for (const [name, value] of [
      ['x-real-ip', '203.0.113.9'],
      ['forwarded', 'for=203.0.113.9'],
      ['via', '1.1 proxy'],
      ['x-forwarded-host', 'vita.example.org'],
      ['x-forwarded-for', '203.0.113.9'],
    ] as const) {
      const relayed = await app
        .agent()
        .call('GET', '/api/dev/outbox', undefined, { headers: { [name]: value } });
      expect(relayed.status, name).toBe(403);
    }
    expect((await app.agent().get('/api/dev/outbox')).status).toBe(200);
  });

  it('turns the dev outbox off with DEV_OUTBOX=false, and always when SMTP is configured', async () => {
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example.org:587', DEV_OUTBOX: 'true' }).devOutbox).toBe(false);
    const off = await startApp({ DEV_OUTBOX: 'false' });
    try {
      expect((await off.agent().get('/api/dev/outbox')).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('answers the development outbox only to this machine’s own names for itself', async () => {
    const outbox = `${app.url}/api/dev/outbox`;
    const port = new URL(app.url).port;
    expect(await getWithHost(outbox, `attacker.example:${port}`)).toBe(403);
    expect(await getWithHost(outbox, 'attacker.example')).toBe(403);
    expect(await getWithHost(outbox, `localhost:${port}`)).toBe(200);
    expect(await getWithHost(outbox, `127.0.0.1:${port}`)).toBe(200);
  });

  it('gives an empty install’s admin seat only to someone at the server machine', async () => {
    const fresh = await startApp();
    try {
      const body = (email: string) => ({ firstName: 'First', lastName: 'Comer', email, pin: PIN });
      const remote = await (
        await fresh.agent().prime()
      ).post('/api/auth/register', body('stranger@example.org'), {
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(remote.body).toEqual({ ok: true, status: 'pending' });
      const local = await (await fresh.agent().prime()).post('/api/auth/register', body('owner@example.org'));
      expect(local.body).toEqual({ ok: true, status: 'approved' });
    } finally {
      await fresh.close();
    }
  });

  it('logs signed storage URLs without their signature, and mails no code in a subject', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line) };
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-log-'));
    const database = await freshDatabase();
    const server = await buildServer(loadConfig({ DATA_DIR: dataDir, STORAGE_KEY: TEST_STORAGE_KEY }), {
      database: database.url,
      logger: { level: 'info', stream },
    });
    try {
      await server.app.inject({
        method: 'GET',
        url: '/api/storage/get?key=a%2Fb%2F1_c.pdf&expires=9&sig=SECRETSIGNATURE',
      });
      await server.app.inject({
        method: 'POST',
        url: '/api/auth/login-resend',
        payload: { email: 'someone@example.org' },
      });
      expect(lines.join('')).toContain('/api/storage/get?[redacted]');
      expect(lines.join('')).not.toContain('SECRETSIGNATURE');
    } finally {
      await server.close();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
    const mails = await app.outbox();
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) expect(mail.subject).not.toMatch(/\d{6}/);
  });

  it('marks every API answer no-store, and asks for https only when served over https', async () => {
    const me = await app.agent().get('/api/me');
    expect(me.headers.get('cache-control')).toBe('no-store');
    expect(me.headers.get('strict-transport-security')).toBeNull();
    const proxied = await startApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      const secure = await proxied
        .agent()
        .call('GET', '/api/me', undefined, { headers: { 'x-forwarded-proto': 'https' } });
      expect(secure.headers.get('strict-transport-security')).toMatch(/^max-age=\d{8}/);
    } finally {
      await proxied.close();
    }
  });

  it('names its site-wide cookies __Host- when they are Secure, and ignores unprefixed ones then', async () => {
    const secure = await startApp({ COOKIE_SECURE: 'true' });
    try {
      await register(secure, 'host@example.org');
      const agent = await signIn(secure, 'host@example.org');
      expect([...agent.cookies.keys()].filter((name) => name !== 'vita_device').sort()).toEqual([
        '__Host-csrf_token',
        '__Host-vita_pre',
        '__Host-vita_session',
      ]);
      expect((await agent.get('/api/me')).status).toBe(200);
      // The same session under the plain name (as a sibling sub-domain could plant it) is not read.
      const token = agent.cookies.get('__Host-vita_session') ?? '';
      const planted = await fetch(`${secure.url}/api/me`, { headers: { cookie: `vita_session=${token}` } });
      expect(planted.status).toBe(401);
      const real = await fetch(`${secure.url}/api/me`, {
        headers: { cookie: `__Host-vita_session=${token}` },
      });
      expect(real.status).toBe(200);
    } finally {
      await secure.close();
    }
  });

  it('refuses bidirectional controls in names, emails and category notes', async () => {
    const rlo = '\u202e';
    const registered = await (
      await app.agent().prime()
    ).post('/api/auth/register', {
      firstName: `Eve${rlo}`,
      lastName: 'Doe',
      email: 'eve@example.org',
      pin: PIN,
    });
    expect(registered.status).toBe(400);
    const client = await people.volA.post('/api/clients/new', {
      firstName: 'Ann',
      lastName: `Lee\u2066`,
      email: 'ann@example.org',
      phone: '555 010 0100',
    });
    expect(client.body).toEqual({
      error: 'Last name contains characters that are not allowed.',
      code: expect.any(String),
    });
    const email = await people.volA.post('/api/clients/new', {
      firstName: 'Ann',
      lastName: 'Lee',
      email: `ann${rlo}@example.org`,
      phone: '555 010 0100',
    });
    expect(email.status).toBe(400);
    const clientId = await createClient(people.volA);
    const note = await people.volA.post(`/api/clients/${clientId}/docs/types`, {
      template: 'W-2',
      note: `Acme${rlo}fdp.exe`,
    });
    expect(note.body).toEqual({
      error: 'The note contains characters that are not allowed.',
      code: expect.any(String),
    });
  });

  it('bounds the audit query and refuses C1 control characters in names', async () => {
    expect((await people.admin.get('/api/admin/audit?before=2147483648')).status).toBe(400);
    expect((await people.admin.get('/api/admin/audit?before=2147483647')).status).toBe(200);
    expect((await people.admin.get('/api/admin/audit?actor=%00')).status).toBe(400);
    const created = await people.volA.post('/api/clients/new', {
      firstName: 'Ja\u0085ne',
      lastName: 'Doe',
      email: 'c1@example.org',
      phone: '(734) 555-0100',
    });
    expect(created.status).toBe(400);
  });
});

describe('personal data in the log', () => {
  it('names no email while no admin exists, and no file in an error', async () => {
    const lines: string[] = [];
    // Cookies keep their plain names although the request names another host (no https here).
    const app = await startApp({ COOKIE_SECURE: 'false' }, { logLines: lines });
    try {
      // From the server machine but through a name that is not its own: no admin seat, a warning.
      const agent = app.agent();
      await agent.prime();
      const port = new URL(app.url).port;
      const token = agent.cookies.get('csrf_token') ?? '';
      const body = JSON.stringify({
        firstName: 'Remote',
        lastName: 'Person',
        email: 'remote.person@example.org',
        pin: 'correct horse battery',
      });
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          `${app.url}/api/auth/register`,
          {
            method: 'POST',
            headers: {
              host: `vita.example.org:${port}`,
              'content-type': 'application/json',
              'x-csrf-token': token,
              cookie: [...agent.cookies].map(([n, v]) => `${n}=${v}`).join('; '),
            },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject);
        request.end(body);
      });
      expect(status).toBe(200);
      expect(lines.some((line) => line.includes('No admin exists'))).toBe(true);

      const missing = path.join(app.config.dataDir, 'files', 'c_x', 'W-2', '1_Jane Doe W-2.pdf');
      const error = await fs.readFile(missing).catch((err: unknown) => err);
      app.server.app.log.warn({ err: error }, 'bytes left for the sweeper');
      const logged = lines.join('\n');
      expect(logged).toContain('bytes left for the sweeper');
      expect(logged).toContain('ENOENT');
      expect(logged).not.toContain('remote.person');
      expect(logged).not.toContain('Jane Doe');
    } finally {
      await app.close();
    }
  });
});

describe('the storage key file', () => {
  it('is refused when other users can read it, with the chmod to run', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-keyfile-'));
    const file = path.join(dir, 'storage.key');
    await fs.writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o644 });
    await fs.chmod(file, 0o644);
    try {
      await expect(startApp({ STORAGE_KEY: '', STORAGE_KEY_FILE: file })).rejects.toThrow(
        `chmod 600 ${file}`,
      );
      await fs.chmod(file, 0o600);
      const app = await startApp({ STORAGE_KEY: '', STORAGE_KEY_FILE: file });
      await app.close();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
