/**
 * Refusals the hostile-input fuzzer (reliability scenario 6) found without the `{ "error": "…" }`
 * JSON every refusal must carry, or with wording no person could act on. Each fails if its fix is undone.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { isErrorCode } from '@vita-docs/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf } from './storage.js';
import { createClient } from './docs-helpers.js';
import { PIN, register, seedPeople, startApp, type TestApp } from './harness.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` byte for byte on a new connection and reads the one answer until the server closes. */
function raw(url: string, request: string): Promise<RawAnswer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(Buffer.from(request, 'latin1')));
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: Buffer.from(rest.join('\r\n\r\n'), 'latin1').toString('utf8'),
      });
    });
  });
}

/** Runs statements on the test server's own database. */
async function onDatabase(app: TestApp, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A trigger on `table` running `body` before each INSERT or UPDATE: it plays another request that
 * deleted a row at just the wrong moment, every time. Returns what removes it again.
 */
async function trigger(
  app: TestApp,
  table: string,
  event: 'INSERT' | 'UPDATE',
  body: string,
): Promise<() => Promise<void>> {
  const name = `meanwhile_${table}_${event.toLowerCase()}`;
  await onDatabase(
    app,
    `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} END $$`,
    `CREATE TRIGGER ${name} BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`,
  );
  return () => onDatabase(app, `DROP TRIGGER ${name} ON ${table}`, `DROP FUNCTION ${name}()`);
}
/** The client (or user) a new row refers to is deleted just before the row is written. */
const deleteFirst = (app: TestApp, table: string, parent: string, column: string, reference: string) =>
  trigger(app, table, 'INSERT', `DELETE FROM ${parent} WHERE ${column} = NEW.${reference}; RETURN NEW;`);
/** An update finds no row: as when another request deleted it after it was looked up. */
const vanishOnUpdate = (app: TestApp, table: string) => trigger(app, table, 'UPDATE', 'RETURN NULL;');

/** The answer is JSON `{ error, code }` and nothing else. */
function errorOf(answer: RawAnswer): string {
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['error', 'code']);
  expect(isErrorCode(body.code)).toBe(true);
  return body.error as string;
}

describe('hostile input', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers an Expect header it cannot meet in JSON', async () => {
    const answer = await raw(
      app.url,
      'GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\nConnection: close\r\n\r\n',
    );
    expect(answer.status).toBe(417);
    expect(errorOf(answer)).toBe(
      'The server cannot meet the Expect header of this request. Send it without one.',
    );
  });

  it('refuses HTTP/1.1 without Host in JSON, and still serves HTTP/1.0, which has no Host', async () => {
    const answer = await raw(app.url, 'GET /api/me HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toBe('The request has no Host header.');
    const old = await raw(app.url, 'GET /api/me HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(401);
    expect(errorOf(old)).toBe('Please sign in.');
  });

  it('answers requests Node cannot parse, or whose headers are too large, in JSON with words for people', async () => {
    const malformed = await raw(
      app.url,
      'POST /api/auth/login-init HTTP/1.1\r\nHost: 127.0.0.1\r\nX-No-Colon\r\n\r\n',
    );
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed)).toBe('The request is not valid.');
    const nul = await raw(app.url, 'GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Nul: a\u0000b\r\n\r\n');
    expect(nul.status).toBe(400);
    expect(errorOf(nul)).toBe('The request is not valid.');
    const huge = await raw(
      app.url,
      `GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: a=${'b'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge.status).toBe(431);
    expect(errorOf(huge)).toBe('The request headers or address are too long. Reload the page and try again.');
  });

  it("words zod's own messages for people: which field, and what it must be", async () => {
    const audit = (query: string) => people.admin.get(`/api/admin/audit?${query}`).then((r) => r.body);
    expect(await audit('limit=abc')).toEqual({ error: 'limit must be a number.', code: expect.any(String) });
    expect(await audit('limit=1.5')).toEqual({
      error: 'limit must be a whole number.',
      code: expect.any(String),
    });
    expect(await audit('limit=0')).toEqual({ error: 'limit must be at least 1.', code: expect.any(String) });
    expect(await audit('limit=1001')).toEqual({
      error: 'limit must be at most 1000.',
      code: expect.any(String),
    });
    const clientId = await createClient(people.volA, 'fuzzed@example.org');
    const presign = (size: unknown) =>
      people.volA
        .post(`/api/docs/presign/${clientId}`, {
          docType: 'Banking Info',
          filename: 'a.pdf',
          contentType: 'application/pdf',
          size,
        })
        .then((r) => r.body);
    expect(await presign('12')).toEqual({ error: 'size must be a number.', code: expect.any(String) });
    expect(await presign(1e300)).toEqual({ error: 'size must be a whole number.', code: expect.any(String) });
    expect(await presign(-1)).toEqual({ error: 'size must be at least 0.', code: expect.any(String) });
    const pin = await people.volA.post('/api/clients/new', {
      firstName: 'A',
      lastName: 'B',
      email: 'c@example.org',
      phone: '555 010 0100',
      pin: [1],
    });
    expect(pin.body).toEqual({ error: 'pin must be text.', code: expect.any(String) });
  });

  it('asks for a JSON body in words when a QUERY request has no Content-Type', async () => {
    const cookies = people.admin.cookies;
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await raw(
      app.url,
      `QUERY /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nx-csrf-token: ${cookies.get('csrf_token')}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toBe('Send the request body as JSON (Content-Type: application/json).');
  });

  it('answers 404, not 500, when the client is deleted between its check and the write that needs it', async () => {
    const forUpload = await createClient(people.volA, 'deleted-meanwhile@example.org');
    const restore = await deleteFirst(app, 'documents', 'clients', 'id', 'client_id');
    try {
      const presigned = await people.volA.post(`/api/docs/presign/${forUpload}`, {
        docType: 'Banking Info',
        filename: 'a.pdf',
        contentType: 'application/pdf',
      });
      expect(presigned).toMatchObject({ status: 404, body: { error: 'Client not found.' } });
    } finally {
      await restore();
    }
    const forCategory = await createClient(people.volA, 'deleted-meanwhile-too@example.org');
    const restoreToo = await deleteFirst(app, 'client_doc_types', 'clients', 'id', 'client_id');
    try {
      const added = await people.volA.post(`/api/clients/${forCategory}/docs/types`, { template: 'W-2' });
      expect(added).toMatchObject({ status: 404, body: { error: 'Client not found.' } });
    } finally {
      await restoreToo();
    }
  });

  it('answers 409, not 500, when anything else a write refers to was deleted a moment before', async () => {
    await register(app, 'leaving@example.org');
    await people.admin.post('/api/admin/users/leaving%40example.org/approve', { approved: true });
    const browser = await app.agent().prime();
    await browser.post('/api/auth/login-init', { email: 'leaving@example.org', pin: PIN });
    const code = await app.latestCode('leaving@example.org');
    const restore = await deleteFirst(app, 'sessions', 'users', 'email', 'user_email');
    try {
      const verified = await browser.post('/api/auth/login-verify', { email: 'leaving@example.org', code });
      expect(verified).toMatchObject({
        status: 409,
        body: {
          error: 'Something this request refers to was deleted a moment ago. Reload the page and try again.',
        },
      });
    } finally {
      await restore();
    }
  });

  it('answers 404, not 500, when what an update changes was deleted after it was looked up', async () => {
    await register(app, 'vanishing@example.org');
    const restoreUsers = await vanishOnUpdate(app, 'users');
    try {
      expect(
        await people.admin.post('/api/admin/users/vanishing%40example.org/approve', { approved: true }),
      ).toMatchObject({
        status: 404,
        body: { error: 'User not found.' },
      });
      expect(
        await people.admin.post('/api/admin/users/vanishing%40example.org/role', { role: 'officer' }),
      ).toMatchObject({
        status: 404,
        body: { error: 'User not found.' },
      });
    } finally {
      await restoreUsers();
    }
    const clientId = await createClient(people.volA, 'vanishing-client@example.org');
    const restoreClients = await vanishOnUpdate(app, 'clients');
    try {
      expect(await people.volA.post(`/api/clients/${clientId}/submit`)).toMatchObject({
        status: 404,
        body: { error: 'Client not found.' },
      });
      const moved = await people.admin.post('/api/admin/clients/reassign', {
        from: 'vola@example.org',
        clientEmail: 'vanishing-client@example.org',
        newVolunteerEmail: 'volb@example.org',
      });
      expect(moved).toMatchObject({ status: 404, body: { error: 'Client not found.' } });
    } finally {
      await restoreClients();
    }
  });

  it('says what is wrong with an upload whose Content-Type cannot be read, not "Unsupported Media Type"', async () => {
    const clientId = await createClient(people.volA, 'upload-type@example.org');
    const presigned = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'Banking Info',
      filename: 'a.pdf',
      contentType: 'application/pdf',
    });
    const target = new URL(presigned.body.url as string);
    const pdf = samplePdf('type');
    const answer = await raw(
      app.url,
      `PUT ${target.pathname}${target.search} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ;\r\nContent-Length: ${pdf.length}\r\nConnection: close\r\n\r\n${pdf.toString('latin1')}`,
    );
    expect(answer.status).toBe(415);
    expect(errorOf(answer)).toBe(
      'The file was sent with a Content-Type that is not valid. Upload it again from the app.',
    );
  });
});

describe('hostile input behind a trusted proxy', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  beforeAll(async () => {
    app = await startApp({ TRUST_PROXY: '127.0.0.1' });
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('takes only addresses from X-Forwarded-For: kilobytes of text there reach no rate limit and no audit entry', async () => {
    const text = randomBytes(3_000).toString('base64');
    const visitor = await app.agent().prime();
    const registered = await visitor.post(
      '/api/auth/register',
      { firstName: 'Far', lastName: 'Away', email: 'far@example.org', pin: 'far away pin 123' },
      { headers: { 'x-forwarded-for': text } },
    );
    expect(registered.status).toBe(200);
    const ipOf = async (email: string, forwarded: string) => {
      const created = await people.admin.post(
        '/api/clients/new',
        { firstName: 'C', lastName: 'D', email, phone: '555 010 0100' },
        { headers: { 'x-forwarded-for': forwarded } },
      );
      expect(created.status).toBe(200);
      const audit = await people.admin.get(`/api/admin/audit?clientId=${created.body.client.clientId}`);
      return audit.body.items[0].ip as string;
    };
    expect(await ipOf('one@example.org', `${text}, 203.0.113.7`)).toBe('203.0.113.7');
    expect(await ipOf('two@example.org', '203.0.113.8:4711')).toBe('203.0.113.8');
    expect(await ipOf('three@example.org', '[2001:db8::1]:4711')).toBe('2001:db8::1');
    expect(await ipOf('four@example.org', text)).toBe('127.0.0.1');
  });
});
