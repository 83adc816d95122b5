// The season close (docs/behaviour.md#season-close): counts first, the exact phrase, then every
// document of every client deleted and every non-admin account suspended — old sessions too — with
// audit entries; approval reactivates; a close interrupted halfway is finished by the next start.
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf } from './storage.js';
import { createClient, upload } from './docs-helpers.js';
import { PIN, restartApp, seedPeople, signIn, startApp, type TestApp } from './harness.js';

const YEAR = new Date().getUTCFullYear();
const PHRASE = `CLOSE SEASON ${YEAR}`;

describe('season close', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  let clientA = '';
  let clientB = '';

  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
    clientA = await createClient(people.volA, 'season-a@example.org');
    clientB = await createClient(people.volB, 'season-b@example.org');
    await upload(people.volA, clientA, 'Banking Info', 'a1.pdf', samplePdf('a1'));
    await upload(people.volA, clientA, '13614-C', 'a2.pdf', samplePdf('a2'));
    await upload(people.volB, clientB, 'Banking Info', 'b1.pdf', samplePdf('b1'));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('says what it will do, and needs the exact phrase', async () => {
    expect((await people.admin.get('/api/admin/season')).body).toEqual({
      year: YEAR,
      users: 4,
      clients: 2,
      documents: 3,
      closedAt: null,
    });
    expect((await people.officer.get('/api/admin/season')).status).toBe(403);
    for (const confirm of ['close season', `${PHRASE} `, `CLOSE SEASON ${YEAR - 1}`]) {
      expect((await people.admin.post('/api/admin/season/close', { confirm })).body).toEqual({
        error: `Type ${PHRASE} to confirm.`,
        code: expect.any(String),
      });
    }
    expect((await people.officer.post('/api/admin/season/close', { confirm: PHRASE })).status).toBe(403);
    expect(
      (await people.volA.get(`/api/docs/list/${clientA}?docType=Banking%20Info`)).body.items,
    ).toHaveLength(1);
  });

  it('downloads every client’s documents first as one ZIP, a folder per client (admins only)', async () => {
    const res = await fetch(`${app.url}/api/admin/season/download`, {
      headers: { cookie: [...people.admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="season-${YEAR}-all-documents.zip"`,
    );
    const zip = await JSZip.loadAsync(await res.arrayBuffer());
    const files = Object.values(zip.files).filter((f) => !f.dir);
    expect(files.map((f) => f.name).sort()).toEqual(
      [
        `Ent, Cli (${clientA})/13614-C/a2.pdf`,
        `Ent, Cli (${clientA})/Banking Info/a1.pdf`,
        `Ent, Cli (${clientB})/Banking Info/b1.pdf`,
      ].sort(),
    );
    expect(
      Buffer.from(await zip.file(`Ent, Cli (${clientB})/Banking Info/b1.pdf`)!.async('uint8array')),
    ).toEqual(samplePdf('b1'));
    expect((await people.officer.get('/api/admin/season/download')).status).toBe(403);
    const trail = (await people.admin.get('/api/admin/audit?action=season.download')).body;
    expect(trail.items).toHaveLength(1);
  });

  it('deletes every document, suspends every non-admin account and their sessions, and records it', async () => {
    const closed = await people.admin.post('/api/admin/season/close', { confirm: PHRASE });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ year: YEAR, users: 4, clients: 2, documents: 3 });
    expect(Date.parse(closed.body.closedAt)).toBeGreaterThan(0);

    expect((await people.volA.get('/api/me')).status).toBe(401);
    expect((await people.officer.get('/api/me')).status).toBe(401);
    const again = await app.agent().prime();
    expect((await again.post('/api/auth/login-init', { email: 'vola@example.org', pin: PIN })).body).toEqual({
      error: 'Your account is suspended for the off-season. Ask an officer or admin to reactivate it.',
      code: expect.any(String),
    });
    for (const clientId of [clientA, clientB]) {
      const status = (await people.admin.get(`/api/clients/${clientId}/docs/status`)).body as Record<
        string,
        boolean
      >;
      expect(Object.values(status).some(Boolean)).toBe(false);
    }
    const actions = (
      (await people.admin.get('/api/admin/audit?limit=20')).body as { items: { action: string }[] }
    ).items.map((e) => e.action);
    expect(actions.filter((a) => a === 'client.season-close')).toHaveLength(2);
    expect(actions).toContain('season.close');
    // Closed is closed: the summary stays what was done, and a second close changes nothing.
    expect((await people.admin.post('/api/admin/season/close', { confirm: PHRASE })).body).toEqual(
      closed.body,
    );
  });

  it('approval reactivates a suspended account', async () => {
    // Listed under Pending Approvals as a returning volunteer, not as a stranger.
    const pending = (await people.admin.get('/api/admin/users?status=pending')).body as {
      items: { email: string; suspended?: boolean }[];
    };
    expect(pending.items.find((u) => u.email === 'vola@example.org')?.suspended).toBe(true);
    expect(
      (await people.admin.post('/api/admin/users/vola%40example.org/approve', { approved: true })).status,
    ).toBe(200);
    const vol = await signIn(app, 'vola@example.org');
    expect((await vol.get('/api/me')).status).toBe(200);
  });
});

describe('season close interrupted by a crash', () => {
  let app: TestApp;
  afterAll(async () => {
    await app?.close();
  });

  it('is finished by the next start: no half-closed season', async () => {
    app = await startApp();
    const people = await seedPeople(app);
    const clientId = await createClient(people.volA, 'crash@example.org');
    for (let i = 0; i < 3; i++)
      await upload(people.volA, clientId, 'Banking Info', `c${i}.pdf`, samplePdf(`c${i}`));
    // What a crash right after the start was recorded leaves: the row, nothing else done yet.
    const { Client } = (await import('pg')).default;
    const db = new Client({ connectionString: app.databaseUrl });
    await db.connect();
    await db.query('INSERT INTO season_close (year, started_by) VALUES ($1, $2)', [
      YEAR,
      'admin@example.org',
    ]);
    await db.end();
    expect((await people.volA.get('/api/me')).status).toBe(200);

    app = await restartApp(app);
    const admin = await signIn(app, 'admin@example.org');
    let summary: { closedAt: string | null } = { closedAt: null };
    for (let i = 0; i < 100 && !summary.closedAt; i++) {
      summary = (await admin.get('/api/admin/season')).body;
      if (!summary.closedAt) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(summary.closedAt).not.toBeNull();
    expect((await admin.get(`/api/docs/list/${clientId}?docType=Banking%20Info`)).body.items).toEqual([]);
    const again = await app.agent().prime();
    expect((await again.post('/api/auth/login-init', { email: 'vola@example.org', pin: PIN })).status).toBe(
      403,
    );
  });
});
