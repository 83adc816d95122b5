import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { FetchLike } from '../ports.js';
import { createCookieJarFetch } from '../testing/index.js';
import { createApiClient, readCookie } from './client.js';
import { ENDPOINT_NAMES } from './endpoint-names.js';
import { ApiError } from './errors.js';
import { uploadToPresignedUrl } from './upload.js';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

/** A fetch that records requests and answers from a script (default: `{}` 200). */
function scriptedFetch(answer: (sent: Sent) => Response = () => Response.json({ ok: true })) {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (url, init = {}) => {
    const request: Sent = {
      url,
      method: init.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      credentials: init.credentials,
    };
    sent.push(request);
    return answer(request);
  };
  return { fetch, sent };
}

const user = {
  email: 'vera@example.org',
  firstName: 'Vera',
  lastName: 'V',
  role: 'volunteer',
  isAdmin: false,
  approved: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('createApiClient', () => {
  it('has one method per call of the contract, named as in its table', async () => {
    const { endpoints } = await import('./endpoints.js');
    expect([...ENDPOINT_NAMES].sort()).toEqual(Object.keys(endpoints).sort());
    expectTypeOf<(typeof ENDPOINT_NAMES)[number]>().toEqualTypeOf<keyof typeof endpoints>();
    const { fetch, sent } = scriptedFetch();
    const api = createApiClient({ fetch });
    expect(Object.keys(api).sort()).toEqual(Object.keys(endpoints).sort());
    // Resolving to the client gives the client (it has no `then`).
    expect(await Promise.resolve(api)).toBe(api);
    expect(sent).toEqual([]);
  });

  it('parses the session check by its schema, like every answer', async () => {
    const { fetch } = scriptedFetch(() => Response.json({ user: { ...user, role: 'root' } }));
    await expect(createApiClient({ fetch }).me()).rejects.toMatchObject({ kind: 'response' });
  });

  it('echoes the __Host- CSRF cookie a server on https sets, before a plain one', async () => {
    const { fetch, sent } = scriptedFetch(() => Response.json({ ok: true, emailSent: true }));
    const cookies: Record<string, string> = { csrf_token: 'stale', '__Host-csrf_token': 'current' };
    const api = createApiClient({ fetch, getCookie: (name) => cookies[name] });
    await api.loginInit({ body: { email: 'vera@example.org', pin: 'pin' } });
    expect(sent[0]?.headers).toMatchObject({ 'x-csrf-token': 'current' });
  });

  it('sends JSON with credentials and the CSRF header on state-changing calls only', async () => {
    const { fetch, sent } = scriptedFetch((r) =>
      r.method === 'GET' ? Response.json({ items: [] }) : Response.json({ ok: true, emailSent: true }),
    );
    const api = createApiClient({
      fetch,
      getCookie: (name) => (name === 'csrf_token' ? 'tok123' : undefined),
    });

    await api.loginInit({ body: { email: 'vera@example.org', pin: 'pin' } });
    await api.listClients();

    expect(sent[0]).toEqual({
      url: '/api/auth/login-init',
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': 'tok123' },
      body: { email: 'vera@example.org', pin: 'pin' },
      credentials: 'include',
    });
    expect(sent[1]).toMatchObject({ url: '/api/clients', method: 'GET', credentials: 'include' });
    expect(sent[1]!.headers).not.toHaveProperty('x-csrf-token');
  });

  it('fills and encodes path parameters, serialises the query, and sends the header on DELETE', async () => {
    const { fetch, sent } = scriptedFetch();
    const api = createApiClient({ baseUrl: 'https://vita.example/api/', fetch, getCookie: () => 't' });
    await api.deleteDocType({ params: { id: 'abcDEF12345' }, query: { docType: 'W-2 (Acme & Co)' } });
    await api.deleteUser({ params: { email: 'a+b@example.org' } });
    expect(sent[0]).toMatchObject({
      url: 'https://vita.example/api/clients/abcDEF12345/docs/types?docType=W-2+%28Acme+%26+Co%29',
      method: 'DELETE',
      body: undefined,
    });
    expect(sent[0]!.headers['x-csrf-token']).toBe('t');
    expect(sent[1]!.url).toBe('https://vita.example/api/admin/users/a%2Bb%40example.org');
  });

  it('adds a cache-busting timestamp to GET /me from the clock', async () => {
    const { fetch, sent } = scriptedFetch(() => Response.json({ user }));
    const api = createApiClient({ fetch, clock: { now: () => 1234 } });
    const me = await api.me();
    expect(sent[0]!.url).toBe('/api/me?t=1234');
    expect(me.user.email).toBe('vera@example.org');
  });

  it('reads the server settings with GET /config, keeping only what the contract names', async () => {
    const { fetch, sent } = scriptedFetch(() =>
      Response.json({ maxUploadBytes: 26_214_400, secret: 'never' }),
    );
    const settings = await createApiClient({ fetch }).config();
    expect(sent[0]).toMatchObject({ url: '/api/config', method: 'GET' });
    expect(settings).toEqual({ maxUploadBytes: 26_214_400 });
    const broken = scriptedFetch(() => Response.json({ maxUploadBytes: -1 }));
    await expect(createApiClient({ fetch: broken.fetch }).config()).rejects.toMatchObject({
      kind: 'response',
    });
  });

  it('fetches the CSRF cookie with GET /me first when the page has none yet', async () => {
    let cookie: string | undefined;
    const { fetch, sent } = scriptedFetch((r) => {
      if (r.url.startsWith('/api/me')) {
        cookie = 'fresh';
        return Response.json({ error: 'Please sign in.' }, { status: 401 });
      }
      return Response.json({ ok: true, emailSent: true });
    });
    const api = createApiClient({ fetch, getCookie: () => cookie });
    await api.forgotInit({ body: { email: 'x@example.org' } });
    expect(sent.map((s) => s.url.replace(/\?.*/, ''))).toEqual(['/api/me', '/api/auth/forgot-init']);
    expect(sent[1]!.headers['x-csrf-token']).toBe('fresh');
  });

  it("raises ApiError with the server's error field", async () => {
    const { fetch } = scriptedFetch(() =>
      Response.json({ error: 'Email or Password PIN is incorrect.' }, { status: 401 }),
    );
    const api = createApiClient({ fetch });
    const error = await api
      .loginInit({ body: { email: 'a@example.org', pin: 'x' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'http',
      status: 401,
      message: 'Email or Password PIN is incorrect.',
    });
  });

  it('falls back to the status text when the body has no error field', async () => {
    const { fetch } = scriptedFetch(
      () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    await expect(createApiClient({ fetch }).listClients()).rejects.toMatchObject({
      status: 502,
      message: 'Bad Gateway',
    });
  });

  it('reports a network failure in the product’s words (never “Failed to fetch”) and a response that breaks the contract', async () => {
    const offline = createApiClient({
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(offline.listClients()).rejects.toMatchObject({
      kind: 'network',
      status: 0,
      message: 'This page needs a connection.',
    });
    const { fetch } = scriptedFetch(() => Response.json({ item: [] }));
    await expect(createApiClient({ fetch }).listClients()).rejects.toMatchObject({
      kind: 'response',
      status: 200,
    });
  });

  it('returns the raw Response for the ZIP download', async () => {
    const { fetch, sent } = scriptedFetch(
      () => new Response(new Uint8Array([80, 75, 3, 4]), { headers: { 'content-type': 'application/zip' } }),
    );
    const response = await createApiClient({ fetch }).downloadAll({
      params: { id: 'abcDEF12345' },
      query: { include: 'W-2,1099-B' },
    });
    expect(sent[0]!.url).toBe('/api/clients/abcDEF12345/docs/download-all?include=W-2%2C1099-B');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([80, 75, 3, 4]));
  });

  it('has one typed method per endpoint', () => {
    const api = createApiClient({ fetch: scriptedFetch().fetch });
    expectTypeOf(api.renameDoc).parameter(0).toEqualTypeOf<{ body: { key: string; filename: string } }>();
    expectTypeOf(api.renameDoc).returns.resolves.toHaveProperty('newKey');
    expectTypeOf(api.downloadAll).returns.resolves.toEqualTypeOf<Response>();
    expectTypeOf(api.loginInit).parameter(0).toEqualTypeOf<{ body: { email: string; pin: string } }>();
    expectTypeOf(api.listUsers)
      .parameter(0)
      .toEqualTypeOf<{ query?: { status?: 'pending' | 'all' } } | undefined>();
    expect(typeof api.audit).toBe('function');
  });
});

describe('the session check without its schema in the first download', () => {
  /**
   * A fresh client module whose import of the session check's schema waits for `gate` (or fails when
   * `fail` says so), as a chunk on a slow or dropped connection would.
   */
  async function clientWithSlowSchema(gate: Promise<void>, fail: () => boolean = () => false) {
    vi.resetModules();
    vi.doMock('./session-contract.js', async (original: () => Promise<unknown>) => {
      await gate;
      if (fail()) throw new TypeError('Failed to fetch dynamically imported module');
      return original();
    });
    return import('./client.js');
  }
  afterEach(() => {
    vi.doUnmock('./session-contract.js');
  });

  it('sends GET /me before the schema has arrived, then parses the answer with it', async () => {
    let release = () => {};
    const { createApiClient: create } = await clientWithSlowSchema(new Promise((r) => (release = r)));
    const { fetch, sent } = scriptedFetch(() => Response.json({ user }));
    const answer = create({ fetch }).me();
    await vi.waitFor(() => expect(sent.map((s) => s.url)).toEqual([expect.stringMatching(/^\/api\/me\?t=/)]));
    release();
    await expect(answer).resolves.toEqual({ user });
    // Same checks as before: an answer that breaks the schema is refused.
    const bad = scriptedFetch(() => Response.json({ user: { ...user, role: 'root' } }));
    await expect(create({ fetch: bad.fetch }).me()).rejects.toMatchObject({ kind: 'response' });
  });

  it('reports a schema that cannot be fetched as a network failure, and fetches it again next time', async () => {
    let failing = true;
    const { createApiClient: create, httpError: readError } = await clientWithSlowSchema(
      Promise.resolve(),
      () => failing,
    );
    const { fetch } = scriptedFetch(() => Response.json({ user }));
    await expect(create({ fetch }).me()).rejects.toMatchObject({ kind: 'network' });
    // An error answer read without the schema says its status text.
    const refusal = () =>
      new Response(JSON.stringify({ error: 'Not yours.', code: 'forbidden' }), {
        status: 403,
        statusText: 'Forbidden',
      });
    await expect(readError(refusal())).resolves.toMatchObject({ message: 'Forbidden', status: 403 });
    failing = false;
    await expect(create({ fetch }).me()).resolves.toEqual({ user });
    await expect(readError(refusal())).resolves.toMatchObject({ message: 'Not yours.', code: 'forbidden' });
  });
});

describe('uploadToPresignedUrl', () => {
  it('PUTs the file with the upload content type and no cookies', async () => {
    const { fetch, sent } = scriptedFetch(() => new Response(null, { status: 200 }));
    await uploadToPresignedUrl(
      'https://store.example/put?sig=1',
      new File(['%PDF'], 'scan.PDF', { type: '' }),
      { fetch },
    );
    await uploadToPresignedUrl('https://store.example/put?sig=2', new File(['x'], 'photo', { type: '' }), {
      fetch,
    });
    await uploadToPresignedUrl(
      'https://store.example/put?sig=3',
      new File(['x'], 'a.png', { type: 'image/png' }),
      { fetch },
    );
    expect(sent.map((s) => [s.method, s.headers['content-type'], s.credentials])).toEqual([
      ['PUT', 'application/pdf', 'omit'],
      ['PUT', 'image/jpeg', 'omit'],
      ['PUT', 'image/png', 'omit'],
    ]);
  });

  it('raises "Upload failed: <status>" followed by the response body', async () => {
    const { fetch } = scriptedFetch(() => new Response('SignatureDoesNotMatch', { status: 403 }));
    await expect(
      uploadToPresignedUrl('https://store.example/put', new File(['x'], 'a.pdf'), { fetch }),
    ).rejects.toMatchObject({ message: 'Upload failed: 403 SignatureDoesNotMatch', status: 403 });
  });

  it('reports progress through the transport port', async () => {
    const seen: [number, number][] = [];
    await uploadToPresignedUrl('u', new File(['12345'], 'a.pdf'), {
      putFile: async (_url, file, contentType, onProgress) => {
        expect(contentType).toBe('application/pdf');
        onProgress?.(2, file.size);
        onProgress?.(5, file.size);
        return { ok: true, status: 200, body: '' };
      },
      onProgress: (loaded, total) => void seen.push([loaded, total]),
    });
    expect(seen).toEqual([
      [2, 5],
      [5, 5],
    ]);
  });
});

describe('cookies', () => {
  it('readCookie finds one cookie in a document.cookie string', () => {
    expect(readCookie('a=1; csrf_token=ab%2Bc; b=2', 'csrf_token')).toBe('ab+c');
    expect(readCookie('a=1', 'csrf_token')).toBeUndefined();
  });

  it('the cookie-jar fetch keeps Set-Cookie answers and sends them back to the same origin', async () => {
    const seen: (string | null)[] = [];
    const server: FetchLike = async (url, init) => {
      seen.push(new Headers(init?.headers).get('cookie'));
      const headers = new Headers();
      if (url.endsWith('/login')) {
        headers.append('set-cookie', 'sid=s1; HttpOnly; Path=/; SameSite=Strict');
        headers.append('set-cookie', 'csrf_token=c1; Path=/');
      }
      if (url.endsWith('/logout')) headers.append('set-cookie', 'sid=; Max-Age=0; Path=/');
      return new Response('{}', { headers });
    };
    const jar = createCookieJarFetch(server, { pageUrl: 'http://a.test/' });
    await jar.fetch('http://a.test/login');
    await jar.fetch('http://a.test/me');
    await jar.fetch('http://b.test/other');
    expect(jar.cookies()).toEqual({ sid: 's1', csrf_token: 'c1' });
    expect(jar.getCookie('sid')).toBeUndefined(); // HttpOnly: no script reads it
    await jar.fetch('http://a.test/logout');
    await jar.fetch('http://a.test/me');
    expect(seen).toEqual([null, 'sid=s1; csrf_token=c1', null, 'sid=s1; csrf_token=c1', 'csrf_token=c1']);
    expect(jar.getCookie('csrf_token')).toBe('c1');
    expect(jar.cookieHeader()).toBe('csrf_token=c1');
  });

  it('the cookie-jar fetch ends a Max-Age cookie on time, however often it is sent', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const jar = createCookieJarFetch(
        async () => new Response('{}', { headers: { 'set-cookie': 'grant=g1; Max-Age=60; Path=/' } }),
        { pageUrl: 'http://a.test/' },
      );
      await jar.fetch('http://a.test/grant');
      for (let second = 0; second < 59; second += 1) {
        vi.advanceTimersByTime(1000);
        expect(jar.cookieHeader()).toBe('grant=g1');
      }
      vi.advanceTimersByTime(1000);
      expect(jar.cookieHeader()).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });
});
