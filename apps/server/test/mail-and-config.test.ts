import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiClient, refusalBeforeUpload } from '@vita-docs/core';
import { loadConfig } from '../src/env.js';
import { createClient } from './docs-helpers.js';
import { mailsSent, PIN, register, seedPeople, startApp, type TestApp } from './harness.js';
import { startSmtpCapture } from './smtp.js';

describe('configuration', () => {
  it('stops at start with a message naming each bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(
      /PORT[\s\S]*DATABASE_URL/,
    );
    expect(() => loadConfig({ MAX_UPLOAD_MB: '-1' })).toThrow(/MAX_UPLOAD_MB/);
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.org' })).toThrow(/ADMIN_EMAIL and ADMIN_PIN/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
  });

  it('says what a bad value must be, in words', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow('PORT: Too big: expected number to be <=65535');
    expect(() => loadConfig({ DEV_OUTBOX: 'yes' })).toThrow('DEV_OUTBOX: Invalid option: expected one of');
  });

  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      sessionIdleMinutes: 30,
      sessionMaxHours: 12,
      maxUploadBytes: 25 * 1024 * 1024,
    });
    expect(config.dataDir).toMatch(/\.data$/);
  });
});

describe('mail over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let received: Awaited<ReturnType<typeof startSmtpCapture>>['received'] = [];
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    received = smtp.received;
  });
  afterAll(() => smtp.close());

  it('delivers the sign-in code to a real SMTP server and hides the dev outbox', async () => {
    const app = await startApp({ SMTP_URL: smtp.url });
    try {
      await register(app, 'admin@example.org');
      const a = await app.agent().prime();
      expect((await a.post('/api/auth/login-init', { email: 'admin@example.org', pin: PIN })).body).toEqual({
        ok: true,
        emailSent: true,
      });
      expect(received).toHaveLength(1);
      expect(received[0]!.to).toBe('admin@example.org');
      const code = /code is (\d{6})/.exec(received[0]!.body)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect((await a.post('/api/auth/login-verify', { email: 'admin@example.org', code })).status).toBe(200);
      expect((await a.get('/api/dev/outbox')).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('reports emailSent false when the SMTP server cannot be reached', async () => {
    const app = await startApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      await register(app, 'admin@example.org');
      const a = await app.agent().prime();
      expect((await a.post('/api/auth/login-init', { email: 'admin@example.org', pin: PIN })).body).toEqual({
        ok: true,
        emailSent: false,
      });
    } finally {
      await app.close();
    }
  });
});

describe('what clients learn of the configuration', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  beforeAll(async () => {
    app = await startApp({ MAX_UPLOAD_MB: '3', PUBLIC_URL: 'https://vita.example.edu/' });
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('tells signed-in callers the real upload limit and nothing else, with the refusal the server itself gives', async () => {
    const limit = 3 * 1024 * 1024;
    expect(await people.anonymous.get('/api/config')).toMatchObject({
      status: 401,
      body: { error: 'Please sign in.' },
    });
    expect(await people.pending.get('/api/config')).toMatchObject({ status: 401 });
    const answer = await people.volA.get('/api/config');
    expect(answer).toMatchObject({ status: 200, body: { maxUploadBytes: limit } });
    expect(Object.keys(answer.body)).toEqual(['maxUploadBytes']);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    // The typed client reads the same answer.
    const cookie = [...people.volA.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const api = createApiClient({
      baseUrl: `${app.url}/api`,
      fetch: (url, init = {}) => fetch(url, { ...init, headers: { cookie } }),
    });
    expect(await api.config()).toEqual({ maxUploadBytes: limit });

    // What the queue says before uploading is what the server answers when asked to take the file.
    const clientId = await createClient(people.volA);
    const tooBig = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'Banking Info',
      filename: 'statement.pdf',
      contentType: 'application/pdf',
      size: limit + 1,
    });
    expect(tooBig).toMatchObject({
      status: 413,
      body: { error: 'This file is larger than the 3 MB limit.' },
    });
    expect(refusalBeforeUpload({ size: limit + 1 }, answer.body.maxUploadBytes)).toBe(tooBig.body.error);
    expect(refusalBeforeUpload({ size: limit }, answer.body.maxUploadBytes)).toBeNull();
  });

  it('mails an approved account its sign-in link on the public URL, once', async () => {
    const email = 'approved-by-officer@example.org';
    await register(app, email, 'Olu', 'Okafor');
    const approve = () =>
      people.officer.post(`/api/admin/users/${encodeURIComponent(email)}/approve`, { approved: true });
    const approvals = () => app.outbox().then((mails) => mails.filter((m) => m.to === email));
    expect(await approvals()).toEqual([]);
    expect((await approve()).status).toBe(200);
    await vi.waitFor(async () => expect(await approvals()).toHaveLength(1));
    const [mail] = await approvals();
    expect(mail!.subject).toBe('Your VITA Documents account is approved');
    expect(mail!.text).toContain('Hello Olu,');
    expect(mail!.text.split('\n')).toContain('https://vita.example.edu/login');
    // Approving an approved account again sends nothing more.
    expect((await approve()).status).toBe(200);
    await mailsSent(app, people.officer);
    expect(await approvals()).toHaveLength(1);
  });
});
