// Uploads that survive bad wi-fi, reloads and closed tabs, and never upload twice
// (docs/behaviour.md#kept-uploads, docs/behaviour.md#automatic-retries, docs/behaviour.md#upload-tray):
// on a phone, against the real server, with the browser's own offline switch and IndexedDB.
import { filesWaitingMessage, logoutWithWaitingConfirm, messages } from '@vita-docs/core';
import type { Page } from '@playwright/test';
import type { Person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { listDocs, pdfFixture } from './support/documents.js';
import {
  cutUploads,
  eventually,
  journalOpened,
  keptRecords,
  names,
  openCategory,
  seedKeptUploads,
  signInHome,
  STORAGE_PUT,
  vera,
} from './support/kept.js';
import { checkScreen } from './support/screens.js';
import { seeHeading } from './support/journeys.js';
import { expect, test } from './support/test.js';

test.describe('uploads that survive bad wi-fi, reloads and closed tabs', () => {
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

  test('files queued offline wait for the connection, survive a closed tab, come back after signing in, and are stored once', async () => {
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
      await screen.queued(name).getByText('Not uploaded yet').waitFor();
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

  test('a file queued in one tab is held there by a lock; closed, the tab lets it go and another tab offers it', async () => {
    const { page, context } = await app.visit();
    await signIn(page, vera);
    const screen = await openCategory(page, boId, 'Digital Consent Form');
    await journalOpened(page);
    await screen.uploadFiles.setInputFiles([await pdfFixture('consent.pdf')]);
    await screen.queued('consent.pdf').getByText('Not uploaded yet').waitFor();
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

  test('a PUT whose answer is lost after the server stored it is sent again and stored once', async () => {
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
    await screen.queued('interest.pdf').getByText('Not uploaded yet').waitFor();
    await screen.uploadButton.click();
    await screen.row('interest.pdf').waitFor();
    const docs = await listDocs(page, adaId, 'License/Other Identification');
    expect(names(docs)).toEqual(['interest.pdf']);
    expect(await screen.queue.count()).toBe(0);
    expect(puts).toBe(1); // the retry's presign found the stored upload: nothing was sent twice
    await page.context().close();
  });

  test('uploads go on while the volunteer moves to another client, with the tray counting them', async () => {
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
    await screen.queued('savings.pdf').getByText('Not uploaded yet').waitFor();
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

  test('Logout with files waiting asks first; once signed out the kept files’ database is gone', async () => {
    const { page, context, dialogs } = await app.visit();
    await signIn(page, vera);
    const screen = await openCategory(page, boId, '13614-C');
    await cutUploads(context);
    await screen.uploadFiles.setInputFiles([await pdfFixture('bo-w2.pdf')]);
    await screen.queued('bo-w2.pdf').getByText('Not uploaded yet').waitFor();
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
});
