// How a screen's files reach the phone (docs/architecture.md#ui-packagesui-and-web-appsweb): the page
// the server sends for an address links what that address's screen needs before it shows, so the
// browser fetches those files with the entry, once each, instead of one round trip after it has run;
// and a screen does not wait for the parts it can show without.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { categoryScreen, pdfFixture, uploadViaApi } from './support/documents.js';
import { atPath, seeHeading, signInViaUi } from './support/journeys.js';
import { startWithClient } from './support/seed.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Preload');

/** The build's map of what each route needs (apps/web/scripts/route-chunks.ts). */
const routeChunks = JSON.parse(
  readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/.vite/route-chunks.json'),
    'utf8',
  ),
) as { routes: { path: string; scripts: string[] }[] };

describe("a route's screen files", () => {
  let app: TestApp;
  let clientId = '';
  beforeAll(async () => {
    ({ app, clientId } = await startWithClient(admin, vera, 'Ada', async (api, id, { server }) => {
      await uploadViaApi(api, server.url, id, 'Banking Info', await pdfFixture('statement.pdf'));
    }));
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("are fetched from the page's links for /login, once each, before its form shows", async () => {
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

  it("lists a category's files before the adding of files and the upload queues' code have arrived", async () => {
    const { page, context } = await app.visit();
    await signInViaUi(page, app.server, vera);
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
});
