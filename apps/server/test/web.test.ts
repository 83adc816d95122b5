import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, register, startApp, type TestApp } from './harness.js';

describe('serving the web app', () => {
  let app: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>VITA</title></head><body></body></html>',
    );
    await fs.writeFile(path.join(dist, 'assets', 'chunk.js'), 'export const x = 1;');
    await fs.writeFile(path.join(dist, 'u.html'), '<!doctype html><html><body>client page</body></html>');
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
});
