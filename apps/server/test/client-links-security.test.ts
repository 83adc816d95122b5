/**
 * The review findings on client request links (docs/security.md#client-links), against the real server and
 * database: races on the 100-file cap and on the mailed code, the cap on wrong answers over a link's life,
 * the audit entries, the link's address never taken from a request's Host, and staff dedupe beside a link.
 */
import { createHash, hkdfSync } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { CLIENT_LINK_TEXTS, LINK_MAX_FILES, readCsrfToken } from '@vita-docs/core';
import {
  LINK_REQUEST_LIMITS,
  LINK_WRITES_PER_DAY,
  LINK_WRITES_PER_MINUTE,
  MAX_WRONG_TOTAL,
} from '../src/client-links/links.js';
import { createClient, pdfBytes, requestLink, sha256 } from './docs-helpers.js';
import {
  mailsSent,
  register,
  seedPeople,
  signIn,
  startApp,
  TEST_STORAGE_KEY,
  type Agent,
  type TestApp,
} from './harness.js';

const EN = CLIENT_LINK_TEXTS.en;
const hkdf = (master: Buffer, label: string) =>
  Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), label, 32));

describe('client request links under attack', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;

  beforeAll(async () => {
    // These requests wait on one another's row locks on purpose; on a loaded machine the default 2 s
    // bound on a statement would turn that wait into 503s, which is not what is tested here.
    app = await startApp({ DEPENDENCY_TIMEOUT_MS: '20000' });
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const db = () => app.server.services.db;
  const linkId = async (token: string) =>
    (
      await db()
        .selectFrom('client_links')
        .select('id')
        .where('token_hash', '=', createHash('sha256').update(token).digest('base64url'))
        .executeTakeFirstOrThrow()
    ).id;
  const auditOf = (clientId: string) =>
    db()
      .selectFrom('audit_log')
      .select(['action', 'actor', 'keys', 'detail', 'ip'])
      .where('client_id', '=', clientId)
      .orderBy('id')
      .execute();

  /** A new client of volA (with an email) and a request for `categories`. */
  const requested = (categories = ['13614-C']) => requestLink(people.volA, categories);

  /** Opens the link from a fresh browser; returns the code mailed for it. */
  async function openFor(token: string, email: string): Promise<string> {
    const since = (await app.outbox()).length;
    expect((await (await app.agent().prime()).post('/api/link/open', { token })).status).toBe(200);
    return app.latestCode(email, since);
  }

  async function linkSessionFor(token: string, email: string): Promise<Agent> {
    const code = await openFor(token, email);
    const phone = await app.agent().prime();
    expect((await phone.post('/api/link/verify', { token, code })).status).toBe(200);
    expect((await phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' })).status).toBe(
      200,
    );
    return phone;
  }

  const presign = (phone: Agent, bytes: Uint8Array, filename = 'w2.pdf') =>
    phone.post('/api/link/session/presign', {
      docType: '13614-C',
      filename,
      contentType: 'application/pdf',
      size: bytes.length,
      sha256: sha256(bytes),
    });

  /** A volunteer's upload the way the web app sends it (length and SHA-256 declared: dedupe applies). */
  async function staffUpload(clientId: string, filename: string, bytes: Uint8Array): Promise<string> {
    const signed = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: '13614-C',
      filename,
      contentType: 'application/pdf',
      size: bytes.length,
      sha256: sha256(bytes),
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const put = await fetch(signed.body.url as string, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', ...(signed.body.headers ?? {}) },
      body: bytes,
    });
    expect(put.status).toBeLessThan(300);
    expect((await people.volA.post('/api/docs/complete', { key: signed.body.key })).status).toBe(200);
    return signed.body.key as string;
  }

  it('adds at most 100 files per request when 110 presigns race for the last 2 places', async () => {
    const { token, email, clientId } = await requested();
    const phone = await linkSessionFor(token, email);
    const id = await linkId(token);
    await db()
      .insertInto('documents')
      .values(
        Array.from({ length: LINK_MAX_FILES - 2 }, (_, i) => ({
          key: `${clientId}/13614-C/${i + 1}_f${i}.pdf`,
          client_id: clientId,
          doc_type: '13614-C',
          ord: i + 1,
          filename: `f${i}.pdf`,
          state: 'pending' as const,
          content_type: 'application/pdf',
          max_bytes: 1000,
          uploaded_by: `link:${id}`,
          expires_at: new Date(Date.now() + 600_000),
        })),
      )
      .execute();
    const answers = await Promise.all(
      Array.from({ length: 110 }, (_, i) => presign(phone, pdfBytes(200), `race${i}.pdf`)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 409)).toHaveLength(108);
    const { n } = await db()
      .selectFrom('documents')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('uploaded_by', '=', `link:${id}`)
      // The signed consent record is the server's, not one of the client's files.
      .where('doc_type', '!=', 'Digital Consent Form')
      .executeTakeFirstOrThrow();
    expect(n).toBe(LINK_MAX_FILES);
  }, 90_000);

  it('lets the mailed code open one link session only, even when verifies race', async () => {
    const { token, email } = await requested();
    const code = await openFor(token, email);
    const phones = await Promise.all(Array.from({ length: 5 }, () => app.agent().prime()));
    const answers = await Promise.all(phones.map((p) => p.post('/api/link/verify', { token, code })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400]);
    for (const a of answers.filter((r) => r.status !== 200)) expect(a.body.error).toBe(EN.wrongAnswer);
    const sessions = await db()
      .selectFrom('client_link_sessions')
      .select('id_hash')
      .where('link_id', '=', await linkId(token))
      .execute();
    expect(sessions).toHaveLength(1);
  });

  it(`closes a PIN-only link for good after ${MAX_WRONG_TOTAL} wrong answers in all, and audits each lock`, async () => {
    const made = await people.volA.post('/api/clients/new', {
      firstName: 'Paz',
      lastName: 'Pinonly',
      email: `paz-${Math.random().toString(36).slice(2)}@example.org`,
      phone: '555 010 0101',
      pin: '4321',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const clientId = made.body.client.clientId as string;
    // A client without an email (the form asks for one; records may lack it): the PIN alone proves.
    await db().updateTable('clients').set({ email: '' }).where('id', '=', clientId).execute();
    const res = await people.volA.post(`/api/clients/${clientId}/link`, { categories: ['13614-C'] });
    const token = (res.body.url as string).split('#')[1] ?? '';
    const guess = async (pin: string) => (await app.agent().prime()).post('/api/link/verify', { token, pin });
    const unlock = () =>
      sql`UPDATE client_links SET locked_until = now() - interval '1 second' WHERE client_id = ${clientId}`.execute(
        db(),
      );
    for (let round = 1; round <= MAX_WRONG_TOTAL / 5; round += 1) {
      // Each guess from another browser: the count is the link's, not a browser's or an address's.
      for (let i = 0; i < 4; i += 1) expect((await guess(`000${i}`)).body.error).toBe(EN.wrongAnswer);
      const last = await guess('0009');
      if (round < MAX_WRONG_TOTAL / 5) {
        expect(last.status).toBe(429);
        expect(last.body.error).toBe(EN.locked);
        await unlock();
      } else {
        expect(last.status).toBe(410);
        expect(last.body.error).toBe(EN.expired);
      }
    }
    await unlock();
    const right = await guess('4321');
    expect(right.status).toBe(410);
    expect(right.body.error).toBe(EN.expired);
    const status = await people.volA.get(`/api/clients/${clientId}/link`);
    expect(status.body.request.state).toBe('locked');
    const locks = (await auditOf(clientId)).filter((e) => e.action === 'link.lock');
    expect(locks.map((e) => e.detail)).toEqual([
      '5 wrong answers: locked for 30 minutes',
      '5 wrong answers: locked for 30 minutes',
      `closed after ${MAX_WRONG_TOTAL} wrong answers`,
    ]);
  });

  it('audits each code sent and an upload whose bytes arrived without Complete', async () => {
    const { token, email, clientId } = await requested();
    const code = await openFor(token, email);
    const since = (await app.outbox()).length;
    await (await app.agent().prime()).post('/api/link/open', { token, resend: true });
    await app.latestCode(email, since);
    const codes = (await auditOf(clientId)).filter((e) => e.action === 'link.code');
    expect(codes.map((e) => e.detail)).toEqual(['sent', 'sent again']);
    expect(codes[0]?.actor).toBe(`link:${await linkId(token)}`);

    const phone = await app.agent().prime();
    // The first code was replaced by the resend: a wrong answer now.
    expect((await phone.post('/api/link/verify', { token, code })).status).toBe(400);
    const fresh = await app.latestCode(email, since);
    expect((await phone.post('/api/link/verify', { token, code: fresh })).status).toBe(200);
    await phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' });
    const bytes = pdfBytes();
    const signed = await presign(phone, bytes);
    const put = await fetch(signed.body.url as string, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', ...(signed.body.headers ?? {}) },
      body: bytes,
    });
    expect(put.ok).toBe(true);
    // No Complete: the store recorded the upload as its bytes arrived, as the link's, with the address
    // it came from (as the link's other entries have it), after the signed consent record, which the
    // server filed as the link's too.
    const record = await app.server.services.db
      .selectFrom('documents')
      .select('key')
      .where('client_id', '=', clientId)
      .where('doc_type', '=', 'Digital Consent Form')
      .executeTakeFirstOrThrow();
    const entries = await auditOf(clientId);
    const uploads = entries.filter((e) => e.action === 'doc.upload');
    const opened = entries.find((e) => e.action === 'link.consent' || e.action === 'link.verify');
    expect(opened?.ip).toBeTruthy();
    const actor = `link:${await linkId(token)}`;
    expect(uploads).toEqual([
      expect.objectContaining({ actor, keys: [record.key] }),
      expect.objectContaining({ actor, keys: [signed.body.key], ip: opened?.ip }),
    ]);
    expect((await people.volA.get(`/api/clients/${clientId}/link`)).body.fromClient.sort()).toEqual(
      [record.key, signed.body.key].sort(),
    );
  });

  /** A request with a `Host` header of the caller's choosing (fetch does not let one set it). */
  function postWithHost(agent: Agent, path: string, body: unknown, host: string) {
    const payload = JSON.stringify(body);
    const headers = {
      host,
      // Not this machine's name, so the server expects the `__Host-` cookie names of a Secure site.
      cookie: [...agent.cookies].map(([name, value]) => `__Host-${name}=${value}`).join('; '),
      'x-csrf-token': readCsrfToken((name) => agent.cookies.get(name)) ?? '',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(payload)),
    };
    return new Promise<{ status: number; body: { url?: string } }>((resolve, reject) => {
      const req = httpRequest(`${app.url}${path}`, { method: 'POST', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { url?: string } }),
        );
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  it('hands the link journal key only to a live session of that link, the same key each session, never after it closed', async () => {
    const first = await requested();
    const other = await requested();
    const phone = await linkSessionFor(first.token, first.email);
    const key = await phone.get('/api/link/session/journal-key');
    expect(key.status).toBe(200);
    expect(key.headers.get('cache-control')).toContain('no-store');
    expect(Buffer.from(key.body.key as string, 'base64')).toHaveLength(32);
    // A second session of the same link (a reload after the cookie went): the same key opens what was kept.
    const again = await (await linkSessionFor(first.token, first.email)).get('/api/link/session/journal-key');
    expect(again.body).toEqual(key.body);
    const otherKey = await (
      await linkSessionFor(other.token, other.email)
    ).get('/api/link/session/journal-key');
    expect(otherKey.body.key).not.toBe(key.body.key);
    expect((await app.agent().get('/api/link/session/journal-key')).status).toBe(401);
    expect((await people.volA.call('DELETE', `/api/clients/${first.clientId}/link`)).status).toBe(200);
    // Revoking ended its sessions too.
    expect((await phone.get('/api/link/session/journal-key')).status).toBe(401);
  });

  it('derives the link journal key from the storage key: nothing a backup holds gives it, and it stays the same for the link', async () => {
    const link = await requested();
    const id = await linkId(link.token);
    const first = await (await linkSessionFor(link.token, link.email)).get('/api/link/session/journal-key');
    const later = await (await linkSessionFor(link.token, link.email)).get('/api/link/session/journal-key');
    expect(later.body).toEqual(first.body);
    const key = Buffer.from(first.body.key as string, 'base64');
    // The HMAC secret is in the database, and so in every backup: under no label does it give the key.
    const { value } = await db()
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', 'hmac')
      .executeTakeFirstOrThrow();
    const secret = Buffer.from(value, 'base64');
    for (const label of [`vita-docs/link-journal/v1/${id}`, `vita-docs/link-journal/v2/${id}`]) {
      expect(hkdf(secret, label).equals(key)).toBe(false);
      expect(hkdf(hkdf(secret, 'vita-docs/link-journal-root/v2'), label).equals(key)).toBe(false);
    }
    // The storage key, which no backup holds, does.
    const root = hkdf(Buffer.from(TEST_STORAGE_KEY, 'base64'), 'vita-docs/link-journal-root/v2');
    expect(hkdf(root, `vita-docs/link-journal/v2/${id}`).equals(key)).toBe(true);
    // A new id for the new derivation: a phone's files kept under the old key are deleted at open.
    expect(first.body.keyId).toBe(`link-v2-${id}`);
  });

  it('never builds the link from the Host header a request brings', async () => {
    const email = `host-${Math.random().toString(36).slice(2)}@example.org`;
    const clientId = await createClient(people.volA, email);
    const res = await postWithHost(
      people.volA,
      `/api/clients/${clientId}/link`,
      { categories: ['13614-C'] },
      'evil.example',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^${app.url}/u#`));
    const mail = (await app.outbox()).filter((m) => m.to === email).at(-1);
    expect(mail?.text).toContain(`${app.url}/u#`);
    expect(mail?.text).not.toContain('evil.example');
  });

  it("keeps staff uploads and a client's link uploads of the same file apart", async () => {
    const { token, email, clientId } = await requested();
    const phone = await linkSessionFor(token, email);
    // A staff copy first: the link neither learns of it nor lets it break its own retries.
    const held = pdfBytes();
    await staffUpload(clientId, 'held.pdf', held);
    const first = await presign(phone, held, 'held.pdf');
    expect(first.status).toBe(200);
    expect(first.body.alreadyStored).toBeUndefined();
    const retry = await presign(phone, held, 'held.pdf');
    expect(retry.body.key).toBe(first.body.key);

    // The client's unfinished upload is the client's: a volunteer's same file gets its own key,
    // is the volunteer's, and stays when the link is revoked (which drops the client's unfinished one).
    const both = pdfBytes();
    const clients = await presign(phone, both, 'both.pdf');
    const staffKey = await staffUpload(clientId, 'both.pdf', both);
    expect(staffKey).not.toBe(clients.body.key);
    expect((await people.volA.del(`/api/clients/${clientId}/link`)).status).toBe(200);
    const row = await db()
      .selectFrom('documents')
      .select(['state', 'uploaded_by'])
      .where('key', '=', staffKey)
      .executeTakeFirst();
    expect(row).toEqual({ state: 'stored', uploaded_by: 'vola@example.org' });
    expect((await people.volA.get(`/api/clients/${clientId}/link`)).body.fromClient).not.toContain(staffKey);
  });

  it(`refuses request links to one client past ${LINK_REQUEST_LIMITS.perClient.max} a day, saying when to try again`, async () => {
    const { max } = LINK_REQUEST_LIMITS.perClient;
    const { clientId, email } = await requested();
    for (let i = 1; i < max; i += 1)
      expect(
        (await people.volA.post(`/api/clients/${clientId}/link`, { categories: ['13614-C'] })).status,
      ).toBe(200);
    const mailed = (await app.outbox()).filter((m) => m.to === email).length;
    // Another volunteer's or an admin's request counts for the client too.
    const refused = await people.admin.post(`/api/clients/${clientId}/link`, {
      categories: ['13614-C'],
      message: 'spam',
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(
      `A client can be sent at most ${max} request links a day. Try again in 24 hours.`,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    await mailsSent(app, people.admin);
    expect((await app.outbox()).filter((m) => m.to === email)).toHaveLength(mailed);
    // The open link is still the last one that was sent.
    expect((await people.volA.get(`/api/clients/${clientId}/link`)).body.request.state).toBe('open');
  });

  it(`refuses a volunteer's request links past ${LINK_REQUEST_LIMITS.perVolunteer.max} an hour, saying when to try again`, async () => {
    const { max } = LINK_REQUEST_LIMITS.perVolunteer;
    await register(app, 'busy@example.org');
    await people.admin.post('/api/admin/users/busy%40example.org/approve', { approved: true });
    const busy = await signIn(app, 'busy@example.org');
    for (let i = 0; i < max; i += 1) await requestLink(busy, ['13614-C']);
    const clientId = await createClient(busy, 'one-more@example.org');
    const refused = await busy.post(`/api/clients/${clientId}/link`, { categories: ['13614-C'] });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(
      new RegExp(
        `^You can send at most ${max} request links an hour\\. Try again in (1 hour|\\d+ minutes)\\.$`,
      ),
    );
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    // Another volunteer is not held up by it.
    expect((await requestLink(people.volB, ['13614-C'])).res.status).toBe(200);
  });

  it("audits a link session's changes of state only, and refuses its writes past the limit a minute", async () => {
    const { token, email, clientId } = await requested(['13614-C', 'Banking Info']);
    const phone = await linkSessionFor(token, email);
    const bytes = pdfBytes();
    const signed = await presign(phone, bytes);
    await fetch(signed.body.url as string, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', ...(signed.body.headers ?? {}) },
      body: bytes,
    });
    for (let i = 0; i < 50; i += 1) {
      expect((await phone.post('/api/link/session/complete', { key: signed.body.key })).status).toBe(200);
      const answer = { docType: 'Banking Info', missing: true, note: 'none' };
      expect((await phone.post('/api/link/session/answer', answer)).status).toBe(200);
    }
    expect((await phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' })).status).toBe(
      200,
    );
    const count = async (action: string) =>
      (await auditOf(clientId)).filter((e) => e.action === action).length;
    expect([await count('link.upload'), await count('link.missing'), await count('link.consent')]).toEqual([
      1, 1, 1,
    ]);
    // A new note, and taking it back, are changes: each audited once.
    await phone.post('/api/link/session/answer', { docType: 'Banking Info', missing: true, note: 'closed' });
    await phone.post('/api/link/session/answer', { docType: 'Banking Info', missing: false });
    await phone.post('/api/link/session/answer', { docType: 'Banking Info', missing: false });
    expect(await count('link.missing')).toBe(3);

    // Toggling on another link: every write counts, and past the limit a minute it is refused.
    const other = await requested(['13614-C']);
    const toggler = await linkSessionFor(other.token, other.email);
    const statuses: number[] = [];
    let refusal: Awaited<ReturnType<typeof toggler.post<{ error: string }>>> | undefined;
    // The consent of linkSessionFor was the first write of this minute.
    for (let i = 1; i <= LINK_WRITES_PER_MINUTE; i += 1) {
      const res = await toggler.post('/api/link/session/answer', {
        docType: '13614-C',
        missing: i % 2 === 1,
      });
      statuses.push(res.status);
      if (res.status === 429) refusal = res;
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(refusal?.body.error).toBe(EN.tooFast);
    expect(Number(refusal?.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const toggles = (await auditOf(other.clientId)).filter((e) => e.action === 'link.missing');
    expect(toggles.length).toBe(LINK_WRITES_PER_MINUTE - 1);
    // Reading is not writing: the checklist still opens.
    expect((await toggler.get('/api/link/session/checklist')).status).toBe(200);
  }, 90_000);

  it("bounds a link's writes a day too, and takes the client's I'm done past either limit", async () => {
    /** Spends link `id`'s budget under `key` (the minute's or the day's) as if its writes had been made. */
    const spend = async (key: string, count: number) => {
      await db()
        .insertInto('rate_limits')
        .values({ key, window_start: sql<Date>`now()`, count })
        .onConflict((oc) => oc.column('key').doUpdateSet({ window_start: sql<Date>`now()`, count }))
        .execute();
    };
    const answer = { docType: '13614-C', missing: true };

    // The minute's writes are spent: an answer waits, Done is still taken.
    const minute = await requested(['13614-C']);
    const hurried = await linkSessionFor(minute.token, minute.email);
    await spend(`link-write:${await linkId(minute.token)}`, LINK_WRITES_PER_MINUTE);
    expect((await hurried.post('/api/link/session/answer', answer)).status).toBe(429);
    expect((await hurried.post('/api/link/session/done')).status).toBe(200);

    // The day's writes are spent (the minute's are not): refused until the day is over, Done still taken.
    const day = await requested(['13614-C']);
    const busy = await linkSessionFor(day.token, day.email);
    await spend(`link-write-day:${await linkId(day.token)}`, LINK_WRITES_PER_DAY);
    const refused = await busy.post<{ error: string }>('/api/link/session/answer', answer);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(EN.tooManyToday);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60 * 60);
    expect((await auditOf(day.clientId)).filter((e) => e.action === 'link.missing')).toEqual([]);
    expect((await busy.post('/api/link/session/done')).status).toBe(200);
  });
});
