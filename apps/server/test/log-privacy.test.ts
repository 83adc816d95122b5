// No personal data in the server log at `info` (docs/security.md): a whole journey — accounts, sign-in
// with codes, a client with name, email and phone, uploads with telling file names, view, rename,
// ZIP, delete — leaves none of those strings in the log, which names requests by ids only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf } from './storage.js';
import { upload } from './docs-helpers.js';
import { PIN, register, startApp, type Agent, type TestApp } from './harness.js';
import { startSmtpCapture } from './smtp.js';

describe('server log privacy', () => {
  let app: TestApp;
  const lines: string[] = [];
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let mails: Awaited<ReturnType<typeof startSmtpCapture>>['received'] = [];

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    mails = smtp.received;
    app = await startApp({ SMTP_URL: smtp.url }, { logLines: lines });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  /** Signs in through PIN and the code the SMTP server received. */
  const signIn = async (email: string): Promise<Agent> => {
    const agent = await app.agent().prime();
    const before = mails.length;
    expect((await agent.post('/api/auth/login-init', { email, pin: PIN })).status).toBe(200);
    let code: string | undefined;
    for (let i = 0; i < 200 && !code; i++) {
      code = mails
        .slice(before)
        .flatMap((m) => (m.to === email ? (/code is (\d{6})/.exec(m.body)?.[1] ?? []) : []))[0];
      if (!code) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect((await agent.post('/api/auth/login-verify', { email, code })).status).toBe(200);
    return agent;
  };

  it('logs a whole journey without names, emails, phone numbers, file names or codes', async () => {
    await register(app, 'amelia.admin@example.org', 'Amelia', 'Adminsdottir');
    const admin = await signIn('amelia.admin@example.org');
    await register(app, 'victor.volunteer@example.org', 'Victor', 'Volunteerson');
    await admin.post(`/api/admin/users/${encodeURIComponent('victor.volunteer@example.org')}/approve`, {
      approved: true,
    });
    const vol = await signIn('victor.volunteer@example.org');
    const created = await vol.post('/api/clients/new', {
      firstName: 'Dorothea',
      lastName: 'Taxpayerly',
      email: 'dorothea.taxpayerly@client.example.org',
      phone: '555-867-5309',
    });
    expect(created.status).toBe(200);
    const clientId = (created.body as { client: { clientId: string } }).client.clientId;
    const key = await upload(vol, clientId, 'Banking Info', 'Dorothea SSN card.pdf', samplePdf('ssn'));
    await vol.post('/api/docs/presign-view', { key });
    const renamed = await vol.post('/api/docs/rename', { key, filename: 'Dorothea bank statement.pdf' });
    expect(renamed.status).toBe(200);
    await vol.get(`/api/clients/${clientId}/docs/download-all`);
    await vol.post('/api/docs/delete', { keys: [(renamed.body as { newKey: string }).newKey] });
    await vol.get('/api/clients/not-a-client/docs/status'); // a refused request is logged too
    const codes = mails.flatMap((m) => /code is (\d{6})/.exec(m.body)?.[1] ?? []);
    expect(codes).toHaveLength(2);

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(20);
    const secrets = [
      'Amelia',
      'Adminsdottir',
      'amelia.admin',
      'Victor',
      'Volunteerson',
      'victor.volunteer',
      'Dorothea',
      'Taxpayerly',
      'dorothea.taxpayerly',
      '867-5309',
      '8675309',
      'SSN card',
      'bank statement',
      ...codes,
    ];
    const found = secrets.filter((secret) => log.includes(secret));
    expect(found, found.map((s) => lines.find((l) => l.includes(s))).join('\n')).toEqual([]);
  });

  it('logs no query string: an email in an audit filter, a client’s name in a category note', async () => {
    await register(app, 'quentin.query@example.org', 'Quentin', 'Querysmith');
    const admin = await signIn('amelia.admin@example.org');
    const clientId = (
      (
        await admin.post('/api/clients/new', {
          firstName: 'Philippa',
          lastName: 'Paramsworth',
          email: 'philippa@client.example.org',
          phone: '555-010-2030',
        })
      ).body as { client: { clientId: string } }
    ).client.clientId;
    await admin.post(`/api/clients/${clientId}/docs/types`, { template: 'Other', note: 'Philippa rental' });
    const from = lines.length;
    expect((await admin.get('/api/admin/audit?actor=someone%40example.org')).status).toBe(200);
    expect(
      (await admin.get(`/api/admin/audit?actor=${encodeURIComponent('quentin.query@example.org')}`)).status,
    ).toBe(200);
    const note = encodeURIComponent('Other (Philippa rental)');
    expect((await admin.get(`/api/docs/list/${clientId}?docType=${note}`)).status).toBe(200);
    expect((await admin.get(`/api/clients/${clientId}/docs/download-all?include=${note}`)).status).toBe(200);
    // Refused and unknown requests are logged too.
    await admin.get(
      `/api/clients/${clientId}/docs/download-all?include=${encodeURIComponent('Philippa unknown')}`,
    );
    await admin.get('/api/no-such-route?actor=someone%40example.org');

    const logged = lines.slice(from).join('');
    expect(logged).toContain('/api/admin/audit');
    for (const secret of ['someone', 'quentin', 'Philippa', 'actor=', 'docType=', 'include='])
      expect(
        logged,
        lines.slice(from).find((l) => l.includes(secret)),
      ).not.toContain(secret);
  });
});
