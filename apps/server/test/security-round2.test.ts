/** Controls from the second security review: each test fails if its control is undone. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, loadConfig } from '../src/app.js';
import { samplePdf } from '../src/storage/testing.js';
import { createClient, upload } from './docs-helpers.js';
import { freshDatabase, PIN, register, seedPeople, signIn, startApp, type TestApp } from './harness.js';

describe('security, round 2', () => {
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
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
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
      const relayed = await app.agent().call('GET', '/api/dev/outbox', undefined, { headers: { [name]: value } });
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

  it('logs signed storage URLs without their signature, and mails no code in a subject', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line) };
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-log-'));
    const database = await freshDatabase();
    const server = await buildServer(loadConfig({ DATA_DIR: dataDir }), { database: database.url, logger: { level: 'info', stream } });
    try {
      await server.app.inject({ method: 'GET', url: '/api/storage/get?key=a%2Fb%2F1_c.pdf&expires=9&sig=SECRETSIGNATURE' });
      await server.app.inject({ method: 'POST', url: '/api/auth/login-resend', payload: { email: 'someone@example.org' } });
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
      const secure = await proxied.agent().call('GET', '/api/me', undefined, { headers: { 'x-forwarded-proto': 'https' } });
      expect(secure.headers.get('strict-transport-security')).toMatch(/^max-age=\d{8}/);
    } finally {
      await proxied.close();
    }
  });

  it('gives an empty install’s admin seat only to someone at the server machine', async () => {
    const fresh = await startApp();
    try {
      const body = (email: string) => ({ firstName: 'First', lastName: 'Comer', email, pin: PIN });
      const remote = await (await fresh.agent().prime()).post('/api/auth/register', body('stranger@example.org'), {
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(remote.body).toEqual({ ok: true, status: 'pending' });
      const local = await (await fresh.agent().prime()).post('/api/auth/register', body('owner@example.org'));
      expect(local.body).toEqual({ ok: true, status: 'approved' });
    } finally {
      await fresh.close();
    }
  });

  it('refuses bidirectional controls in names, emails and category notes', async () => {
    const rlo = '\u202e';
    const registered = await (await app.agent().prime()).post('/api/auth/register', {
      firstName: `Eve${rlo}`,
      lastName: 'Doe',
      email: 'eve@example.org',
      pin: PIN,
    });
    expect(registered.status).toBe(400);
    const client = await people.volA.post('/api/clients/new', { firstName: 'Ann', lastName: `Lee\u2066`, email: 'ann@example.org', phone: '555 010 0100' });
    expect(client.body).toEqual({ error: 'Last name contains characters that are not allowed.' });
    const email = await people.volA.post('/api/clients/new', { firstName: 'Ann', lastName: 'Lee', email: `ann${rlo}@example.org`, phone: '555 010 0100' });
    expect(email.status).toBe(400);
    const clientId = await createClient(people.volA);
    const note = await people.volA.post(`/api/clients/${clientId}/docs/types`, { template: 'W-2', note: `Acme${rlo}fdp.exe` });
    expect(note.body).toEqual({ error: 'The note contains characters that are not allowed.' });
  });

  it('lets the owner sign in on their own device after a stranger spent the account’s PIN attempts', async () => {
    await register(app, 'owner2@example.org');
    await people.admin.post('/api/admin/users/owner2%40example.org/approve', { approved: true });
    const device = await signIn(app, 'owner2@example.org');
    await device.post('/api/auth/logout');
    const attacker = await app.agent().prime();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      statuses.push((await attacker.post('/api/auth/login-init', { email: 'owner2@example.org', pin: `guess ${i} wrong` })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    // A new browser is still held back; the one the owner signed in on before is not.
    expect((await (await app.agent().prime()).post('/api/auth/login-init', { email: 'owner2@example.org', pin: PIN })).status).toBe(429);
    expect((await device.post('/api/auth/login-init', { email: 'owner2@example.org', pin: PIN })).status).toBe(200);
  });

  it('lets only the browser that asked for a code try it, so a stranger cannot burn it', async () => {
    const victim = await app.agent().prime();
    const since = (await app.outbox()).length;
    expect((await victim.post('/api/auth/login-init', { email: 'vola@example.org', pin: PIN })).status).toBe(200);
    const code = await app.latestCode('vola@example.org', since);
    const stranger = await app.agent().prime();
    for (let i = 0; i < 6; i += 1) {
      const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
      await stranger.post('/api/auth/login-verify', { email: 'vola@example.org', code: wrong });
    }
    expect((await stranger.post('/api/auth/login-verify', { email: 'vola@example.org', code })).status).toBe(400);
    expect((await victim.post('/api/auth/login-verify', { email: 'vola@example.org', code })).status).toBe(200);
  });

  it('refuses a common PIN at registration', async () => {
    const res = await (await app.agent().prime()).post('/api/auth/register', { firstName: 'Pat', lastName: 'Lee', email: 'pat@example.org', pin: 'Password123' });
    expect(res).toMatchObject({ status: 400, body: { error: 'Choose a less common PIN.' } });
  });
});
