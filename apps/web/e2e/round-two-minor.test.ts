// A volunteer on a phone, the smaller things that slow them down: the primary button of the queue and of
// Scan pages in view, a scan page retaken in place, counts and messages that never go stale, and the
// keyboard focus kept where the person works.
import { messages } from '@vita-docs/core';
import type { Locator, Page } from '@playwright/test';
import { ApiSession, person, seedPeople } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { PHONE } from './support/browser.js';
import {
  categoryRow,
  categoryScreen,
  oversizedPdfOnDisk,
  pagePhoto,
  pdfFixture,
} from './support/documents.js';
import { checkScreen } from './support/screens.js';
import { seeHeading, signIn } from './support/journeys.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Minor');
/** Photo conversion and two axe passes per screen on a busy 2-core machine. */
const SLOW = 300_000;

/** Whether the element is wholly inside the window as it is scrolled now. */
async function inView(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const size = page.viewportSize();
  return !!box && !!size && box.y >= 0 && box.y + box.height <= size.height;
}

/** The accessible name (aria-label, else text) of the focused element, or `<body>` when nothing has focus. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '<body>';
    return el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName;
  });

test.describe('a volunteer on a phone, round 2 (minor)', () => {
  test.describe.configure({ mode: 'serial', timeout: SLOW });
  let app: TestApp;
  let vis: Visitor;
  let page: Page;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    await (await seedPeople(app.server, admin, [{ person: vera }])).dispose();
    const api = await ApiSession.open(app.server);
    await api.signIn(vera);
    clientId = (await api.createClient('Ada', 'Lovelace')).clientId;
    await api.dispose();
    vis = await app.visit(PHONE);
    page = vis.page;
    await signIn(page, app.server, vera, `/clients/${clientId}/docs/Banking%20Info`);
    await seeHeading(page, 'Banking Info');
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('Scan pages: Done stays in view, buttons name their page, Move up keeps the focus, a page is retaken in place', async () => {
    await categoryScreen(page).addFiles.getByRole('button', { name: 'Scan pages', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Scan pages' });
    await dialog
      .getByLabel('Add page', { exact: true })
      .setInputFiles([
        await pagePhoto('p1.jpg', 1000, 1334, 236, { lineHeight: 3 }),
        await pagePhoto('p2.jpg', 1000, 1334, 236, { lineHeight: 3 }),
        await pagePhoto('p3.jpg', 1000, 1334, 236, { lineHeight: 3 }),
      ]);
    const done = dialog.getByRole('button', { name: 'Done (3 pages)' });
    await done.waitFor();
    expect(await inView(page, done)).toBe(true);
    await checkScreen(page, 'round2-scan-done-in-view');
    await page.setViewportSize(PHONE);

    const pageRow = (n: number) => dialog.getByRole('listitem', { name: `Page ${n}`, exact: true });
    await pageRow(3).getByRole('button', { name: 'Rotate left Page 3' }).waitFor();
    await pageRow(2).getByRole('button', { name: 'Move up Page 2' }).click();
    // The page is now first: Move up is disabled there, so its Move down has the focus.
    await expect.poll(() => focused(page)).toBe('Move down Page 1');
    await pageRow(3).getByRole('button', { name: 'Move up Page 3' }).click();
    await expect.poll(() => focused(page)).toBe('Move up Page 2');

    // Page 2 (p3.jpg) retaken in its place: still three pages, still Page 2.
    await pageRow(2)
      .getByLabel('Retake Page 2', { exact: true })
      .setInputFiles([await pagePhoto('p3-again.jpg', 1000, 1334, 60)]);
    await pageRow(2).getByText('This photo looks too dark.').waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(3);
    await done.click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('Upload (n) stays in view and never counts a file over the limit; the uploaded message goes once files are queued again', async () => {
    const screen = categoryScreen(page);
    await screen.uploadButton.filter({ hasText: 'Upload (1)' }).waitFor(); // the scan's PDF
    await screen.takePhoto.setInputFiles([
      await pagePhoto('image.jpg', 1000, 1334, 236, { lineHeight: 3 }),
      await pagePhoto('image.jpg', 1000, 1334, 236, { lineHeight: 3 }),
      await pagePhoto('image.jpg', 1000, 1334, 236, { lineHeight: 3 }),
    ]);
    await screen.uploadFiles.setInputFiles(await oversizedPdfOnDisk('scan-27mb.pdf', 27));
    await screen.queued('scan-27mb.pdf').getByText('This file is larger than the 25 MB limit.').waitFor();
    await screen.queued('Banking Info 3.pdf').getByText('Not uploaded yet').waitFor();
    expect(await screen.uploadButton.textContent()).toBe('Upload (4)');
    expect(await inView(page, screen.uploadButton)).toBe(true);
    await checkScreen(page, 'round2-upload-in-view');
    await page.setViewportSize(PHONE);

    await screen.uploadButton.click();
    await screen.addFiles.getByText('4 files uploaded.').waitFor();
    expect(await screen.uploadButton.textContent()).toBe('Upload (0)');
    expect(await screen.uploadButton.isDisabled()).toBe(true);
    await screen.queued('scan-27mb.pdf').getByRole('button', { name: 'Remove' }).click();
    await screen.uploadFiles.setInputFiles([await pdfFixture('later.pdf')]);
    await screen.queued('later.pdf').getByText('Not uploaded yet').waitFor();
    expect(await screen.uploadButton.textContent()).toBe('Upload (1)');
    expect(await screen.addFiles.getByText('4 files uploaded.').count()).toBe(0);
  });

  test('leaving with one file asks in the singular', async () => {
    await page.getByRole('link', { name: 'Done' }).click();
    const ask = page.getByRole('dialog', { name: '1 file is not uploaded yet.' });
    await ask.getByText('Upload now sends it while you go on; Discard removes it from the queue.').waitFor();
    await ask.getByRole('button', { name: 'Stay' }).click();
    await ask.waitFor({ state: 'detached' });
    await categoryScreen(page).uploadButton.click();
    await categoryScreen(page).addFiles.getByText('1 file uploaded.').waitFor();
  });

  test('after Rename → Save the renamed row’s Rename button has the focus', async () => {
    const screen = categoryScreen(page);
    await screen.row('later.pdf').getByRole('button', { name: 'Rename later.pdf' }).click();
    const modal = page.getByRole('dialog', { name: 'Rename Document' });
    await modal.getByLabel('New name').fill('statement.pdf');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('Rename statement.pdf');
  });

  test('Escape closes the upload tray and gives the focus back to its button', async () => {
    const screen = categoryScreen(page);
    await page.context().setOffline(true);
    try {
      await screen.uploadFiles.setInputFiles([await pdfFixture('offline.pdf')]);
      await screen.queued('offline.pdf').getByText('Not uploaded yet').waitFor();
      await screen.uploadButton.click();
      await screen.queued('offline.pdf').getByText(messages.waitingForConnection).waitFor();
      // The tray says what its one file waits for.
      const tray = page.getByRole('button', { name: messages.waitingForConnection });
      await tray.click();
      const list = page.getByRole('region', { name: 'Uploads' });
      await list.waitFor();
      await page.keyboard.press('Escape');
      await list.waitFor({ state: 'detached' });
      expect(await tray.evaluate((el) => el === document.activeElement)).toBe(true);
    } finally {
      await page.context().setOffline(false);
    }
    await screen.row('offline.pdf').waitFor();
  });

  test('Add document type → Add gives the focus back to Add document type', async () => {
    await page.goto(`/clients/${clientId}/docs`);
    await seeHeading(page, 'Client Documents');
    await page.getByRole('button', { name: 'Add document type' }).click();
    const modal = page.getByRole('dialog', { name: 'Add additional document' });
    await modal.getByLabel('Document type').selectOption('W-2');
    await modal.getByRole('button', { name: 'Add', exact: true }).click();
    await categoryRow(page, 'W-2').waitFor();
    await expect.poll(() => focused(page)).toBe('Add document type');
  });
});
