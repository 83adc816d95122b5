// How a screen's files reach the phone (docs/architecture.md#ui-packagesui-and-web-appsweb): the page
// the server sends for an address links what that address's screen needs before it shows, so the
// browser fetches those files with the entry, once each, instead of one round trip after it has run;
// and a screen does not wait for the parts it can show without.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Route } from '@playwright/test';
import { person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { categoryScreen, pdfFixture, uploadViaApi } from './support/documents.js';
import { atPath, seeHeading, signIn } from './support/journeys.js';
import { startWithClient } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Preload');

/** The build's map of what each route needs (apps/web/scripts/route-chunks.ts). */
const routeChunks = JSON.parse(
  readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/.vite/route-chunks.json'),
    'utf8',
  ),
) as { routes: { path: string; scripts: string[] }[] };

test.describe("a route's screen files", () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let clientId = '';
  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Ada', async (api, id, { server }) => {
      await uploadViaApi(api, server.url, id, 'Banking Info', await pdfFixture('statement.pdf'));
    }));
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test("are fetched from the page's links for /login, once each, before its form shows", async () => {
    const login = routeChunks.routes.find((route) => route.path === '/login')?.scripts ?? [];
    expect(login.length).toBeGreaterThan(0);
    const { page, context } = await app.visit();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto('/login');
    await seeHeading(page, 'Login');
    const timings = new Map(
      await page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
          (entry) =>
            [new URL(entry.name).pathname, { start: entry.startTime, end: entry.responseEnd }] as const,
        ),
      ),
    );
    const entry = [...timings].find(([file]) => /^\/assets\/main-[\w-]+\.js$/.test(file))?.[1];
    expect(entry).toBeDefined();
    for (const file of login) {
      expect(
        requested.filter((request) => request === file),
        file,
      ).toHaveLength(1);
      // Asked for while the entry was still arriving: the entry's own import could only ask once it had run.
      expect(timings.get(file)?.start, file).toBeLessThan(entry?.end ?? 0);
    }
    await context.close();
  });

  test("lists a category's files before the adding of files and the upload queues' code have arrived", async () => {
    const { page, context } = await app.visit();
    await signIn(page, app.server, vera);
    await atPath(page, '/home');
    // Held back until the list shows: without them, a screen that waited for them would not show.
    const held: Route[] = [];
    const upload = /\/assets\/(category-upload|upload-queues-engine)-[\w-]+\.js$/;
    await page.route(upload, (route) => void held.push(route));
    await page.goto(`/clients/${clientId}/docs/Banking%20Info`);
    const screen = categoryScreen(page);
    await screen.row('statement.pdf').waitFor();
    await page.getByRole('heading', { name: 'Add files' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(1);
    expect(await screen.uploadFiles.count()).toBe(0);
    expect(held.length).toBeGreaterThan(0);
    const listAt = async () => (await screen.uploaded.boundingBox())?.y ?? NaN;
    const before = await listAt();

    for (const route of held) await route.continue();
    await page.unroute(upload);
    await screen.uploadFiles.waitFor({ state: 'attached' });
    // The panel kept about its own height while it loaded: the list below hardly moved.
    expect(Math.abs((await listAt()) - before)).toBeLessThan(16);
    await screen.uploadFiles.setInputFiles([await pdfFixture('statement-2.pdf')]);
    await screen.uploadButton.click();
    await screen.row('statement-2.pdf').waitFor();
    await context.close();
  });

  test('/login paints its form first: never a loading line before it', async () => {
    const { page, context } = await app.visit();
    // Every text the page's main area shows, in order, from before the app's first render.
    await page.addInitScript(() => {
      const shown: string[] = [];
      (window as Window & { shown?: string[] }).shown = shown;
      new MutationObserver(() => {
        const text = document.querySelector('main')?.textContent ?? '';
        if (text && shown.at(-1) !== text) shown.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto('/login');
    await seeHeading(page, 'Login');
    const shown = await page.evaluate(() => (window as Window & { shown?: string[] }).shown ?? []);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((text) => text.includes('Loading'))).toEqual([]);
    await context.close();
  });

  test('sends GET /me first: before the session schema, the contract or any other call', async () => {
    const { page, context } = await app.visit();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    // The login screen asks the server whether passkeys are offered: a call that needs the contract.
    const asked = page.waitForResponse((response) =>
      new URL(response.url()).pathname.startsWith('/api/auth/'),
    );
    await page.goto('/login');
    await seeHeading(page, 'Login');
    await asked;
    const me = requested.indexOf('/api/me');
    const later = requested.filter(
      (file) => /^\/assets\/(session-contract|endpoints)-[\w-]+\.js$/.test(file) || file.startsWith('/api/'),
    );
    expect(me).toBeGreaterThan(-1);
    expect(later[0]).toBe('/api/me');
    expect(later.some((file) => file.includes('session-contract'))).toBe(true);
    await context.close();
  });

  test('shows the landing from the page itself, before any script has run', async () => {
    // With scripts off, what shows is the page as the server sent it: the first paint.
    const context = await app.browser.newContext({ javaScriptEnabled: false, baseURL: app.server.url });
    const page = await context.newPage();
    await page.goto('/');
    await seeHeading(page, 'Upload and manage client tax documents securely');
    await page.getByRole('link', { name: 'Login' }).waitFor();
    await page.getByRole('link', { name: 'Register' }).waitFor();
    await context.close();
  });

  test("hydrates the landing's first paint: the page's own elements stay", async () => {
    const { page, context, errors } = await app.visit();
    // The page's heading, marked while the entry is on its way: hydration keeps the element, a new
    // render would replace it.
    await page.route('**/assets/main-*.js', async (route) => {
      await page
        .getByRole('heading', { level: 1 })
        .evaluate((heading) => Object.assign(heading, { fromPage: true }));
      await route.continue();
    });
    // The app asks GET /me in its first commit: by then the page is the app's.
    const committed = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/me');
    await page.goto('/');
    await committed;
    const kept = await page
      .getByRole('heading', { level: 1 })
      .evaluate((heading) => (heading as HTMLElement & { fromPage?: boolean }).fromPage === true);
    expect(kept).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('keeps the page for offline use without its first paint: it opens at any address', async () => {
    const { page, context } = await app.visit(undefined, { serviceWorkers: 'allow' });
    await page.goto('/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // Now through the worker, which keeps the page it gets.
    await page.goto('/');
    await seeHeading(page, 'Upload and manage client tax documents securely');
    const kept = () =>
      page.evaluate(async () => {
        const response = await (await caches.open('vita-app-page')).match('/');
        return response ? response.text() : null;
      });
    // Polled from here: page.waitForFunction takes a promise for a truthy answer and returns at once.
    await expect
      .poll(() => page.evaluate(async () => !!(await (await caches.open('vita-app-page')).match('/'))))
      .toBe(true);
    const html = (await kept()) ?? '';
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('Volunteers of the free tax help programme');
    await context.close();
  });
});
