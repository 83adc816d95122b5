// Kept uploads and the browser profile (docs/behaviour.md#kept-uploads): what a copied profile, a page
// without its key, another person on the same browser and the app shell's service worker hold; on a
// phone, against the real server. A file of its own beside uploads-kept-offline.test.ts so both run side by side.
import {
  filesDeletedForOtherMessage,
  filesWaitingMessage,
  logoutWithWaitingConfirm,
  messages,
} from '@vita-docs/core';
import type { Page, Response, Route } from '@playwright/test';
import type { Person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { WAIT_MS } from './support/browser.js';
import { categoryScreen, listDocs, pdfFixture } from './support/documents.js';
import {
  cutUploads,
  eventually,
  keptRecords,
  openCategory,
  seedKeptUploads,
  signInHome,
  STORAGE_PUT,
  vera,
  wes,
} from './support/kept.js';
import { attackProfile } from './support/profile-copy.js';
import { seeHeading, submitCredentials } from './support/journeys.js';
import { expect, test } from './support/test.js';

test.describe('kept uploads and the browser profile: sign-out, keys, other people, the app shell', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let adaId = '';
  let boId = '';

  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    ({ adaId, boId } = await seedKeptUploads(app));
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  const signIn = (page: Page, who: Person) => signInHome(app, page, who);

  test('Logout right after a page load asks about the kept file before its journal is open, and after', async () => {
    const { page, context, dialogs } = await app.visit();
    await signIn(page, vera);
    const screen = await openCategory(page, adaId, 'Banking Info');
    await cutUploads(context);
    await screen.uploadFiles.setInputFiles([await pdfFixture('kept-at-logout.pdf')]);
    await screen.queued('kept-at-logout.pdf').getByText('Not uploaded yet').waitFor();
    await screen.uploadButton.click();
    await screen.queued('kept-at-logout.pdf').getByText(messages.waitingForConnection).waitFor();
    expect(await keptRecords(page)).toMatchObject({ entries: 1 });

    // A page load whose journal is not open yet: its key from the server is held back until Logout
    // has been pressed, so the page cannot know yet what the device keeps (pressed within a second).
    const held: Route[] = [];
    const keyRoute = '**/api/me/journal-key';
    await page.route(keyRoute, (route) => void held.push(route));
    const keyAsked = page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/api/me/journal-key',
    );
    await page.goto('/home');
    await seeHeading(page, /^Hello, Vera/);
    await keyAsked;
    dialogs.answerNextConfirm(false);
    await page.getByRole('button', { name: 'Logout' }).click();
    for (const route of held) await route.continue();
    await page.unroute(keyRoute);
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: logoutWithWaitingConfirm(1) });
    await seeHeading(page, /^Hello, Vera/); // Cancel: still signed in, the file still kept
    expect(await keptRecords(page)).toMatchObject({ entries: 1 });

    // Once the page offers the kept file, Logout asks the same; OK signs out and deletes it.
    await page
      .getByRole('region', { name: 'Files waiting to upload' })
      .getByText(filesWaitingMessage(1))
      .waitFor();
    dialogs.answerNextConfirm(false);
    await page.getByRole('button', { name: 'Logout' }).click();
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: logoutWithWaitingConfirm(1) });
    await seeHeading(page, /^Hello, Vera/);
    expect(await keptRecords(page)).toMatchObject({ entries: 1 });
    await page.getByRole('button', { name: 'Logout' }).click();
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: logoutWithWaitingConfirm(1) });
    await page.waitForURL((url) => url.pathname === '/');
    await eventually(async () => expect(await keptRecords(page)).toBeNull());
    await context.close();
  });

  test('a profile copied after sign-out holds nothing that opens a kept file, and the next sign-in deletes it', async () => {
    const { page, context } = await app.visit();
    const handedOut: string[] = [];
    context.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/me/journal-key' && response.ok()) {
        void response.json().then(
          (body: { key: string }) => handedOut.push(body.key),
          () => undefined,
        );
      }
    });
    await signIn(page, vera);
    const screen = await openCategory(page, boId, 'Michigan/Locality Intake');
    await cutUploads(context);
    await screen.uploadFiles.setInputFiles([await pdfFixture('bo-intake.pdf', 'SSN 987-65-4321')]);
    await screen.queued('bo-intake.pdf').getByText('Not uploaded yet').waitFor();
    await screen.uploadButton.click();
    await screen.queued('bo-intake.pdf').getByText(messages.waitingForConnection).waitFor();
    expect(await keptRecords(page)).toMatchObject({ entries: 1, bytes: 1 });

    // The tab is gone and the session signed out, without the page deleting what it kept (a tab
    // killed as its sign-out went through): what the profile holds now is all anyone can copy.
    await page.close();
    const csrf = (await context.cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
    expect(
      (await context.request.post('/api/auth/logout', { headers: { 'x-csrf-token': csrf }, data: {} })).ok(),
    ).toBe(true);
    const copy = await context.newPage();
    await copy.goto('/');
    await seeHeading(copy, messages.landingTagline);
    const attack = await attackProfile(copy, handedOut);
    expect(attack.sealed).toBe(2); // the file's entry and its bytes
    expect(attack.candidates).toBeGreaterThan(0);
    expect(attack.opened).toEqual([]);
    // Nor does it hold the key the server handed this person's page.
    expect(handedOut.length).toBeGreaterThan(0);
    expect(attack.holdsSecret).toBe(false);

    // Signing in again finds a key the record was not sealed with: it is deleted, nothing offered.
    await signIn(copy, vera);
    await eventually(async () => expect(await keptRecords(copy)).toMatchObject({ entries: 0, bytes: 0 }));
    expect(await copy.getByRole('region', { name: 'Files waiting to upload' }).count()).toBe(0);
    await context.close();
  });

  test('without its key from the server the page keeps nothing and says so; once the server answers, it keeps', async () => {
    const { page, context } = await app.visit();
    const noAnswer = (route: { abort(code: string): Promise<void> }) => route.abort('internetdisconnected');
    await context.route('**/api/me/journal-key', noAnswer);
    await signIn(page, vera);
    const screen = await openCategory(page, adaId, 'Banking Info');
    await cutUploads(context);
    await screen.uploadFiles.setInputFiles([await pdfFixture('no-key.pdf')]);
    await screen.queued('no-key.pdf').getByText(messages.notKeptOnDevice).waitFor();
    expect((await keptRecords(page))?.entries ?? 0).toBe(0);

    await context.unroute('**/api/me/journal-key', noAnswer);
    await screen.uploadFiles.setInputFiles([await pdfFixture('with-key.pdf')]);
    await screen.queued('with-key.pdf').getByText('Not uploaded yet').waitFor();
    expect(await screen.queued('with-key.pdf').getByText(messages.notKeptOnDevice).count()).toBe(0);
    expect(await keptRecords(page)).toMatchObject({ entries: 1, bytes: 1 });
    await context.close();
  });

  test('another person signing in on the same browser sees nothing of the first; the first is told next time', async () => {
    const { page, context } = await app.visit();
    await signIn(page, vera);
    const screen = await openCategory(page, boId, 'Banking Info');
    await cutUploads(context);
    await screen.uploadFiles.setInputFiles([
      await pdfFixture('bo-bank-1.pdf'),
      await pdfFixture('bo-bank-2.pdf'),
    ]);
    await screen.queued('bo-bank-2.pdf').getByText('Not uploaded yet').waitFor();
    await screen.uploadButton.click();
    await screen.queued('bo-bank-2.pdf').getByText(messages.waitingForConnection).waitFor();

    // Vera walks away without signing out and her session ends; the app, still open, sends the next
    // person to the login screen, where Wes signs in — in the same page, no reload in between.
    await context.clearCookies();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    const after = Date.now();
    await submitCredentials(page, wes);
    await page.waitForURL((url) => url.pathname === '/login/verify');
    await page.getByLabel('6-digit code').fill(await app.server.latestCode(wes.email, { after }));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => url.pathname !== '/login/verify');
    await eventually(async () => expect(await keptRecords(page)).toMatchObject({ entries: 0, bytes: 0 }));
    await page.getByRole('link', { name: 'Home' }).click();
    await seeHeading(page, /^Hello, Wes/);
    expect(await page.getByRole('region', { name: 'Files waiting to upload' }).count()).toBe(0);
    expect(await page.getByText('bo-bank-1.pdf').count()).toBe(0);
    expect(await page.getByRole('button', { name: /waiting|Uploading/ }).count()).toBe(0);

    await context.clearCookies();
    await signIn(page, vera);
    const offer = page.getByRole('region', { name: 'Files waiting to upload' });
    await offer.getByText(filesDeletedForOtherMessage(2)).waitFor();
    await offer.getByRole('button', { name: 'OK' }).click();
    await offer.waitFor({ state: 'detached' });
    // Nothing is left to send, even with the way open again: no queue of the page holds a file (the
    // upload tray shows whenever one does), so no upload can start later.
    await context.unroute(STORAGE_PUT);
    expect(await page.locator('.upload-tray').count()).toBe(0);
    expect(await listDocs(page, boId, 'Banking Info')).toEqual([]);
    await context.close();
  });
  test('the app opens with no connection from its service worker, says so, caches nothing of the API, and picks up when back', async () => {
    const offline =
      'You are offline. Files you add are kept on this device and upload when the connection returns.';
    const { page, context } = await app.visit(undefined, { serviceWorkers: 'allow' });
    await signIn(page, vera);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: WAIT_MS,
    });
    await openCategory(page, adaId, '13614-C');
    await listDocs(page, adaId, '13614-C'); // an API answer the page has had

    const cached = () =>
      page.evaluate(async () => {
        const urls: string[] = [];
        for (const name of await caches.keys()) {
          for (const request of await (await caches.open(name)).keys())
            urls.push(new URL(request.url).pathname);
        }
        return urls;
      });
    const before = await cached();
    expect(before.filter((path) => path.startsWith('/assets/')).length).toBeGreaterThan(10);
    expect(before.filter((path) => path.startsWith('/api'))).toEqual([]);

    // Signed in, the connection goes: the screen stays and says so.
    await context.setOffline(true);
    await page.getByText(offline).waitFor();
    await seeHeading(page, '13614-C');

    // Reloaded with no connection: the app itself, not the browser's error page, and the category's
    // screen works from the device: files are added, kept and wait for the connection.
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await page.getByText(offline).waitFor();
    await seeHeading(page, '13614-C');
    expect(new URL(page.url()).pathname).toBe(`/clients/${adaId}/docs/13614-C`);
    const screen = categoryScreen(page);
    await screen.uploaded.getByText('This page needs a connection.').waitFor();
    await screen.uploadFiles.setInputFiles([await pdfFixture('offline-w2.pdf', 'SSN 123-45-6789')]);
    await screen.queued('offline-w2.pdf').getByText('Not uploaded yet').waitFor();
    await screen.uploadButton.click();
    await screen.queued('offline-w2.pdf').getByText(messages.waitingForConnection).waitFor();
    // Kept on the device, sealed to the public half of the session's key: nothing in the clear.
    const kept = await keptRecords(page);
    expect(kept).toMatchObject({ entries: 1, bytes: 1 });
    expect(kept!.clear.join('')).not.toContain('%PDF');
    for (const secret of ['offline-w2', '13614']) expect(kept!.text).not.toContain(secret);
    // A screen that needs the server says so.
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByText('This page needs a connection.').waitFor();
    await page.goBack();
    await seeHeading(page, '13614-C');

    // Back online: the session is asked again, the file goes up by itself, once, and leaves the device.
    await context.setOffline(false);
    await page.getByText(offline).waitFor({ state: 'detached' });
    await eventually(async () =>
      expect(
        (await listDocs(page, adaId, '13614-C')).filter((d) => d.filename === 'offline-w2.pdf'),
      ).toHaveLength(1),
    );
    await screen.row('offline-w2.pdf').waitFor();
    await eventually(async () => expect(await keptRecords(page)).toMatchObject({ entries: 0, bytes: 0 }));
    expect(await page.getByRole('region', { name: 'Files waiting to upload' }).count()).toBe(0);
    expect((await cached()).filter((path) => path.startsWith('/api'))).toEqual([]);
    await context.close();
  });

  // How the built app reaches a phone (docs/architecture.md#ui-packagesui-and-web-appsweb).
  test('sends the landing page its scripts and styles brotli-compressed, cached as immutable', async () => {
    const { page, context } = await app.visit();
    const assets: Response[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/assets/')) assets.push(response);
    });
    await page.goto('/');
    await seeHeading(page, messages.landingTagline);

    const kinds = new Set(assets.map((response) => new URL(response.url()).pathname.split('.').pop()));
    expect(kinds).toEqual(new Set(['js', 'css']));
    for (const response of assets) {
      const headers = await response.allHeaders();
      expect(headers['content-encoding'], response.url()).toBe('br');
      expect(headers['cache-control'], response.url()).toBe('public, max-age=31536000, immutable');
    }
    await context.close();
  });
});
