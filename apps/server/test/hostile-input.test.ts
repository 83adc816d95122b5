/**
 * Refusals the hostile-input fuzzer (reliability scenario 6) found without the `{ "error": "…" }`
 * JSON every refusal must carry, or with wording no person could act on. Each fails if its fix is undone.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './harness.js';

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
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: Buffer.from(rest.join('\r\n\r\n'), 'latin1').toString('utf8') });
    });
  });
}

/** The answer is JSON `{ error }` and nothing else. */
function errorOf(answer: RawAnswer): string {
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['error']);
  return body.error as string;
}

describe('hostile input', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers an Expect header it cannot meet in JSON', async () => {
    const answer = await raw(app.url, 'GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(417);
    expect(errorOf(answer)).toBe('The server cannot meet the Expect header of this request. Send it without one.');
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
    const malformed = await raw(app.url, 'POST /api/auth/login-init HTTP/1.1\r\nHost: 127.0.0.1\r\nX-No-Colon\r\n\r\n');
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed)).toBe('The request is not valid.');
    const nul = await raw(app.url, 'GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Nul: a\u0000b\r\n\r\n');
    expect(nul.status).toBe(400);
    expect(errorOf(nul)).toBe('The request is not valid.');
    const huge = await raw(app.url, `GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: a=${'b'.repeat(20_000)}\r\n\r\n`);
    expect(huge.status).toBe(431);
    expect(errorOf(huge)).toBe('The request headers or address are too long. Reload the page and try again.');
  });
});
