/**
 * Request deadlines (slowloris): headers and bodies that trickle in are answered 408 and closed once
 * their deadline passes; an upload to a signed URL may take as long as it keeps a minimum pace. Each
 * test fails without its control: the connection would stay open as long as the client keeps it.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, pdfBytes } from './docs-helpers.js';
import { seedPeople, startApp, type Agent, type TestApp } from './harness.js';

const HEADERS_MS = 600;
const JSON_BODY_MS = 500;
const UPLOAD_GRACE_MS = 1_000;
/** Well above what the stalled upload sends, well below what the slow one does. */
const UPLOAD_MIN_BYTES_PER_SECOND = 4_000;
/** After the grace, so the stalled upload below meets the pace first; the burst below meets this. */
const UPLOAD_IDLE_MS = 1_500;
/** Long enough that nothing here meets it unless a deadline failed. */
const NEVER_MS = 6_000;

interface Trickled {
  status: number;
  body: string;
  /** From the first byte sent to the server closing the connection (or the guard giving up). */
  ms: number;
  closed: boolean;
}

/**
 * Sends `head`, then each of `parts` `everyMs` apart, and reads until the server closes the
 * connection or `guardMs` passes (then `closed` is false).
 */
function trickle(
  url: string,
  head: string,
  parts: readonly Buffer[],
  everyMs: number,
  guardMs = 10_000,
): Promise<Trickled> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(Number(port), '127.0.0.1');
    let data = Buffer.alloc(0);
    const timers: NodeJS.Timeout[] = [];
    const finish = (closed: boolean) => {
      for (const timer of timers) clearTimeout(timer);
      socket.destroy();
      const text = data.toString('latin1');
      const [statusLine = '', ...rest] = text.split('\r\n');
      resolve({
        status: Number(statusLine.split(' ')[1] ?? 0),
        body: Buffer.from(rest.join('\r\n').split('\r\n\r\n').slice(1).join('\r\n\r\n'), 'latin1').toString(
          'utf8',
        ),
        ms: performance.now() - started,
        closed,
      });
    };
    socket.on('connect', () => {
      socket.write(head);
      parts.forEach((part, i) =>
        timers.push(setTimeout(() => socket.writable && socket.write(part), (i + 1) * everyMs)),
      );
    });
    socket.on('data', (chunk: Buffer) => (data = Buffer.concat([data, chunk])));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
    );
    socket.on('close', () => finish(true));
    timers.push(setTimeout(() => finish(false), guardMs));
  });
}

/** A JSON POST's head as a signed-in browser sends it (cookies and CSRF header), announcing `length` bytes. */
function jsonHead(agent: Agent, path: string, length: number): string {
  const cookies = [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n` +
    `Cookie: ${cookies}\r\nX-CSRF-Token: ${agent.cookies.get('csrf_token') ?? ''}\r\n\r\n`
  );
}

describe('request deadlines', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  let clientId: string;
  beforeAll(async () => {
    app = await startApp(
      {},
      {
        deadlines: {
          headersMs: HEADERS_MS,
          bodyMs: JSON_BODY_MS,
          uploadGraceMs: UPLOAD_GRACE_MS,
          uploadMinBytesPerSecond: UPLOAD_MIN_BYTES_PER_SECOND,
          uploadIdleMs: UPLOAD_IDLE_MS,
          checkEveryMs: 100,
        },
      },
    );
    people = await seedPeople(app);
    clientId = await createClient(people.volA);
  });
  afterAll(() => app?.close());

  it('answers a JSON body still trickling in after its deadline with 408, and closes the connection', async () => {
    const body = Buffer.from(
      JSON.stringify({
        firstName: 'Slow',
        lastName: 'Loris',
        email: 'slow@example.org',
        phone: '(734) 555-0100',
      }),
    );
    // Ten bytes, then nothing more: a connection held open with a parser waiting.
    const answer = await trickle(
      app.url,
      jsonHead(people.volA, '/api/clients/new', body.length),
      [body.subarray(0, 10)],
      50,
    );
    expect(answer.closed).toBe(true);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'The request took too long to arrive. Please try again.',
      code: expect.any(String),
    });
    expect(answer.ms).toBeGreaterThanOrEqual(JSON_BODY_MS);
    expect(answer.ms).toBeLessThan(NEVER_MS);
    // Nothing was created from half a body.
    const list = await people.volA.get('/api/clients');
    expect(JSON.stringify(list.body)).not.toContain('Loris');
  });

  it('sets no deadline on a request made with inject(): it has no connection to close', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    // Refused before its body is read (no CSRF token), so the body never ends: a deadline set on it
    // would fire after the test, on the stand-in socket inject() gives, which cannot be closed.
    const res = await app.server.app.inject({
      method: 'POST',
      url: '/api/clients/new',
      payload: { firstName: 'In', lastName: 'Jected', email: 'inject@example.org', phone: '555 0100' },
    });
    expect(res.statusCode).toBe(403);
    expect(timers()).toBe(before);
  });

  it('takes a JSON body that arrives in pieces within its deadline', async () => {
    const body = Buffer.from(
      JSON.stringify({
        firstName: 'Quick',
        lastName: 'Pieces',
        email: 'quick@example.org',
        phone: '(734) 555-0100',
      }),
    );
    const thirds = [body.subarray(0, 20), body.subarray(20, 40), body.subarray(40)];
    const answer = await trickle(
      app.url,
      jsonHead(people.volA, '/api/clients/new', body.length).replace('Host:', 'Connection: close\r\nHost:'),
      thirds,
      // Apart enough to arrive as pieces, close enough to end far inside the deadline whatever the
      // machine's load: at a fifth of it apart, timers late by a loaded machine ran past it (a 408).
      JSON_BODY_MS / 20,
    );
    expect(answer.status).toBe(200);
  });

  it('closes a connection whose headers trickle in after their deadline', async () => {
    const answer = await trickle(
      app.url,
      'GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      [Buffer.from('X-Slow: 1\r\n')],
      100,
      NEVER_MS,
    );
    expect(answer.closed).toBe(true);
    expect(answer.status).toBe(408);
    expect(answer.ms).toBeGreaterThanOrEqual(HEADERS_MS);
    expect(answer.ms).toBeLessThan(NEVER_MS);
  });

  it('closes a body still arriving after a refusal that did not wait for it', async () => {
    // No Host: refused before the body is read; the rest of the body never comes.
    const head =
      'POST /api/clients/new HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const answer = await trickle(app.url, head, [Buffer.from('{"first')], 50, NEVER_MS);
    expect(answer.status).toBe(400);
    expect(answer.closed).toBe(true);
    expect(answer.ms).toBeLessThan(NEVER_MS);
  });

  it('lets an upload to a signed URL take as long as it keeps its pace, and no one else', async () => {
    const presign = async (filename: string) => {
      const res = await people.volA.post(`/api/docs/presign/${clientId}`, {
        docType: 'Banking Info',
        filename,
        contentType: 'application/pdf',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return new URL(res.body.url as string);
    };
    const putHead = (path: string, length: number) =>
      `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/pdf\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
    const pieces = (bytes: Buffer, n: number) =>
      Array.from({ length: n }, (_, i) =>
        bytes.subarray((i * bytes.length) / n, ((i + 1) * bytes.length) / n),
      );

    // Far slower than a JSON body may be, at a pace above the minimum: stored.
    const slow = pdfBytes(60_000);
    const slowUrl = await presign('slow.pdf');
    const stored = await trickle(
      app.url,
      putHead(slowUrl.pathname + slowUrl.search, slow.length),
      pieces(slow, 6),
      400,
    );
    expect(stored.status).toBe(200);
    expect(stored.ms).toBeGreaterThan(4 * JSON_BODY_MS);

    // A stalled upload: 408 once its pace falls below the minimum after the grace, nothing listed.
    const stalled = pdfBytes(60_000);
    const stalledUrl = await presign('stalled.pdf');
    const refused = await trickle(
      app.url,
      putHead(stalledUrl.pathname + stalledUrl.search, stalled.length),
      [stalled.subarray(0, 3_000)],
      50,
      NEVER_MS,
    );
    expect(refused.closed).toBe(true);
    expect(refused.status).toBe(408);
    expect(refused.ms).toBeGreaterThanOrEqual(UPLOAD_GRACE_MS);
    const listed = await people.volA.get(`/api/docs/list/${clientId}?docType=Banking%20Info`);
    expect((listed.body.items as { filename: string }[]).map((item) => item.filename)).toEqual(['slow.pdf']);
    // Slow and steady: longer in all than the idle deadline, never silent that long.
    expect(stored.ms).toBeGreaterThan(UPLOAD_IDLE_MS);

    // Most of the file at once, then silence: its average pace would hold the connection for 12 s;
    // the idle deadline closes it.
    const burst = pdfBytes(60_000);
    const burstUrl = await presign('burst.pdf');
    const idle = await trickle(
      app.url,
      putHead(burstUrl.pathname + burstUrl.search, burst.length),
      [burst.subarray(0, 50_000)],
      50,
      NEVER_MS,
    );
    expect(idle.closed).toBe(true);
    expect(idle.status).toBe(408);
    expect(idle.ms).toBeGreaterThanOrEqual(UPLOAD_IDLE_MS);
    expect(idle.ms).toBeLessThan(NEVER_MS);

    // The same path without a valid signature keeps the body deadline.
    const forged = await trickle(
      app.url,
      putHead('/api/storage/put?key=x&sig=y', 1_000),
      [Buffer.from('%PDF-')],
      50,
      NEVER_MS,
    );
    expect(forged.closed).toBe(true);
    expect(forged.ms).toBeLessThan(UPLOAD_GRACE_MS);
  });
});
