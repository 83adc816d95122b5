// The offline promise kept (docs/behaviour.md#kept-uploads, docs/behaviour.md#offline): files added
// with no connection survive a reload with none, the screen says how many are kept, and once the
// connection is back and the same person's session is live they upload by themselves, once each —
// with two tabs open too, where the claim on each file decides which tab sends it. A request that
// fails for want of a connection says so in the product's words. On a phone, against the real
// server, with the browser's offline switch, its service worker and IndexedDB.
import type { Page } from '@playwright/test';
import type { TestApp } from './support/app.js';
import { categoryScreen, listDocs, pdfFixture } from './support/documents.js';
import {
  eventually,
  journalOpened,
  keptRecords,
  names,
  openCategory,
  seedKeptUploads,
  serviceWorkerReady,
  signInHome,
  vera,
} from './support/kept.js';
import { seeHeading } from './support/journeys.js';
import { expect, test } from './support/test.js';

const keptOne =
  'You are offline. 1 file you added is kept on this device and will upload when the connection returns.';
const keptTwo =
  'You are offline. 2 files you added are kept on this device and will upload when the connection returns.';

test.describe('the offline promise kept', () => {
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

  /** Vera signed in on a page the service worker controls, on a category's screen with its journal open. */
  async function signedInCategory(clientId: string, docType: string) {
    const visitor = await app.visit(undefined, { serviceWorkers: 'allow' });
    await signInHome(app, visitor.page, vera);
    await serviceWorkerReady(visitor.page);
    const screen = await openCategory(visitor.page, clientId, docType);
    await journalOpened(visitor.page);
    return { ...visitor, screen };
  }

  /** Files added with no connection, kept on the device before the page is reloaded. */
  async function addOffline(page: Page, files: string[]) {
    await categoryScreen(page).uploadFiles.setInputFiles(await Promise.all(files.map((f) => pdfFixture(f))));
    await eventually(async () =>
      expect(await keptRecords(page)).toMatchObject({ entries: files.length, bytes: files.length }),
    );
  }

  test('after a reload with no connection the screen counts the kept file; back online it uploads by itself, once', async () => {
    const { page, context, dialogs } = await signedInCategory(adaId, '13614-C');
    await context.setOffline(true);
    await addOffline(page, ['reload-w2.pdf']);

    await page.reload();
    await seeHeading(page, '13614-C');
    await page.getByText(keptOne).waitFor();

    await context.setOffline(false);
    await eventually(async () =>
      expect(names(await listDocs(page, adaId, '13614-C'))).toEqual(['reload-w2.pdf']),
    );
    await categoryScreen(page).row('reload-w2.pdf').waitFor();
    await eventually(async () => expect(await keptRecords(page)).toMatchObject({ entries: 0, bytes: 0 }));
    expect(await page.getByRole('button', { name: 'Resume' }).count()).toBe(0);
    expect(await listDocs(page, adaId, '13614-C')).toHaveLength(1);
    expect(dialogs.unread()).toEqual([]);
    await context.close();
  });

  test('with two tabs reloaded offline, each kept file is sent by one of them, once', async () => {
    const { page, context } = await signedInCategory(boId, '13614-C');
    await context.setOffline(true);
    await addOffline(page, ['tab-a.pdf', 'tab-b.pdf']);
    await page.reload();
    await page.getByText(keptTwo).waitFor();
    const other = await context.newPage();
    await other.goto(`/clients/${boId}/docs/13614-C`);
    await seeHeading(other, '13614-C');
    await other.getByText(keptTwo).waitFor();

    const puts: string[] = [];
    context.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().includes('/api/storage/put')) puts.push(request.url());
    });
    await context.setOffline(false);
    await eventually(async () =>
      expect(names(await listDocs(page, boId, '13614-C'))).toEqual(['tab-a.pdf', 'tab-b.pdf']),
    );
    await eventually(async () => expect(await keptRecords(page)).toMatchObject({ entries: 0, bytes: 0 }));
    for (const tab of [page, other]) {
      await tab.getByRole('button', { name: /Uploading|waiting/ }).waitFor({ state: 'detached' });
      expect(await tab.getByRole('button', { name: 'Resume' }).count()).toBe(0);
    }
    expect(puts).toHaveLength(2);
    expect(await listDocs(page, boId, '13614-C')).toHaveLength(2);
    await context.close();
  });

  test('a queued file that has not been sent says “Not uploaded yet”, in the queue and the tray, never “Ready”', async () => {
    const { page, context } = await app.visit();
    await signInHome(app, page, vera);
    const screen = await openCategory(page, boId, 'Banking Info');
    await screen.uploadFiles.setInputFiles([await pdfFixture('not-sent.pdf')]);
    const row = screen.queued('not-sent.pdf');
    await row.getByText('Not uploaded yet', { exact: true }).waitFor();
    expect(await row.getByText('Ready').count()).toBe(0);
    await page.getByRole('button', { name: /waiting to upload|Uploading/ }).click();
    const tray = page.getByRole('region', { name: 'Uploads' });
    await tray.getByText('not-sent.pdf').waitFor();
    await tray.getByText('Not uploaded yet', { exact: true }).waitFor();
    expect(await tray.getByText('Ready').count()).toBe(0);
    await page.keyboard.press('Escape');
    await screen.uploadButton.click();
    await screen.row('not-sent.pdf').waitFor();
    await context.close();
  });

  test('a screen opened with no connection says it needs one, never the browser’s “Failed to fetch”', async () => {
    const { page, context, dialogs } = await signedInCategory(adaId, 'Banking Info');
    await context.setOffline(true);
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('link', { name: 'Enter Existing Client' }).click();
    await page.getByText('This page needs a connection.').first().waitFor();
    const seen = [...dialogs.unread().map((d) => d.message), await page.locator('body').innerText()];
    expect(seen.join('\n')).not.toContain('Failed to fetch');
    await context.close();
  });
});
