/**
 * Requesting documents from a client through a link (docs/behaviour.md#requesting-documents-from-a-client),
 * against the real server: each security rule of docs/security.md#client-links has a test here.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { CLIENT_LINK_TEXTS } from '@vita-docs/core';
import { LINK_IP_LIMITS, remindAndExpire } from '../src/client-links/links.js';
import { createClient, pdfBytes, requestLink, sha256 } from './docs-helpers.js';
import { mailsSent, seedPeople, startApp, type Agent, type TestApp } from './harness.js';

const EN = CLIENT_LINK_TEXTS.en;

describe('client document requests', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;

  beforeAll(async () => {
    app = await startApp({ MAX_UPLOAD_MB: '1' });
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const db = () => app.server.services.db;

  /** A new client of volA with a request for `categories`; returns its id, email and the link's token. */
  const requested = (categories = ['13614-C', 'Banking Info'], extra: Record<string, unknown> = {}) =>
    requestLink(people.volA, categories, extra);

  /** A phone that opened the link and entered the mailed code: a link session. */
  async function linkSessionFor(token: string, email: string, pin?: string): Promise<Agent> {
    const phone = await app.agent().prime();
    const since = (await app.outbox()).length;
    const open = await phone.post('/api/link/open', { token });
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    const code = await app.latestCode(email, since);
    const verify = await phone.post('/api/link/verify', { token, code, ...(pin && { pin }) });
    expect(verify.status, JSON.stringify(verify.body)).toBe(200);
    return phone;
  }

  async function linkUpload(phone: Agent, docType: string, filename = 'w2.pdf', bytes = pdfBytes()) {
    const presign = await phone.post('/api/link/session/presign', {
      docType,
      filename,
      contentType: 'application/pdf',
      size: bytes.length,
      sha256: sha256(bytes),
    });
    if (presign.status !== 200) return presign;
    const put = await fetch(presign.body.url as string, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', ...(presign.body.headers ?? {}) },
      body: bytes,
    });
    expect(put.ok).toBe(true);
    return phone.post('/api/link/session/complete', { key: presign.body.key });
  }

  it('mails the client a link whose token is kept only as a hash, and says for how long it works', async () => {
    const { clientId, email, token, res } = await requested(['13614-C'], {
      message: 'The W-2 please',
      days: 7,
    });
    expect(res.body).toMatchObject({ emailedTo: email, emailSent: true, days: 7 });
    expect(res.body.url).toBe(`${app.url}/u#${token}`);
    // ≥ 128 bits: 32 random bytes in base64url.
    expect(token.length).toBeGreaterThanOrEqual(43);
    const mail = (await app.outbox()).filter((m) => m.to === email).at(-1);
    expect(mail?.text).toContain(res.body.url);
    expect(mail?.text).toContain('The W-2 please');
    const rows = await db()
      .selectFrom('client_links')
      .selectAll()
      .where('client_id', '=', clientId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(createHash('sha256').update(token).digest('base64url'));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('checks the request: categories of the client, message ≤ 500, days ≤ 14, en/es', async () => {
    const clientId = await createClient(people.volA);
    const post = (body: unknown) => people.volA.post(`/api/clients/${clientId}/link`, body);
    expect((await post({ categories: ['W-2 (nope)'] })).status).toBe(400);
    expect((await post({ categories: ['13614-C'], message: 'x'.repeat(501) })).status).toBe(400);
    expect((await post({ categories: ['13614-C'], days: 15 })).status).toBe(400);
    expect((await post({ categories: ['13614-C'], language: 'fr' })).status).toBe(400);
    expect((await post({ categories: [] })).status).toBe(400);
    const ok = await post({ categories: ['13614-C'], language: 'es' });
    expect(ok.body.days).toBe(7);
    const mail = (await app.outbox()).at(-1);
    // Signed with the programme and the volunteer who asked.
    expect(mail?.subject).toBe('VITA Documents: Por favor agregue sus documentos de impuestos');
    expect(mail?.text).toContain('Test, de VITA Documents, le pide que agregue algunos documentos');
  });

  it('lets another volunteer neither request nor see (403), and a missing client is 404', async () => {
    const clientId = await createClient(people.volA);
    expect(
      (await people.volB.post(`/api/clients/${clientId}/link`, { categories: ['13614-C'] })).status,
    ).toBe(403);
    expect((await people.volB.get(`/api/clients/${clientId}/link`)).status).toBe(403);
    expect(
      (await people.volA.post(`/api/clients/NoSuchClient1234/link`, { categories: ['13614-C'] })).status,
    ).toBe(404);
  });

  it("keeps a volunteer's client links from officers, as its documents are; admins may", async () => {
    const { clientId, token } = await requested(['13614-C']);
    const documents = await people.officer.get(`/api/docs/list/${clientId}?docType=13614-C`);
    expect(documents.status).toBe(403);
    // Each link route refuses the officer as the document list does: no status (the client's email,
    // uploads and notes), no new link mailed to the client, no revoke of the owner's live link.
    const asOfficer = [
      await people.officer.get(`/api/clients/${clientId}/link`),
      await people.officer.post(`/api/clients/${clientId}/link`, { categories: ['13614-C'], message: 'hi' }),
      await people.officer.del(`/api/clients/${clientId}/link`),
    ];
    expect(asOfficer.map((r) => [r.status, r.body.error])).toEqual(
      asOfficer.map(() => [documents.status, documents.body.error]),
    );
    // The owner's link still works.
    expect((await (await app.agent().prime()).post('/api/link/open', { token })).status).toBe(200);
    const byAdmin = await people.admin.get(`/api/clients/${clientId}/link`);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.request).toMatchObject({ state: 'open' });
    expect(
      (await people.admin.post(`/api/clients/${clientId}/link`, { categories: ['13614-C'] })).status,
    ).toBe(200);
    expect((await people.admin.del(`/api/clients/${clientId}/link`)).status).toBe(200);
  });

  it('opens a link session only with the mailed code: HttpOnly, SameSite=Strict, path-scoped cookie', async () => {
    const { token, email } = await requested();
    const phone = await app.agent().prime();
    const since = (await app.outbox()).length;
    const open = await phone.post('/api/link/open', { token });
    expect(open.body).toEqual({
      state: 'open',
      language: 'en',
      programme: 'VITA Documents',
      volunteer: 'Test',
      codeSentTo: `${email.slice(0, 1)}•••@example.org`,
      needsPin: false,
    });
    const code = await app.latestCode(email, since);
    const codeMail = (await app.outbox()).filter((m) => m.to === email).at(-1);
    expect(codeMail?.subject).toBe('VITA Documents: Your code for your tax documents');
    expect(codeMail?.text).toContain('Test from VITA Documents asked for your tax documents.');
    // Without the code the token alone opens nothing.
    expect((await phone.post('/api/link/verify', { token })).status).toBe(400);
    const verify = await phone.post('/api/link/verify', { token, code });
    expect(verify.status).toBe(200);
    const cookie = verify.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/vita_link=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/link\/session/);
    // The code works once.
    expect((await (await app.agent().prime()).post('/api/link/verify', { token, code })).status).toBe(400);
  });

  it('needs the client PIN as well when the client has one', async () => {
    const email = `pin-${Math.random().toString(36).slice(2)}@example.org`;
    const made = await people.volA.post('/api/clients/new', {
      firstName: 'Pat',
      lastName: 'Pin',
      email,
      phone: '555 010 0100',
      pin: '4321',
    });
    const clientId = made.body.client.clientId as string;
    const res = await people.volA.post(`/api/clients/${clientId}/link`, { categories: ['13614-C'] });
    const token = (res.body.url as string).split('#')[1] ?? '';
    const phone = await app.agent().prime();
    const since = (await app.outbox()).length;
    expect((await phone.post('/api/link/open', { token })).body.needsPin).toBe(true);
    const code = await app.latestCode(email, since);
    const wrongPin = await phone.post('/api/link/verify', { token, code, pin: '0000' });
    expect(wrongPin.status).toBe(400);
    expect(wrongPin.body.error).toBe(EN.wrongAnswer);
    expect((await phone.post('/api/link/verify', { token, code, pin: '4321' })).status).toBe(200);
  });

  it('locks the link for 30 minutes after 5 wrong answers, each wrong answer saying the same', async () => {
    const { token, email } = await requested();
    const phone = await app.agent().prime();
    const since = (await app.outbox()).length;
    await phone.post('/api/link/open', { token });
    const code = await app.latestCode(email, since);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i += 1) {
      const r = await phone.post('/api/link/verify', { token, code: wrong });
      expect(r.body).toEqual({ error: EN.wrongAnswer, code: 'invalid_request' });
    }
    const fifth = await phone.post('/api/link/verify', { token, code: wrong });
    expect(fifth.status).toBe(429);
    expect(fifth.body.error).toBe('Too many wrong tries. Try again in 30 minutes.');
    // Locked: even the right code is refused, from any browser.
    const right = await (await app.agent().prime()).post('/api/link/verify', { token, code });
    expect(right.status).toBe(429);
    expect(right.body.error).toBe(EN.locked);
    // 30 minutes later (the clock moved) it opens again.
    await sql`UPDATE client_links SET locked_until = now() - interval '1 second' WHERE token_hash IS NOT NULL AND locked_until IS NOT NULL`.execute(
      db(),
    );
    expect((await (await app.agent().prime()).post('/api/link/verify', { token, code })).status).toBe(200);
  });

  it('lets a link session upload only into its requested categories of its own client', async () => {
    const { token, email, clientId } = await requested(['13614-C']);
    const other = await requested(['13614-C']);
    const phone = await linkSessionFor(token, email);
    // Before consent nothing is uploaded.
    expect((await linkUpload(phone, '13614-C')).status).toBe(403);
    // Consent to a text the server does not serve (an old page, or made up) is not recorded.
    expect(
      (await phone.post('/api/link/session/consent', { version: '1999-1', name: 'Cli Ent' })).status,
    ).toBe(400);
    expect((await linkUpload(phone, '13614-C')).status).toBe(403);
    expect((await phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' })).status).toBe(
      200,
    );
    const ok = await linkUpload(phone, '13614-C');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.file.key).toMatch(new RegExp(`^${clientId}/`));
    // Another category of the same client: 403.
    expect((await linkUpload(phone, 'Banking Info')).status).toBe(403);
    // Another client's file, and a file of its own client stored before: 404 to complete or remove.
    const before = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: '13614-C',
      filename: 'before.pdf',
      contentType: 'application/pdf',
    });
    for (const key of [before.body.key as string, `${other.clientId}/13614-C/1_x.pdf`]) {
      expect((await phone.post('/api/link/session/complete', { key })).status).toBe(404);
      expect((await phone.post('/api/link/session/remove', { key })).status).toBe(404);
    }
    // The checklist lists only what came through this link.
    const list = await phone.get('/api/link/session/checklist');
    expect(list.body.rows).toEqual([
      { docType: '13614-C', files: [expect.objectContaining({ key: ok.body.file.key })], missing: null },
      // `Something else`: anything else the client adds goes to Other.
      { docType: 'Other', files: [], missing: null, extra: true },
    ]);
    // The staff API is not reachable with a link session.
    expect((await phone.get(`/api/docs/list/${clientId}?docType=13614-C`)).status).toBe(401);
    expect(
      (
        await phone.post(`/api/docs/presign/${clientId}`, {
          docType: '13614-C',
          filename: 'a.pdf',
          contentType: 'application/pdf',
        })
      ).status,
    ).toBe(401);
    // The client removes its own file.
    expect((await phone.post('/api/link/session/remove', { key: ok.body.file.key })).status).toBe(200);
    expect((await phone.get('/api/link/session/checklist')).body.rows[0].files).toEqual([]);
  });

  it('refuses files above the size limit and more than 100 files per request', async () => {
    const { token, email } = await requested(['13614-C']);
    const phone = await linkSessionFor(token, email);
    await phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' });
    const big = await phone.post('/api/link/session/presign', {
      docType: '13614-C',
      filename: 'big.pdf',
      contentType: 'application/pdf',
      size: 2 * 1024 * 1024,
      sha256: 'a'.repeat(64),
    });
    expect(big.status).toBe(413);
    // Without its length and bytes declared, no upload URL: it could send more than it says, or overwrite.
    const loose = await phone.post('/api/link/session/presign', {
      docType: '13614-C',
      filename: 'loose.pdf',
      contentType: 'application/pdf',
    });
    expect(loose.status).toBe(400);
    const link = await db()
      .selectFrom('client_links')
      .select('id')
      .where('token_hash', '=', createHash('sha256').update(token).digest('base64url'))
      .executeTakeFirstOrThrow();
    const clientId = (
      await db()
        .selectFrom('client_links')
        .select('client_id')
        .where('id', '=', link.id)
        .executeTakeFirstOrThrow()
    ).client_id;
    await db()
      .insertInto('documents')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          key: `${clientId}/13614-C/${i + 1}_f${i}.pdf`,
          client_id: clientId,
          doc_type: '13614-C',
          ord: i + 1,
          filename: `f${i}.pdf`,
          state: 'pending' as const,
          content_type: 'application/pdf',
          max_bytes: 1000,
          uploaded_by: `link:${link.id}`,
          expires_at: new Date(Date.now() + 60_000),
        })),
      )
      .execute();
    const more = await linkUpload(phone, '13614-C');
    expect(more.status).toBe(409);
  });

  it('records "I don\'t have this", and Done mails the volunteer and shows New from clients', async () => {
    const { token, email, clientId } = await requested(['13614-C', 'Banking Info']);
    const phone = await linkSessionFor(token, email);
    await phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' });
    expect((await linkUpload(phone, '13614-C')).status).toBe(200);
    expect(
      (
        await phone.post('/api/link/session/answer', {
          docType: 'Banking Info',
          missing: true,
          note: 'No bank account',
        })
      ).status,
    ).toBe(200);
    expect((await phone.post('/api/link/session/answer', { docType: 'W-2', missing: true })).status).toBe(
      403,
    );
    expect((await phone.post('/api/link/session/done')).status).toBe(200);
    const mail = (await app.outbox()).filter((m) => m.to === 'vola@example.org').at(-1);
    expect(mail?.subject).toBe('VITA Documents: Cli E. sent documents');
    expect(mail?.text).not.toContain(email);
    expect((await people.volA.get('/api/client-links/new')).body.items).toContainEqual(
      expect.objectContaining({ clientId, firstName: 'Cli' }),
    );
    const status = (await people.volA.get(`/api/clients/${clientId}/link`)).body;
    expect(status.request).toMatchObject({ state: 'done', filesIn: 1 });
    // The upload and the signed consent record, both marked From client.
    expect(status.fromClient).toHaveLength(2);
    expect(status.answers).toEqual([
      expect.objectContaining({ docType: 'Banking Info', note: 'No bank account' }),
    ]);
    // Seen by the owner: it leaves the dashboard.
    expect(
      (await people.volA.get('/api/client-links/new')).body.items.map(
        (i: { clientId: string }) => i.clientId,
      ),
    ).not.toContain(clientId);
    // After Done the link session and the link are closed.
    expect((await phone.get('/api/link/session/checklist')).status).toBe(401);
    // Opened again, the link says the documents were sent (and mails no code).
    const mailsBefore = (await app.outbox()).length;
    expect((await (await app.agent().prime()).post('/api/link/open', { token })).body).toEqual({
      state: 'done',
      language: 'en',
      programme: 'VITA Documents',
      volunteer: 'Test',
      codeSentTo: null,
      needsPin: false,
    });
    expect(await app.outbox()).toHaveLength(mailsBefore);
    const actions = (
      await db().selectFrom('audit_log').select('action').where('client_id', '=', clientId).execute()
    ).map((r) => r.action);
    for (const a of [
      'link.create',
      'link.send',
      'link.open',
      'link.verify',
      'link.consent',
      'link.upload',
      'link.missing',
      'link.done',
    ])
      expect(actions).toContain(a);
  });

  it('closes a link at revoke, a new request, client deletion and expiry, and its session with it', async () => {
    const revoked = await requested(['13614-C']);
    const phone = await linkSessionFor(revoked.token, revoked.email);
    expect((await people.volA.del(`/api/clients/${revoked.clientId}/link`)).status).toBe(200);
    const after = await phone.get('/api/link/session/checklist');
    expect(after.status).toBe(401);
    // Opened again, a revoked link says it expired, naming who asked and nothing about the client.
    const reopen = await (await app.agent().prime()).post('/api/link/open', { token: revoked.token });
    expect(reopen.status).toBe(200);
    expect(reopen.body).toEqual({
      state: 'expired',
      language: 'en',
      programme: 'VITA Documents',
      volunteer: 'Test',
      codeSentTo: null,
      needsPin: false,
    });
    // A token nobody issued: the expired text, nothing more.
    const unknown = await (await app.agent().prime()).post('/api/link/open', { token: 'C'.repeat(43) });
    expect(unknown.status).toBe(410);
    expect(unknown.body).toEqual({ error: EN.expired, code: 'link_expired' });

    const replaced = await requested(['13614-C']);
    await people.volA.post(`/api/clients/${replaced.clientId}/link`, { categories: ['13614-C'] });
    expect(
      (await (await app.agent().prime()).post('/api/link/open', { token: replaced.token })).body.state,
    ).toBe('expired');

    const expired = await requested(['13614-C']);
    const expiredPhone = await linkSessionFor(expired.token, expired.email);
    await sql`UPDATE client_links SET expires_at = now() - interval '1 second' WHERE client_id = ${expired.clientId}`.execute(
      db(),
    );
    expect((await expiredPhone.get('/api/link/session/checklist')).status).toBe(410);
    expect(
      (await (await app.agent().prime()).post('/api/link/open', { token: expired.token })).body.state,
    ).toBe('expired');

    const deleted = await requested(['13614-C']);
    const deletedPhone = await linkSessionFor(deleted.token, deleted.email);
    await people.admin.post('/api/admin/clients/delete', {
      createdBy: 'vola@example.org',
      clientEmail: deleted.email,
    });
    expect((await deletedPhone.get('/api/link/session/checklist')).status).toBe(401);
    expect((await (await app.agent().prime()).post('/api/link/open', { token: deleted.token })).status).toBe(
      410,
    );
  });

  it('closes every link and link session at a season close', async () => {
    const seasonal = await startApp();
    try {
      const staff = await seedPeople(seasonal);
      const clientId = await createClient(staff.volA, 'season-client@example.org');
      const res = await staff.volA.post(`/api/clients/${clientId}/link`, { categories: ['13614-C'] });
      const token = (res.body.url as string).split('#')[1] ?? '';
      const phone = await seasonal.agent().prime();
      const since = (await seasonal.outbox()).length;
      await phone.post('/api/link/open', { token });
      const code = await seasonal.latestCode('season-client@example.org', since);
      expect((await phone.post('/api/link/verify', { token, code })).status).toBe(200);
      const year = new Date().getUTCFullYear();
      const closed = await staff.admin.post('/api/admin/season/close', { confirm: `CLOSE SEASON ${year}` });
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      expect((await phone.get('/api/link/session/checklist')).status).toBe(401);
      expect((await (await seasonal.agent().prime()).post('/api/link/open', { token })).body.state).toBe(
        'expired',
      );
    } finally {
      await seasonal.close();
    }
  });

  it('ends a link session after 60 idle minutes', async () => {
    const { token, email } = await requested(['13614-C']);
    const phone = await linkSessionFor(token, email);
    expect((await phone.get('/api/link/session/checklist')).status).toBe(200);
    await sql`UPDATE client_link_sessions SET last_seen_at = now() - interval '61 minutes'`.execute(db());
    expect((await phone.get('/api/link/session/checklist')).status).toBe(401);
  });

  it('refuses a link session request without the CSRF header', async () => {
    const { token, email } = await requested(['13614-C']);
    const phone = await linkSessionFor(token, email);
    const r = await phone.post('/api/link/session/done', {}, { csrf: false });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('bad_token');
  });

  it('limits link openings per network address', async () => {
    const limited = await startApp({ TRUST_PROXY: '1' });
    try {
      const agent = limited.agent('203.0.113.9');
      await agent.prime();
      let last = 0;
      for (let i = 0; i <= LINK_IP_LIMITS.open.max; i += 1)
        last = (await agent.post('/api/link/open', { token: 'B'.repeat(43) })).status;
      expect(last).toBe(429);
      // Another address is not held back by it.
      expect(
        (
          await (
            await limited.agent('203.0.113.10').prime()
          ).post('/api/link/open', { token: 'B'.repeat(43) })
        ).status,
      ).toBe(410);
    } finally {
      await limited.close();
    }
  });

  it('reminds on day 3 and day 6 once, across processes, and never after Done, revoke or expiry', async () => {
    const open = await requested(['13614-C']);
    const done = await requested(['13614-C']);
    const donePhone = await linkSessionFor(done.token, done.email);
    await donePhone.post('/api/link/session/done');
    const revoked = await requested(['13614-C']);
    await people.volA.del(`/api/clients/${revoked.clientId}/link`);
    const ids = [open.clientId, done.clientId, revoked.clientId];
    const age = async (days: number) =>
      sql`UPDATE client_links SET created_at = now() - make_interval(days => ${days}) WHERE client_id IN (${sql.join(ids)})`.execute(
        db(),
      );
    const reminders = async () =>
      (await app.outbox()).filter(
        (m) =>
          m.subject === 'VITA Documents: Reminder: please add your tax documents' &&
          [open.email, done.email, revoked.email].includes(m.to),
      );
    const mailer = app.server.services.mailer;
    expect(await remindAndExpire(db(), mailer)).toBe(0);
    await age(3);
    // Two processes at once: one reminder between them.
    const sent = await Promise.all([remindAndExpire(db(), mailer), remindAndExpire(db(), mailer)]);
    expect(sent[0] + sent[1]).toBe(1);
    expect((await reminders()).map((m) => m.to)).toEqual([open.email]);
    expect((await reminders())[0]?.text).toContain('Test from VITA Documents is still waiting');
    expect(await remindAndExpire(db(), mailer)).toBe(0);
    await age(6);
    expect(await remindAndExpire(db(), mailer)).toBe(1);
    expect(await remindAndExpire(db(), mailer)).toBe(0);
    expect(await reminders()).toHaveLength(2);
    // Past its end: closed as expired (audited), no more reminders.
    await sql`UPDATE client_links SET expires_at = now() - interval '1 second' WHERE client_id = ${open.clientId}`.execute(
      db(),
    );
    await remindAndExpire(db(), mailer);
    const link = await db()
      .selectFrom('client_links')
      .select('closed_reason')
      .where('client_id', '=', open.clientId)
      .executeTakeFirstOrThrow();
    expect(link.closed_reason).toBe('expired');
    await mailsSent(app, people.admin);
    expect(await reminders()).toHaveLength(2);
  });
  it('moves its own upload into another requested category, audited, and nothing else', async () => {
    const email = `client-${Math.random().toString(36).slice(2)}@example.org`;
    const clientId = await createClient(people.volA, email);
    for (const template of ['W-2', '1099-INT'])
      await people.volA.post(`/api/clients/${clientId}/docs/types`, { template });
    const res = await people.volA.post(`/api/clients/${clientId}/link`, { categories: ['W-2', '1099-INT'] });
    const token = /\/u#([A-Za-z0-9_-]+)$/.exec(res.body.url as string)?.[1] ?? '';
    const other = await requested(['13614-C']);
    const phone = await linkSessionFor(token, email);
    await phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' });
    const up = await linkUpload(phone, 'W-2', 'interest.pdf');
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const key = up.body.file.key as string;
    // Not requested (Banking Info is the client's, not the link's), a made-up name: refused, nothing moved.
    expect((await phone.post('/api/link/session/move', { key, docType: 'Banking Info' })).status).toBe(403);
    const bad = await phone.post('/api/link/session/move', { key, docType: '' });
    expect(bad.status).toBe(400);
    // Another client's file, or one this link did not upload: 404.
    const before = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'W-2',
      filename: 'before.pdf',
      contentType: 'application/pdf',
    });
    for (const foreign of [before.body.key as string, `${other.clientId}/13614-C/1_x.pdf`])
      expect((await phone.post('/api/link/session/move', { key: foreign, docType: '1099-INT' })).status).toBe(
        404,
      );
    const moved = await phone.post('/api/link/session/move', { key, docType: '1099-INT' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toEqual({
      ok: true,
      newKey: expect.stringMatching(/\/1099-INT\//),
      docType: '1099-INT',
    });
    const rows = (await phone.get('/api/link/session/checklist')).body.rows as {
      docType: string;
      files: { key: string; filename: string }[];
    }[];
    expect(rows.find((r) => r.docType === 'W-2')?.files).toEqual([]);
    expect(rows.find((r) => r.docType === '1099-INT')?.files).toEqual([
      expect.objectContaining({ key: moved.body.newKey, filename: 'interest.pdf' }),
    ]);
    const audited = await db()
      .selectFrom('audit_log')
      .select(['actor', 'detail', 'keys'])
      .where('client_id', '=', clientId)
      .where('action', '=', 'link.move')
      .execute();
    expect(audited).toEqual([
      { actor: expect.stringMatching(/^link:/), detail: 'W-2 → 1099-INT', keys: [key, moved.body.newKey] },
    ]);
    // The staff see it in 1099-INT.
    const staff = await people.volA.get(`/api/docs/list/${clientId}?docType=1099-INT`);
    expect(staff.body.items.map((i: { key: string }) => i.key)).toEqual([moved.body.newKey]);
  });

  it('takes nothing more into a category the volunteer removed after sending the request', async () => {
    const email = `client-${Math.random().toString(36).slice(2)}@example.org`;
    const clientId = await createClient(people.volA, email);
    const added = await people.volA.post(`/api/clients/${clientId}/docs/types`, { template: '1099-INT' });
    const docType = added.body.docType as string;
    const res = await people.volA.post(`/api/clients/${clientId}/link`, { categories: [docType] });
    const token = /\/u#([A-Za-z0-9_-]+)$/.exec(res.body.url as string)?.[1] ?? '';
    const phone = await linkSessionFor(token, email);
    await phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' });
    expect((await linkUpload(phone, docType, 'first.pdf', pdfBytes())).status).toBe(200);
    const gone = await people.volA.del(
      `/api/clients/${clientId}/docs/types?docType=${encodeURIComponent(docType)}`,
    );
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect((await linkUpload(phone, docType, 'second.pdf', pdfBytes())).status).toBe(403);
  });
  it('stores nothing through an upload URL handed out before the link was revoked', async () => {
    const { token, email, clientId } = await requested(['13614-C']);
    const phone = await linkSessionFor(token, email);
    await phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' });
    const bytes = pdfBytes();
    const presign = await phone.post('/api/link/session/presign', {
      docType: '13614-C',
      filename: 'late.pdf',
      contentType: 'application/pdf',
      size: bytes.length,
      sha256: sha256(bytes),
    });
    expect(presign.status).toBe(200);
    expect((await people.volA.del(`/api/clients/${clientId}/link`)).status).toBe(200);
    const put = await fetch(presign.body.url as string, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', ...(presign.body.headers ?? {}) },
      body: bytes,
    });
    expect(put.ok).toBe(false);
    const listed = await people.volA.get(`/api/docs/list/${clientId}?docType=13614-C`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([]);
  });

  it("stores nothing through an upload URL handed out before I'm done", async () => {
    const { token, email, clientId } = await requested(['13614-C']);
    const phone = await linkSessionFor(token, email);
    await phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' });
    const bytes = pdfBytes();
    const presign = await phone.post('/api/link/session/presign', {
      docType: '13614-C',
      filename: 'after-done.pdf',
      contentType: 'application/pdf',
      size: bytes.length,
      sha256: sha256(bytes),
    });
    expect(presign.status).toBe(200);
    expect((await phone.post('/api/link/session/done')).status).toBe(200);
    const put = await fetch(presign.body.url as string, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', ...(presign.body.headers ?? {}) },
      body: bytes,
    });
    expect(put.ok).toBe(false);
    expect((await phone.post('/api/link/session/complete', { key: presign.body.key })).status).toBe(401);
    const listed = await people.volA.get(`/api/docs/list/${clientId}?docType=13614-C`);
    expect(listed.body.items).toEqual([]);
    // Only the signed consent record the server filed: nothing of the upload.
    expect(
      await db().selectFrom('documents').select('doc_type').where('client_id', '=', clientId).execute(),
    ).toEqual([{ doc_type: 'Digital Consent Form' }]);
  });
});
