import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, register, startApp, type TestApp } from './harness.js';

const CHUNK = 'export const x = 1;';
const ROUTE_CHUNKS = {
  routes: [
    { path: '/', scripts: [], styles: [] },
    { path: '/login', scripts: ['/assets/login-a1.js', '/assets/field-b2.js'], styles: [] },
    { path: '/clients/new', scripts: ['/assets/new-client-c3.js'], styles: [] },
    { path: '/clients/:clientId/docs', scripts: ['/assets/client-docs-d4.js'], styles: [] },
    {
      path: '/clients/:clientId/docs/:docType',
      scripts: [
        '/assets/category-e5.js',
        '/assets/x.js"><script>alert(1)</script>',
        'https://elsewhere.example/x.js',
      ],
      styles: ['/assets/documents-f6.css'],
    },
  ],
};

const FIRST_PAINT = {
  programmeUrlPlaceholder: 'https://programme-url.invalid/',
  programmeUrl: 'https://built.example.org/',
  routes: [
    {
      path: '/',
      markup: '<h1>Welcome</h1><a href="https://programme-url.invalid/">Visit</a><p>$&amp; $1</p>',
    },
    { path: '/login', markup: '<h1>Login</h1>' },
  ],
};

describe('serving the web app', () => {
  let app: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>VITA</title></head><body><div id="root"></div></body></html>',
    );
    await fs.writeFile(path.join(dist, 'assets', 'chunk.js'), CHUNK);
    // As the build leaves them: a compressed copy of each script beside it (apps/web/vite.config.ts).
    await fs.writeFile(path.join(dist, 'assets', 'chunk.js.br'), brotliCompressSync(CHUNK));
    await fs.writeFile(path.join(dist, 'assets', 'chunk.js.gz'), gzipSync(CHUNK));
    await fs.writeFile(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    await fs.writeFile(path.join(dist, 'u.html'), '<!doctype html><html><body>client page</body></html>');
    // Which files each route needs before it shows, as the build writes it (apps/web/scripts/route-chunks.ts).
    await fs.mkdir(path.join(dist, '.vite'));
    await fs.writeFile(path.join(dist, '.vite', 'route-chunks.json'), JSON.stringify(ROUTE_CHUNKS));
    // The first paints of the landing and Login, as the build writes them (apps/web/scripts/first-paint.ts).
    await fs.writeFile(path.join(dist, '.vite', 'first-paint.json'), JSON.stringify(FIRST_PAINT));
    app = await startApp({ WEB_DIST: dist, PROGRAMME_URL: 'https://vita.example.edu/?a=1&b="2"' });
  });
  afterAll(async () => {
    await app?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('serves the page at / and every app route, with the programme link as a meta tag', async () => {
    for (const route of ['/', '/clients/abc/docs/W-2', '/no/such/page']) {
      const res = await fetch(app.url + route);
      expect(res.status, route).toBe(200);
      const html = await res.text();
      expect(html).toContain(
        '<meta name="vita-programme-url" content="https://vita.example.edu/?a=1&amp;b=&quot;2&quot;">',
      );
    }
    expect((await app.agent().get('/api/nope')).body).toEqual({
      error: 'Not found.',
      code: expect.any(String),
    });
  });

  it("links each route's screen files from its page, so the browser fetches them with the entry", async () => {
    const page = async (route: string) => (await fetch(app.url + route)).text();
    const preloads = (html: string) =>
      [...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]* href="([^"]+)">/g)].map((m) => m[1]);
    expect(preloads(await page('/login'))).toEqual(['/assets/login-a1.js', '/assets/field-b2.js']);
    expect(preloads(await page('/login?next=/clients'))).toEqual([
      '/assets/login-a1.js',
      '/assets/field-b2.js',
    ]);
    // A fixed segment before a parameter: /clients/new is not a client's documents.
    expect(preloads(await page('/clients/new'))).toEqual(['/assets/new-client-c3.js']);
    expect(preloads(await page('/clients/abc/docs'))).toEqual(['/assets/client-docs-d4.js']);
    // Only the build's own files are linked: nothing in the map adds markup or another origin.
    const category = await page('/clients/abc/docs/W-2%20(Acme)');
    expect(preloads(category)).toEqual(['/assets/category-e5.js', '/assets/documents-f6.css']);
    expect(category).toContain('<link rel="preload" as="style" crossorigin href="/assets/documents-f6.css">');
    expect(category).not.toContain('<script>');
    expect(category).not.toContain('elsewhere');
    // The landing needs nothing beyond the entry; an unknown address gets the page as built.
    for (const route of ['/', '/no/such/page', '/clients/abc/docs/W-2/more'])
      expect(preloads(await page(route))).toEqual([]);
    // The settings stay on every page.
    expect(category).toContain('<meta name="vita-programme-url"');
    // The map itself is the server's, not an address of the app.
    expect((await fetch(`${app.url}/.vite/route-chunks.json`)).headers.get('content-type')).toMatch(
      /^text\/html/,
    );
  });

  it("puts the landing's and Login's first paint in their pages, with the server's programme link", async () => {
    const page = async (route: string) => (await fetch(app.url + route)).text();
    // The programme link as the server's PROGRAMME_URL, escaped; `$` in the markup stays as it is.
    expect(await page('/')).toContain(
      '<div id="root"><h1>Welcome</h1><a href="https://vita.example.edu/?a=1&amp;b=&quot;2&quot;">Visit</a><p>$&amp; $1</p></div>',
    );
    expect(await page('/login?next=/clients')).toContain('<div id="root"><h1>Login</h1></div>');
    // Any other address: the page as built, which the app renders itself.
    for (const route of ['/clients/new', '/register', '/no/such/page'])
      expect(await page(route), route).toContain('<div id="root"></div>');
  });

  it('serves the client page of a request link at /u, with no referrer sent on', async () => {
    const res = await fetch(`${app.url}/u?x=1`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('client page');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await (await fetch(`${app.url}/ux`)).text()).not.toContain('client page');
  });

  it('serves static chunks without touching the session cookies', async () => {
    await register(app, 'admin@example.org');
    const admin = await signIn(app, 'admin@example.org');
    const token = admin.cookies.get('csrf_token');
    const chunk = await admin.get('/assets/chunk.js');
    expect(chunk.status).toBe(200);
    expect(chunk.headers.getSetCookie()).toEqual([]);
    expect(admin.cookies.get('csrf_token')).toBe(token);
    expect(
      (
        await admin.post('/api/clients/new', {
          firstName: 'A',
          lastName: 'B',
          email: 'c@example.org',
          phone: '555 010 0100',
        })
      ).status,
    ).toBe(200);
  });

  it('sends the built files compressed when the browser accepts it, hashed ones cached for a year', async () => {
    const chunk = (acceptEncoding: string) =>
      fetch(`${app.url}/assets/chunk.js`, { headers: { 'accept-encoding': acceptEncoding } });
    for (const [accepted, sent] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const res = await chunk(accepted);
      expect(res.status, accepted).toBe(200);
      expect(res.headers.get('content-encoding'), accepted).toBe(sent);
      expect(res.headers.get('content-type'), accepted).toMatch(/^(text|application)\/javascript/);
      expect(res.headers.get('vary'), accepted).toMatch(/accept-encoding/i);
      expect(res.headers.get('cache-control'), accepted).toBe('public, max-age=31536000, immutable');
      // fetch undoes the encoding: the browser gets the script itself.
      expect(await res.text(), accepted).toBe(CHUNK);
    }
    // The compressed copies are not pages of their own.
    expect((await fetch(`${app.url}/assets/chunk.js.br`)).headers.get('content-type')).toMatch(/^text\/html/);
    // The service worker keeps its name across builds: asked for again each time, never kept.
    const worker = await fetch(`${app.url}/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    // The page itself too: a new build is picked up on the next visit.
    expect((await fetch(`${app.url}/`)).headers.get('cache-control')).toBe('no-cache');
  });
});
