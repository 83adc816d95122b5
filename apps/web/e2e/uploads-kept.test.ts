// Uploads that survive bad wi-fi, reloads and closed tabs, and never upload twice
// (docs/behaviour.md#kept-uploads, docs/behaviour.md#automatic-retries, docs/behaviour.md#upload-tray):
// on a phone, against the real server, with the browser's own offline switch and IndexedDB.
import {
  filesDeletedForOtherMessage,
  filesWaitingMessage,
  logoutWithWaitingConfirm,
  messages,
} from '@vita-docs/core';
import type { BrowserContext, Page, Response, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession, person, seedPeople } from './support/api.js';
import type { Person } from './support/api.js';
import { startApp } from './support/app.js';
import type { TestApp } from './support/app.js';
import { WAIT_MS } from './support/browser.js';
import { categoryScreen, listDocs, pdfFixture } from './support/documents.js';
import { attackProfile } from './support/profile-copy.js';
import { checkScreen } from './support/screens.js';
import { seeHeading, signInViaUi, submitCredentials } from './support/journeys.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Kept');
const wes = person('Wes', 'Other');
const DB = 'vita-docs-uploads';
const STORAGE_PUT = '**/api/storage/put?**';

/** Polls until `check` passes (the uploads go on in the page by themselves). */
async function eventually(check: () => Promise<void>, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The records of the kept-uploads database as the page's IndexedDB holds them (null: no database). */
function keptRecords(page: Page) {
  return page.evaluate(async (name) => {
    if (!(await indexedDB.databases()).some((d) => d.name === name)) return null;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error(`cannot open ${name}`));
    });
    const all = (store: string) =>
      new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error(`cannot open ${name}`));
      });
    const entries = await all('entries');
    const bytes = (await all('bytes')) as { bytes: { data: Blob } }[];
    db.close();
    const clear = await Promise.all(
      bytes.map(async ({ bytes: b }) => new TextDecoder().decode(await b.data.slice(0, 64).arrayBuffer())),
    );
    return { entries: entries.length, bytes: bytes.length, clear, text: JSON.stringify(entries) };
  }, DB);
}

/**
 * Waits until the signed-in person's kept-uploads journal is open: its key comes from the server
 * after sign-in, so a page that goes offline before then cannot keep anything (and says so).
 */
async function journalOpened(page: Page): Promise<void> {
  await page.waitForFunction(async (name) => (await indexedDB.databases()).some((d) => d.name === name), DB, {
    timeout: WAIT_MS,
    polling: 100,
  });
}

/** Blocks the file store's PUTs as lost connections (the API stays reachable); returns the unblock. */
async function cutUploads(context: BrowserContext): Promise<() => Promise<void>> {
  const cut = (route: { abort(code: string): Promise<void> }) => route.abort('internetdisconnected');
  await context.route(STORAGE_PUT, cut);
  return () => context.unroute(STORAGE_PUT, cut);
}

describe('uploads that survive bad wi-fi, reloads and closed tabs', () => {
  let app: TestApp;
  let adaId = '';
  let boId = '';
  const names = (items: { filename: string }[]) => items.map((d) => d.filename).sort();

  beforeAll(async () => {
    app = await startApp();
    await (await seedPeople(app.server, admin, [{ person: vera }, { person: wes }])).dispose();
    const api = await ApiSession.open(app.server);
    await api.signIn(vera);
    adaId = (await api.createClient('Ada', 'Lovelace')).clientId;
    boId = (await api.createClient('Bo', 'Diddley')).clientId;
    await api.dispose();
  });
  afterAll(async () => {
    await app?.stop();
  });

  const openCategory = async (page: Page, clientId: string, docType: string) => {
    await page.goto(`/clients/${clientId}/docs/${encodeURIComponent(docType)}`);
    await seeHeading(page, docType);
    return categoryScreen(page);
  };
  const signIn = async (page: Page, who: Person) => {
    await signInViaUi(page, app.server, who);
    await seeHeading(page, new RegExp(`^Hello, ${who.firstName}`));
  };

  it('files queued offline wait for the connection, survive a closed tab, come back after signing in, and are stored once', async () => {
    const { page, context, dialogs } = await app.visit();
    await signIn(page, vera);
    const screen = await openCategory(page, adaId, '13614-C');
    await journalOpened(page);

    await context.setOffline(true);
    await screen.uploadFiles.setInputFiles([
      await pdfFixture('w2-acme.pdf', 'SSN 123-45-6789'),
      await pdfFixture('w2-globex.pdf'),
      await pdfFixture('w2-initech.pdf'),
    ]);
    for (const name of ['w2-acme.pdf', 'w2-globex.pdf', 'w2-initech.pdf']) {
      await screen.queued(name).getByText('Ready').waitFor();
    }
    await screen.uploadButton.click();
    for (const name of ['w2-acme.pdf', 'w2-globex.pdf', 'w2-initech.pdf']) {
      await screen.queued(name).getByText(messages.waitingForConnection).waitFor();
    }
    const tray = page.getByRole('button', { name: new RegExp(messages.waitingForConnection) });
    await tray.waitFor();
    expect(dialogs.unread()).toEqual([]);
    // Kept encrypted: no PDF header, no names, no client in the clear.
    const kept = await keptRecords(page);
    expect(kept).toMatchObject({ entries: 3, bytes: 3 });
    expect(kept!.clear.join('')).not.toContain('%PDF');
    for (const secret of ['w2-acme', 'Ada', '13614']) expect(kept!.text).not.toContain(secret);
    await tray.click();
    const trayList = page.getByRole('region', { name: 'Uploads' });
    await trayList.getByText('w2-globex.pdf').waitFor();
    await trayList.getByText('Ada Lovelace · 13614-C').first().waitFor();
    await checkScreen(page, 'upload-tray-waiting');

    // The tab is closed (nothing to ask: every file is kept); the session is gone by the next visit.
    const closed = page.waitForEvent('close');
    await page.close({ runBeforeUnload: true });
    await closed;
    expect(dialogs.unread()).toEqual([]);
    await context.clearCookies();
    await context.setOffline(false);
    const reconnect = await cutUploads(context); // the wi-fi reaches the API but drops the uploads

    const next = await context.newPage();
    await signIn(next, vera);
    const offer = next.getByRole('region', { name: 'Files waiting to upload' });
    await offer.getByText(filesWaitingMessage(3)).waitFor();
    await offer.getByText('w2-initech.pdf').waitFor();
    await checkScreen(next, 'kept-uploads-offer');
    await offer.getByRole('button', { name: 'Resume' }).click();
    await offer.waitFor({ state: 'detached' });
    await next.getByRole('button', { name: new RegExp(messages.waitingForConnection) }).waitFor();
    expect(await listDocs(next, adaId, '13614-C')).toEqual([]);

    await reconnect(); // the next automatic try (3 s) goes through
    await eventually(async () =>
      expect(names(await listDocs(next, adaId, '13614-C'))).toEqual([
        'w2-acme.pdf',
        'w2-globex.pdf',
        'w2-initech.pdf',
      ]),
    );
    await eventually(async () => expect(await keptRecords(next)).toMatchObject({ entries: 0, bytes: 0 }));
    await next.getByRole('button', { name: /Uploading|waiting/ }).waitFor({ state: 'detached' });
    await next.close();
  });

  it('a file queued in one tab is held there by a lock; closed, the tab lets it go and another tab offers it', async () => {
    const { page, context } = await app.visit();
    await signIn(page, vera);
    const screen = await openCategory(page, boId, 'Digital Consent Form');
    await journalOpened(page);
    await screen.uploadFiles.setInputFiles([await pdfFixture('consent.pdf')]);
    await screen.queued('consent.pdf').getByText('Ready').waitFor();
    await eventually(async () => expect(await keptRecords(page)).toMatchObject({ entries: 1, bytes: 1 }));

    // What the browser tells every tab of the profile: one kept file held (another tab's offer leaves it out).
    const other = await context.newPage();
    await other.goto('/home');
    await seeHeading(other, /^Hello, Vera/);
    const heldFiles = () =>
      other.evaluate(async () =>
        ((await navigator.locks.query()).held ?? []).filter((lock) =>
          lock.name?.startsWith('vita-docs.upload.'),
        ),
      );
    expect(await heldFiles()).toHaveLength(1);

    const closed = page.waitForEvent('close');
    await page.close({ runBeforeUnload: true }); // kept on the device: nothing to ask
    await closed;
    await eventually(async () => expect(await heldFiles()).toEqual([]));
    await other.reload();
    const offer = other.getByRole('region', { name: 'Files waiting to upload' });
    await offer.getByText('consent.pdf').waitFor();
    await offer.getByRole('button', { name: 'Resume' }).click();
    await eventually(async () =>
      expect(names(await listDocs(other, boId, 'Digital Consent Form'))).toEqual(['consent.pdf']),
    );
    await other.close();
  });

  it('a PUT whose answer is lost after the server stored it is sent again and stored once', async () => {
    const { page } = await app.visit();
    await signIn(page, vera);
    const screen = await openCategory(page, adaId, 'License/Other Identification');
    let puts = 0;
    await page.route(STORAGE_PUT, async (route) => {
      puts += 1;
      if (puts > 1) return route.continue();
      await route.fetch(); // the server stores it …
      await route.abort('connectionreset'); // … and the answer never arrives
    });
    await screen.uploadFiles.setInputFiles([await pdfFixture('interest.pdf')]);
    await screen.queued('interest.pdf').getByText('Ready').waitFor();
    await screen.uploadButton.click();
    await screen.row('interest.pdf').waitFor();
    const docs = await listDocs(page, adaId, 'License/Other Identification');
    expect(names(docs)).toEqual(['interest.pdf']);
    expect(await screen.queue.count()).toBe(0);
    expect(puts).toBe(1); // the retry's presign found the stored upload: nothing was sent twice
    await page.context().close();
  });

  it('uploads go on while the volunteer moves to another client, with the tray counting them', async () => {
    const { page } = await app.visit();
    await signIn(page, vera);
    const screen = await openCategory(page, adaId, 'Banking Info');
    await page.route(STORAGE_PUT, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      await route.continue();
    });
    await screen.uploadFiles.setInputFiles([
      await pdfFixture('checking.pdf'),
      await pdfFixture('savings.pdf'),
    ]);
    await screen.queued('savings.pdf').getByText('Ready').waitFor();
    await screen.uploadButton.click();
    await page.getByRole('button', { name: /^Uploading 1 of 2/ }).waitFor();

    // Away to another client through the app's own links, while the first PUT is held.
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('link', { name: 'Enter Existing Client' }).click();
    await page.getByRole('link', { name: 'Bo Diddley' }).click();
    await seeHeading(page, 'Client Documents');
    await page.getByRole('button', { name: /^Uploading 2 of 2/ }).waitFor();
    await eventually(async () =>
      expect(names(await listDocs(page, adaId, 'Banking Info'))).toEqual(['checking.pdf', 'savings.pdf']),
    );
    await page.getByRole('button', { name: /^Uploading/ }).waitFor({ state: 'detached' });
    expect(await listDocs(page, boId, 'Banking Info')).toEqual([]);
    await page.context().close();
  });

  it('Logout with files waiting asks first; once signed out the kept files’ database is gone', async () => {
    const { page, context, dialogs } = await app.visit();
    await signIn(page, vera);
    const screen = await openCategory(page, boId, '13614-C');
    await cutUploads(context);
    await screen.uploadFiles.setInputFiles([await pdfFixture('bo-w2.pdf')]);
    await screen.queued('bo-w2.pdf').getByText('Ready').waitFor();
    await screen.uploadButton.click();
    await screen.queued('bo-w2.pdf').getByText(messages.waitingForConnection).waitFor();
    expect(await keptRecords(page)).toMatchObject({ entries: 1 });

    await page.getByRole('link', { name: 'Home' }).click();
    await seeHeading(page, /^Hello, Vera/);
    dialogs.answerNextConfirm(false);
    await page.getByRole('button', { name: 'Logout' }).click();
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: logoutWithWaitingConfirm(1) });
    await seeHeading(page, /^Hello, Vera/); // Cancel: still signed in, the file still kept
    expect(await keptRecords(page)).toMatchObject({ entries: 1 });

    await page.getByRole('button', { name: 'Logout' }).click();
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: logoutWithWaitingConfirm(1) });
    await page.waitForURL((url) => url.pathname === '/');
    await eventually(async () => expect(await keptRecords(page)).toBeNull());
    await context.close();
  });

  it('Logout right after a page load asks about the kept file before its journal is open, and after', async () => {
    const { page, context, dialogs } = await app.visit();
    await signIn(page, vera);
    const screen = await openCategory(page, adaId, 'Banking Info');
    await cutUploads(context);
    await screen.uploadFiles.setInputFiles([await pdfFixture('kept-at-logout.pdf')]);
    await screen.queued('kept-at-logout.pdf').getByText('Ready').waitFor();
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

  it('a profile copied after sign-out holds nothing that opens a kept file, and the next sign-in deletes it', async () => {
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
    await screen.queued('bo-intake.pdf').getByText('Ready').waitFor();
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

  it('without its key from the server the page keeps nothing and says so; once the server answers, it keeps', async () => {
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
    await screen.queued('with-key.pdf').getByText('Ready').waitFor();
    expect(await screen.queued('with-key.pdf').getByText(messages.notKeptOnDevice).count()).toBe(0);
    expect(await keptRecords(page)).toMatchObject({ entries: 1, bytes: 1 });
    await context.close();
  });

  it('another person signing in on the same browser sees nothing of the first; the first is told next time', async () => {
    const { page, context } = await app.visit();
    await signIn(page, vera);
    const screen = await openCategory(page, boId, 'Banking Info');
    await cutUploads(context);
    await screen.uploadFiles.setInputFiles([
      await pdfFixture('bo-bank-1.pdf'),
      await pdfFixture('bo-bank-2.pdf'),
    ]);
    await screen.queued('bo-bank-2.pdf').getByText('Ready').waitFor();
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
  it('the app opens with no connection from its service worker, says so, caches nothing of the API, and picks up when back', async () => {
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
    await screen.queued('offline-w2.pdf').getByText('Ready').waitFor();
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
  it('sends the landing page its scripts and styles brotli-compressed, cached as immutable', async () => {
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
