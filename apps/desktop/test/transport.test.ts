/**
 * The desktop API transport end to end, minus Electron: renderer adapter → (IPC payload parsed with
 * the zod schema, as main does) → main's cookie-keeping relay → a real HTTP server.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerFetch } from '../src/main/server-fetch.js';
import { createBridgeTransport } from '../src/renderer/bridge-fetch.js';
import { ApiRequestSchema } from '../src/shared/schemas.js';

interface Seen {
  method: string;
  url: string;
  cookie: string | undefined;
  csrf: string | undefined;
  body: Buffer;
}

const seen: Seen[] = [];
let api: Server;
let storage: Server;
let apiUrl: string;
let storageUrl: string;

async function record(req: IncomingMessage): Promise<Seen> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const entry = {
    method: req.method ?? '',
    url: req.url ?? '',
    cookie: req.headers.cookie,
    csrf: req.headers['x-csrf-token'] as string | undefined,
    body: Buffer.concat(chunks),
  };
  seen.push(entry);
  return entry;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  api = createServer((req, res) => {
    void record(req).then((entry) => {
      const signedIn = entry.cookie?.includes('sid=session-1') ?? false;
      res.setHeader('content-type', 'application/json');
      if (entry.url.startsWith('/api/me')) {
        res.setHeader('set-cookie', 'csrf_token=tok%2B1; Path=/; SameSite=Strict');
        res.statusCode = signedIn ? 200 : 401;
        return res.end(JSON.stringify(signedIn ? { user: 'v@example.org' } : { error: 'Not signed in' }));
      }
      if (entry.method === 'POST' && entry.csrf !== 'tok+1') {
        res.statusCode = 403;
        return res.end(JSON.stringify({ error: 'CSRF' }));
      }
      if (entry.url === '/api/auth/login-verify') {
        res.setHeader('set-cookie', 'sid=session-1; HttpOnly; Path=/; SameSite=Strict');
        return res.end(JSON.stringify({ ok: true }));
      }
      if (entry.url === '/api/docs/presign/client-1') {
        return res.end(JSON.stringify({ url: `${storageUrl}/put/1?sig=abc`, key: 'k' }));
      }
      if (entry.url === '/api/auth/logout') {
        res.setHeader('set-cookie', 'sid=; Path=/; Max-Age=0');
        res.statusCode = 204;
        return res.end();
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: 'Not found' }));
    });
  });
  storage = createServer((req, res) => {
    void record(req).then(() => {
      res.statusCode = 200;
      res.end();
    });
  });
  apiUrl = await listen(api);
  storageUrl = await listen(storage);
});

afterAll(async () => {
  await new Promise((resolve) => api.close(resolve));
  await new Promise((resolve) => storage.close(resolve));
});

function desk() {
  const main = createServerFetch({ serverUrl: apiUrl });
  // What crosses IPC is structured-cloned and parsed by main's schema; do the same here.
  const transport = createBridgeTransport(
    { apiFetch: (request) => main.relay(ApiRequestSchema.parse(structuredClone(request)), 'csrf_token') },
    'csrf_token',
  );
  return { main, transport };
}

describe('desktop API transport', () => {
  it('keeps the session in main, gives the page only the CSRF token, and echoes it on writes', async () => {
    const { transport } = desk();
    expect(transport.getCookie('csrf_token')).toBeUndefined();

    const me = await transport.fetch(`${apiUrl}/api/me?t=1`, { credentials: 'include' });
    expect(me.status).toBe(401);
    expect(await me.json()).toEqual({ error: 'Not signed in' });
    expect(transport.getCookie('csrf_token')).toBe('tok+1');

    const verify = await transport.fetch(`${apiUrl}/api/auth/login-verify`, {
      method: 'POST',
      credentials: 'include',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': transport.getCookie('csrf_token') ?? '',
        cookie: 'sid=forged',
      },
      body: JSON.stringify({ code: '123456', email: 'v@example.org' }),
    });
    expect(verify.status).toBe(200);
    expect(verify.headers.get('set-cookie')).toBeNull();
    expect(seen.at(-1)?.cookie).not.toContain('forged');
    expect(transport.getCookie('sid')).toBeUndefined();

    const after = await transport.fetch(`${apiUrl}/api/me?t=2`, { credentials: 'include' });
    expect(after.status).toBe(200);
    expect(seen.at(-1)?.cookie).toContain('sid=session-1');

    const logout = await transport.fetch(`${apiUrl}/api/auth/logout`, {
      method: 'POST',
      headers: { 'x-csrf-token': 'tok+1' },
      body: '{}',
    });
    expect(logout.status).toBe(204);
    expect((await transport.fetch(`${apiUrl}/api/me?t=3`)).status).toBe(401);
  });

  it('reaches other addresses only through presigned URLs the server handed out, without cookies', async () => {
    const { main, transport } = desk();
    await expect(
      transport.fetch(`${storageUrl}/put/1?sig=abc`, { method: 'PUT', body: 'x' }),
    ).rejects.toThrow('only talks to its server');
    await expect(main.fetch('https://elsewhere.example/', {})).rejects.toThrow('only talks to its server');

    await transport.fetch(`${apiUrl}/api/me?t=1`);
    const presign = await transport.fetch(`${apiUrl}/api/docs/presign/client-1`, {
      method: 'POST',
      headers: { 'x-csrf-token': transport.getCookie('csrf_token') ?? '' },
      body: '{}',
    });
    const { url } = (await presign.json()) as { url: string };

    const bytes = new Uint8Array([37, 80, 68, 70, 0, 255]);
    const put = await transport.fetch(url, {
      method: 'PUT',
      credentials: 'omit',
      headers: { 'content-type': 'application/pdf' },
      body: new Blob([bytes]),
    });
    expect(put.status).toBe(200);
    const upload = seen.at(-1);
    expect(upload?.url).toBe('/put/1?sig=abc');
    expect(upload?.cookie).toBeUndefined();
    expect([...(upload?.body ?? [])]).toEqual([...bytes]);
  });
});
