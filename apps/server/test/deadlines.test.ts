/**
 * Request deadlines (slowloris): a JSON body that trickles in is answered 408 and closed once its
 * deadline passes; an upload to a signed URL is held only to the whole-request deadline. Each test
 * fails without its control: the connection would stay open as long as the client keeps it.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestDeadlineMs } from '../src/http/protocol.js';
import { createClient, pdfBytes } from './docs-helpers.js';
import { seedPeople, startApp, type Agent, type TestApp } from './harness.js';

const JSON_BODY_MS = 500;
const REQUEST_MS = 3_000;

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
function trickle(url: string, head: string, parts: readonly Buffer[], everyMs: number, guardMs = 10_000): Promise<Trickled> {
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
        body: Buffer.from(rest.join('\r\n').split('\r\n\r\n').slice(1).join('\r\n\r\n'), 'latin1').toString('utf8'),
        ms: performance.now() - started,
        closed,
      });
    };
    socket.on('connect', () => {
      socket.write(head);
      parts.forEach((part, i) => timers.push(setTimeout(() => socket.writable && socket.write(part), (i + 1) * everyMs)));
    });
    socket.on('data', (chunk: Buffer) => (data = Buffer.concat([data, chunk])));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
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
    app = await startApp({}, { deadlines: { jsonBodyMs: JSON_BODY_MS, requestMs: REQUEST_MS, checkEveryMs: 250 } });
    people = await seedPeople(app);
    clientId = await createClient(people.volA);
  });
  afterAll(() => app?.close());

  it('answers a JSON body still trickling in after its deadline with 408, and closes the connection', async () => {
    const body = Buffer.from(JSON.stringify({ firstName: 'Slow', lastName: 'Loris', email: 'slow@example.org', phone: '(734) 555-0100' }));
    // Ten bytes, then nothing more: a connection held open with a parser waiting.
    const answer = await trickle(app.url, jsonHead(people.volA, '/api/clients/new', body.length), [body.subarray(0, 10)], 50);
    expect(answer.closed).toBe(true);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({ error: 'The request took too long to arrive. Please try again.' });
    expect(answer.ms).toBeGreaterThanOrEqual(JSON_BODY_MS);
    expect(answer.ms).toBeLessThan(REQUEST_MS);
    // Nothing was created from half a body.
    const list = await people.volA.get('/api/clients');
    expect(JSON.stringify(list.body)).not.toContain('Loris');
  });

  it('takes a JSON body that arrives in pieces within its deadline', async () => {
    const body = Buffer.from(JSON.stringify({ firstName: 'Quick', lastName: 'Pieces', email: 'quick@example.org', phone: '(734) 555-0100' }));
    const thirds = [body.subarray(0, 20), body.subarray(20, 40), body.subarray(40)];
    const answer = await trickle(
      app.url,
      jsonHead(people.volA, '/api/clients/new', body.length).replace('Host:', 'Connection: close\r\nHost:'),
      thirds,
      JSON_BODY_MS / 5,
    );
    expect(answer.status).toBe(200);
  });

  it('holds an upload to a signed URL only to the whole-request deadline', async () => {
    const presign = async (filename: string) => {
      const res = await people.volA.post(`/api/docs/presign/${clientId}`, { docType: 'Banking Info', filename, contentType: 'application/pdf' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return new URL(res.body.url as string);
    };
    const putHead = (url: URL, length: number) =>
      `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/pdf\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
    const pieces = (bytes: Buffer, n: number) => Array.from({ length: n }, (_, i) => bytes.subarray((i * bytes.length) / n, ((i + 1) * bytes.length) / n));

    // Slower than a JSON body may be, well within the whole-request deadline: stored.
    const slow = pdfBytes(40_000);
    const stored = await trickle(app.url, putHead(await presign('slow.pdf'), slow.length), pieces(slow, 4), (JSON_BODY_MS * 3) / 4);
    expect(stored.status).toBe(200);
    expect(stored.ms).toBeGreaterThan(2 * JSON_BODY_MS);

    // Still arriving after the whole-request deadline: 408, closed, nothing listed.
    const stalled = pdfBytes(40_000);
    const refused = await trickle(app.url, putHead(await presign('stalled.pdf'), stalled.length), [stalled.subarray(0, 5_000)], 50);
    expect(refused.closed).toBe(true);
    expect(refused.status).toBe(408);
    expect(refused.ms).toBeGreaterThanOrEqual(REQUEST_MS);
    const listed = await people.volA.get(`/api/docs/list/${clientId}?docType=Banking%20Info`);
    expect((listed.body.items as { filename: string }[]).map((item) => item.filename)).toEqual(['slow.pdf']);
  });
});

describe('the whole-request deadline', () => {
  it('is 30 minutes, or as long as the largest allowed upload takes at 50 KB/s', () => {
    expect(requestDeadlineMs(25 * 1024 * 1024)).toBe(30 * 60_000);
    expect(requestDeadlineMs(1024 * 1024 * 1024)).toBe(20_972 * 1000);
  });
});
