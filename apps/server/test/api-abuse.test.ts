/**
 * Abuse of the API by a stranger or by an account reaching past its role, refused: each test fails
 * if its fix is undone.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/env.js';
import { samplePdf } from './storage.js';
import { createClient, upload } from './docs-helpers.js';
import { PIN, register, seedPeople, signIn, startApp, type Agent, type TestApp } from './harness.js';

describe('abuse of the API', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  /**
   * Sends `target` exactly as written (fetch and the test agent would normalise the path), with the
   * agent's cookies and no CSRF header; the status, the error code and the cache-control header.
   */
  function raw(agent: Agent, method: string, target: string) {
    const cookie = [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const { hostname, port } = new URL(app.url);
    return new Promise<{ status: number; code: unknown; cacheControl: unknown }>((resolve, reject) => {
      const request = http.request(
        { hostname, port, method, path: target, headers: { cookie, 'content-type': 'application/json' } },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            let code: unknown;
            try {
              code = (JSON.parse(text) as { code?: unknown }).code;
            } catch {
              code = undefined;
            }
            resolve({
              status: response.statusCode ?? 0,
              code,
              cacheControl: response.headers['cache-control'],
            });
          });
        },
      );
      request.on('error', reject);
      request.end(method === 'POST' ? '{}' : undefined);
    });
  }

  it('checks a percent-encoded or absolute-form API path like the plain one: CSRF, session, no-store', async () => {
    const signedIn = await signIn(app, 'vola@example.org');
    const plainPost = await raw(signedIn, 'POST', '/api/auth/logout');
    expect(plainPost).toMatchObject({ status: 403, code: 'bad_token' });
    for (const target of [
      '/%61pi/auth/logout',
      '/%61%70%69/auth/logout',
      '/api%2fauth/logout',
      '/api%2Fauth%2Flogout',
      '/api/auth/%6cogout',
    ]) {
      expect({ target, ...(await raw(signedIn, 'POST', target)) }).toMatchObject({
        target,
        status: 403,
        code: 'bad_token',
      });
    }
    // The session is still there (no variant signed it out), and a GET reads it through any spelling.
    const plainGet = await raw(signedIn, 'GET', '/api/me');
    expect(plainGet).toMatchObject({ status: 200, cacheControl: 'no-store' });
    expect(await raw(signedIn, 'GET', '/%61pi/me')).toMatchObject({ status: 200, cacheControl: 'no-store' });
    // The router keeps an encoded `/` as it is: no route, an API 404 that no cache keeps.
    expect(await raw(signedIn, 'GET', '/api%2fme')).toMatchObject({ status: 404, cacheControl: 'no-store' });
    const stranger = await app.agent().prime();
    expect(await raw(stranger, 'GET', '/%61pi/me')).toMatchObject({ status: 401, cacheControl: 'no-store' });
    // A request target that is not a path (absolute-form) is refused outright.
    const absolute = await raw(signedIn, 'POST', `${app.url}/api/auth/logout`);
    expect(absolute.status).toBe(400);
    expect((await raw(signedIn, 'GET', '/api/me')).status).toBe(200);
  });

  it('serves the dev outbox only to callers on this machine, never through a proxy', async () => {
    const relayed = await app
      .agent()
      .call('GET', '/api/dev/outbox', undefined, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(relayed.status).toBe(403);
  });

  it('lets an officer move orphans and their own clients, not another volunteer’s', async () => {
    const clientId = await createClient(people.volA, 'not-yours@example.org');
    expect((await people.officer.get(`/api/admin/client-meta/${clientId}`)).status).toBe(403);
    const grab = await people.officer.post('/api/admin/clients/reassign', {
      from: 'vola@example.org',
      clientEmail: 'not-yours@example.org',
      newVolunteerEmail: 'officer@example.org',
    });
    expect(grab.status).toBe(403);
    expect((await people.officer.get(`/api/docs/list/${clientId}?docType=13614-C`)).status).toBe(403);
    const own = await createClient(people.officer, 'mine@example.org');
    const handOver = await people.officer.post('/api/admin/clients/reassign', {
      from: 'officer@example.org',
      clientEmail: 'mine@example.org',
      newVolunteerEmail: 'vola@example.org',
    });
    expect(handOver.body.client).toMatchObject({ clientId: own, createdBy: 'vola@example.org' });
  });

  it('answers forgot-resend the same for known and unknown emails, cooldown included', async () => {
    const run = async (email: string) => {
      const a = await app.agent().prime();
      const statuses = [(await a.post('/api/auth/forgot-init', { email })).status];
      statuses.push((await a.post('/api/auth/forgot-resend', { email })).status);
      statuses.push((await a.post('/api/auth/forgot-resend', { email })).status);
      return statuses;
    };
    expect(await run('vola@example.org')).toEqual([200, 200, 429]);
    expect(await run('nobody-here@example.org')).toEqual([200, 200, 429]);
  });

  it('does not mail codes to someone else’s email on a stranger’s resend', async () => {
    const victim = await app.agent().prime();
    await victim.post('/api/auth/login-init', { email: 'volb@example.org', pin: PIN });
    const before = (await app.outbox()).length;
    const stranger = await app.agent().prime();
    expect((await stranger.post('/api/auth/login-resend', { email: 'volb@example.org' })).body).toEqual({
      ok: true,
      emailSent: true,
    });
    expect((await app.outbox()).length).toBe(before);
  });

  it('checks at most 10 PINs per account per window, even in parallel', async () => {
    await register(app, 'target@example.org');
    await people.admin.post('/api/admin/users/target%40example.org/approve', { approved: true });
    const a = await app.agent().prime();
    const guesses = Array.from({ length: 30 }, (_, i) =>
      a.post('/api/auth/login-init', { email: 'target@example.org', pin: `guess ${i} wrong` }),
    );
    const statuses = (await Promise.all(guesses)).map((r) => r.status);
    // On a loaded machine a guess may wait past the database deadline (503): it was never checked.
    // Wrong guesses go on, one at a time, until the limit answers; never more than 10 checked in all.
    for (let more = 0; more < 10 && !statuses.includes(429); more++) {
      statuses.push(
        (await a.post('/api/auth/login-init', { email: 'target@example.org', pin: `late ${more} wrong` }))
          .status,
      );
    }
    expect(
      statuses.filter((s) => ![401, 429, 503].includes(s)),
      statuses.join(' '),
    ).toEqual([]);
    expect(statuses.filter((s) => s === 401).length, statuses.join(' ')).toBeLessThanOrEqual(10);
    // The right PIN is refused too while the wait holds. The last wrong PIN is made a moment ago: on a
    // loaded machine the burst may have ended longer ago than its 1–2 s wait.
    await app.server.services.db
      .updateTable('login_throttle')
      .set({ last_failure_at: new Date() })
      .where('email', '=', 'target@example.org')
      .execute();
    expect((await a.post('/api/auth/login-init', { email: 'target@example.org', pin: PIN })).status).toBe(
      429,
    );
  });

  it('refuses control characters and broken Unicode with 400, deleting nothing', async () => {
    const a = await app.agent().prime();
    const nul = await a.post('/api/auth/register', {
      firstName: 'a\u0000',
      lastName: 'b',
      email: 'nul@example.org',
      pin: PIN,
    });
    expect(nul.status).toBe(400);
    const clientId = await createClient(people.volA, 'unicode@example.org');
    const key = await upload(people.volA, clientId, '13614-C', 'keep.pdf', samplePdf());
    const res = await people.volA.post('/api/docs/delete', {
      keys: [key, `${clientId}/13614-C/1_\ud800.pdf`],
    });
    expect(res.status).toBe(400);
    const listed = await people.volA.get(`/api/docs/list/${clientId}?docType=13614-C`);
    expect(listed.body.items).toHaveLength(1);
    expect((await people.volA.post('/api/docs/rename', { key, filename: '\ud800' })).status).toBe(400);
    expect(
      (
        await people.admin.post('/api/admin/clients/delete', {
          createdBy: 'a\u0000',
          clientEmail: 'x@example.org',
        })
      ).status,
    ).toBe(400);
    const badUrl = await people.admin.get('/api/admin/users/%E0%A4%A');
    expect(badUrl).toMatchObject({ status: 400, body: { error: 'The address is not valid.' } });
  });

  it('stores names with a document extension and no bidi tricks', async () => {
    const clientId = await createClient(people.volA, 'names@example.org');
    const key = await upload(people.volA, clientId, '13614-C', 'W2\u202Efdp.cmd', samplePdf());
    expect(key.endsWith('/' + key.split('/')[2])).toBe(true);
    expect(key.split('/')[2]).toMatch(/^\d+_W2fdp\.cmd\.pdf$/);
  });

  it('never lets an upload link overwrite a file or outlive its client', async () => {
    const clientId = await createClient(people.volA, 'late@example.org');
    const presign = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'Banking Info',
      filename: 'bank.pdf',
      contentType: 'application/pdf',
    });
    const put = () =>
      fetch(presign.body.url, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body: samplePdf('bank'),
      });
    expect((await put()).status).toBe(200);
    expect((await put()).status).toBe(409);
    const late = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'Banking Info',
      filename: 'late.pdf',
      contentType: 'application/pdf',
    });
    await people.admin.post('/api/admin/clients/delete', {
      createdBy: 'vola@example.org',
      clientEmail: 'late@example.org',
    });
    const after = await fetch(late.body.url, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: samplePdf('late'),
    });
    expect(after.status).toBe(404);
    expect(await app.server.services.store.list(`${clientId}/`)).toEqual([]);
  });

  it('refuses to trust every proxy', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
  });
});
