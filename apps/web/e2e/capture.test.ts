// Capture a preparer can read (docs/behaviour.md#scan-pages, #quality-warnings): a phone volunteer scans a
// three-page form (one page photographed sideways and turned back, the pages reordered) into one
// Letter PDF, and a dark photo is flagged but still uploaded after Keep anyway.
import { scanDiscardConfirm } from '@vita-docs/core';
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
import type { Page } from '@playwright/test';
import { person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { PHONE } from './support/browser.js';
import { categoryScreen, expectFiles, listDocs, pagePhoto, storedBytes } from './support/documents.js';
import { checkScreen } from './support/screens.js';
import { seeHeading, signIn } from './support/journeys.js';
import { startWithClient } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Scanner');

/** Per page of a PDF: its size in points and the pixel size of the one image drawn on it. */
async function pdfPages(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => {
    const xobjects = page.node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
    const ref = xobjects?.values()[0];
    const image = ref ? doc.context.lookup(ref) : undefined;
    const dict = image instanceof PDFRawStream ? image.dict : undefined;
    return {
      page: [Math.round(page.getWidth()), Math.round(page.getHeight())],
      image: [
        dict?.lookup(PDFName.of('Width'), PDFNumber).asNumber(),
        dict?.lookup(PDFName.of('Height'), PDFNumber).asNumber(),
      ],
    };
  });
}

test.describe('capture on a phone: Scan pages and quality warnings', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let vis: Visitor;
  let page: Page;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Dora'));
    vis = await app.visit(PHONE);
    page = vis.page;
    await signIn(page, app.server, vera, `/clients/${clientId}/docs/13614-C`);
    await seeHeading(page, '13614-C');
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('three pages, one turned back upright, reordered, Done → one PDF of three Letter pages in that order', async () => {
    const screen = categoryScreen(page);
    await screen.addFiles.getByRole('button', { name: 'Scan pages', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Scan pages' });
    await dialog.waitFor();
    const addPage = dialog.getByLabel('Add page', { exact: true });
    expect(await addPage.getAttribute('accept')).toBe('image/*');
    expect(await addPage.getAttribute('capture')).toBe('environment');

    // Page 2 of the form was photographed sideways: stored 1700×1300, its text running up the frame.
    await addPage.setInputFiles([await pagePhoto('page-1.jpg', 1200, 1600)]);
    await addPage.setInputFiles([await pagePhoto('page-2.jpg', 1700, 1300)]);
    await addPage.setInputFiles([await pagePhoto('page-3.jpg', 1100, 1500)]);
    const pages = dialog.getByRole('list', { name: 'Pages' });
    const pageItem = (n: number) => pages.getByRole('listitem', { name: `Page ${n}`, exact: true });
    await pageItem(3).waitFor();
    await expect
      .poll(() => dialog.getByRole('button', { name: /^Done/ }).textContent())
      .toBe('Done (3 pages)');
    // Each page's check ends by adding its warnings, which moves the buttons below them: a tap before
    // then can press on Rotate right and lift off elsewhere, which is no click at all.
    for (const n of [1, 2, 3])
      await pageItem(n).getByText('Page edges not found. The whole photo is used.').waitFor();

    await pageItem(2).getByRole('button', { name: 'Rotate right' }).click();
    await expect
      .poll(() =>
        pageItem(2)
          .getByRole('img')
          .evaluate((img) => (img as HTMLElement).style.transform),
      )
      .toBe('rotate(90deg)');
    // The last page belongs second: move it up once.
    await pageItem(3).getByRole('button', { name: 'Move up' }).click();
    expect(await pageItem(3).getByRole('button', { name: 'Move down' }).isDisabled()).toBe(true);
    await checkScreen(page, 'scan-pages');

    await dialog.getByRole('button', { name: 'Done (3 pages)' }).click();
    await dialog.waitFor({ state: 'detached' });
    const queued = screen.queue.getByRole('listitem');
    await queued.getByText('Not uploaded yet').waitFor();
    const name = (await queued.locator('.queue__name').textContent()) ?? '';
    expect(name).toMatch(/^Scan \d{4}-\d{2}-\d{2} \d{2}-\d{2}\.pdf$/);

    await screen.uploadButton.click();
    await expectFiles(page, [name]);
    const [doc] = await listDocs(page, clientId, '13614-C');
    expect(doc?.contentType).toBe('application/pdf');
    const stored = await storedBytes(page, doc?.key ?? '');
    // Letter portrait each: the sideways page was turned upright (1300×1700), in the chosen order.
    expect(await pdfPages(stored)).toEqual([
      { page: [612, 792], image: [1200, 1600] },
      { page: [612, 792], image: [1100, 1500] },
      { page: [612, 792], image: [1300, 1700] },
    ]);
  });

  test('Cancel asks before the pages are thrown away', async () => {
    await categoryScreen(page).addFiles.getByRole('button', { name: 'Scan pages', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Scan pages' });
    await dialog
      .getByLabel('Add page', { exact: true })
      .setInputFiles([await pagePhoto('again.jpg', 1200, 1600)]);
    // The page's check ends by adding its warnings, which moves Cancel down: a tap before then can press
    // on Cancel and lift off below it, which is no click at all.
    await dialog
      .getByRole('listitem', { name: 'Page 1' })
      .getByText('Page edges not found. The whole photo is used.')
      .waitFor();
    vis.dialogs.answerNextConfirm(false);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await vis.dialogs.next()).toEqual({ type: 'confirm', message: scanDiscardConfirm(1) });
    expect(await dialog.isVisible()).toBe(true);
    vis.dialogs.answerNextConfirm(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await vis.dialogs.next()).toEqual({ type: 'confirm', message: scanDiscardConfirm(1) });
    await dialog.waitFor({ state: 'detached' });
    expect(await categoryScreen(page).queue.count()).toBe(0);
  });

  test('a dark photo is flagged on the queued file and uploads after Keep anyway', async () => {
    await page.goto(`/clients/${clientId}/docs/Banking%20Info`);
    await seeHeading(page, 'Banking Info');
    const screen = categoryScreen(page);
    await screen.takePhoto.setInputFiles([await pagePhoto('dim.jpg', 1200, 1600, 60)]);
    // A camera photo is named after the category.
    const item = screen.queued('Banking Info 1.pdf');
    await item.getByText('This photo looks too dark.').waitFor();
    await item.getByText('Not uploaded yet').waitFor();
    await checkScreen(page, 'queue-quality-warning');
    await item.getByRole('button', { name: 'Keep anyway' }).click();
    expect(await item.getByText('This photo looks too dark.').count()).toBe(0);
    await screen.uploadButton.click();
    await expectFiles(page, ['Banking Info 1.pdf']);
  });
});
