// A volunteer's full day with one client (docs/behaviour.md#category-screen), part 1: create the
// client, upload a real PDF and two photos converted to Letter PDFs, conversion off, view, rename,
// retake, select and delete. Part 2 (documents-queue.test.ts): the camera, a failing upload, custom
// types.
import { deleteSelectedConfirm, FIXED_CATEGORIES, formatBytes, messages } from '@vita-docs/core';
import type { Page } from '@playwright/test';
import { person, seedPeople } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import {
  categoryRow,
  categoryScreen,
  expectFiles,
  listDocs,
  pageSizes,
  pdfFixture,
  photoFixture,
  storedBytes,
} from './support/documents.js';
import type { Fixture } from './support/documents.js';
import { checkScreen } from './support/screens.js';
import { atPath, seeHeading, signIn } from './support/journeys.js';
import { DESKTOP } from './support/browser.js';
import { expect, test } from './support/test.js';

const admin = person('Ann', 'Admin');
const vera = person('Vera', 'Day');

test.describe("a volunteer's full day", () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let vis: Visitor;
  let page: Page;
  let clientId = '';
  let w2: Fixture;
  let portrait: Fixture;
  let landscape: Fixture;
  const requested: string[] = [];

  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    await (await seedPeople(app.server, admin, [{ person: vera }])).dispose();
    [w2, portrait, landscape] = await Promise.all([
      pdfFixture('w2.pdf', 'W-2 2024 for Ada Client'),
      // Stored landscape, shown portrait: EXIF orientation 6 (rotate 90° clockwise).
      photoFixture('id-portrait.jpg', 1200, 800, { orientation: 6 }),
      photoFixture('paystub-landscape.jpg', 1600, 1000),
    ]);
    vis = await app.visit(DESKTOP);
    page = vis.page;
    page.on('request', (r) => requested.push(r.url()));
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  const openCategory = async (name: string) => {
    await page.goto(`/clients/${clientId}/docs`);
    await categoryRow(page, name).getByRole('link').click();
    await seeHeading(page, name);
  };

  test('signed out, /clients/new goes to login and back; the new client has five Missing categories', async () => {
    await page.goto('/clients/new');
    await atPath(page, '/login?next=/clients/new');
    await signIn(page, app.server, vera, '/login?next=/clients/new');
    await atPath(page, '/clients/new');
    await seeHeading(page, 'Create New Client');
    await checkScreen(page, 'client-new');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Client');
    await page.getByLabel('Email').fill('ada@client.example.org');
    await page.getByLabel('Phone').fill('555-0100');
    await page.getByRole('button', { name: 'Create Client' }).click();
    await page.waitForURL(/\/clients\/[^/]+\/docs$/);
    clientId = new URL(page.url()).pathname.split('/')[2]!;
    await seeHeading(page, 'Client Documents');
    await page.getByText('Ada Client · ada@client.example.org').waitFor();
    for (const name of FIXED_CATEGORIES) {
      await categoryRow(page, name).getByText('Missing', { exact: true }).waitFor();
      expect(await categoryRow(page, name).getByRole('button', { name: 'Delete Type' }).count()).toBe(0);
    }
    for (const button of ['Download All Documents', 'Add document type'])
      await page.getByRole('button', { name: button }).waitFor();
    // Reassigning is for officers and admins.
    expect(await page.getByRole('button', { name: 'Reassign Client' }).count()).toBe(0);
    await checkScreen(page, 'client-docs-new');

    await page.goto('/clients');
    await seeHeading(page, 'Client List');
    const link = page.getByRole('link', { name: 'Ada Client' });
    expect(await link.getAttribute('href')).toBe(`/clients/${clientId}/docs`);
    await checkScreen(page, 'client-list');
  });

  test('a PDF and two photos, converted to Letter PDFs in the right orientation, listed in order', async () => {
    await openCategory('13614-C');
    const screen = categoryScreen(page);
    await screen.uploaded.getByText(messages.noFilesYet).waitFor();
    // A fixed category cannot be deleted; conversion is on by default.
    expect(await page.getByRole('button', { name: 'Delete Category' }).count()).toBe(0);
    expect(await screen.convert.isChecked()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('vita.convertToPdf'))).toBeNull();
    await checkScreen(page, 'category-empty');

    // The converter (pdf-lib, the worker) is fetched only once a photo needs converting.
    const converterChunks = () => requested.filter((url) => /browser-converter|raster-worker/.test(url));
    expect(converterChunks()).toEqual([]);
    await screen.uploadFiles.setInputFiles([w2]);
    await screen.queued('w2.pdf').getByText('Not uploaded yet').waitFor();
    await screen.queued('w2.pdf').getByRole('button', { name: 'Remove' }).click();
    expect(converterChunks()).toEqual([]);

    await screen.uploadFiles.setInputFiles([w2, portrait, landscape]);
    // Conversion replaces the photos in the queue by their PDFs.
    await screen.queued('id-portrait.pdf').getByText('Not uploaded yet').waitFor();
    await screen.queued('paystub-landscape.pdf').getByText('Not uploaded yet').waitFor();
    await screen
      .queued('w2.pdf')
      .getByText(/^\d+\.\d\d MB$/)
      .waitFor();
    expect(await screen.uploadButton.textContent()).toBe('Upload (3)');
    // Both chunks, however many workers the pool started (a quality check and a conversion run side by side).
    expect(new Set(converterChunks().map((url) => /browser-converter|raster-worker/.exec(url)?.[0]))).toEqual(
      new Set(['browser-converter', 'raster-worker']),
    );
    await checkScreen(page, 'category-queue');

    await screen.uploadButton.click();
    await expectFiles(page, ['w2.pdf', 'id-portrait.pdf', 'paystub-landscape.pdf']);
    expect(await screen.queue.count()).toBe(0);
    expect(await screen.uploadButton.textContent()).toBe('Upload (0)');
    const docs = await listDocs(page, clientId, '13614-C');
    const bytes = async (name: string) => storedBytes(page, docs.find((d) => d.filename === name)!.key);
    expect((await bytes('w2.pdf')).equals(w2.buffer)).toBe(true);
    // Sizes in B/KB/MB/GB steps of 1024.
    for (const doc of docs)
      await screen.row(doc.filename).getByText(formatBytes(doc.size), { exact: true }).waitFor();
    expect(await pageSizes(await bytes('id-portrait.pdf'))).toEqual([{ width: 612, height: 792 }]);
    expect(await pageSizes(await bytes('paystub-landscape.pdf'))).toEqual([{ width: 792, height: 612 }]);
    await checkScreen(page, 'category-uploaded');

    await page.getByRole('link', { name: 'Done' }).click();
    await seeHeading(page, 'Client Documents');
    await categoryRow(page, '13614-C').getByText('Ready', { exact: true }).waitFor();
    await categoryRow(page, 'Banking Info').getByText('Missing', { exact: true }).waitFor();
  });

  test('conversion off uploads the image as it is, and the choice is remembered as 1/0', async () => {
    await openCategory('13614-C');
    const screen = categoryScreen(page);
    const receipt = await photoFixture('receipt.jpg', 640, 480);
    const scan = await photoFixture('scan.tif', 200, 300, { format: 'tiff' });
    await screen.convert.uncheck();
    expect(await page.evaluate(() => localStorage.getItem('vita.convertToPdf'))).toBe('0');
    await page.reload();
    await seeHeading(page, '13614-C');
    expect(await screen.convert.isChecked()).toBe(false);

    await screen.uploadFiles.setInputFiles([receipt, scan]);
    await screen.queued('receipt.jpg').getByText('Not uploaded yet').waitFor();
    await screen.uploadButton.click();
    await expectFiles(page, [
      'w2.pdf',
      'id-portrait.pdf',
      'paystub-landscape.pdf',
      'receipt.jpg',
      'scan.tif',
    ]);
    const docs = await listDocs(page, clientId, '13614-C');
    const stored = docs.find((d) => d.filename === 'receipt.jpg')!;
    expect(stored.contentType).toBe('image/jpeg');
    expect((await storedBytes(page, stored.key)).equals(receipt.buffer)).toBe(true);

    await screen.convert.check();
    expect(await page.evaluate(() => localStorage.getItem('vita.convertToPdf'))).toBe('1');
  });

  test('View: a PDF fitted page by page, an image, and a download link for anything else', async () => {
    const screen = categoryScreen(page);
    await screen.row('w2.pdf').getByRole('button', { name: 'View' }).click();
    let modal = page.getByRole('dialog', { name: 'w2.pdf' });
    const pages = modal.getByRole('document', { name: 'w2.pdf' });
    const first = pages.getByRole('img', { name: 'Page 1 of 1' });
    await first.waitFor();
    // Drawn, and fitted whole: a Letter page as tall as the viewer, not cut off.
    await page.waitForFunction(
      (canvas) => {
        if (!(canvas instanceof HTMLCanvasElement) || canvas.width < 100) return false;
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        return data.some((value, i) => i % 4 !== 3 && value < 128);
      },
      await first.elementHandle(),
    );
    const [pageBox, viewerBox] = [(await first.boundingBox())!, (await pages.boundingBox())!];
    expect(pageBox.height).toBeLessThanOrEqual(viewerBox.height + 1);
    expect(pageBox.height).toBeGreaterThan(viewerBox.height * 0.9);
    expect(pageBox.width / pageBox.height).toBeCloseTo(612 / 792, 1);
    // About 84vw × 80vh, at most 1100px wide: 1280×800 → 1075 × 640.
    const box = (await modal.boundingBox())!;
    expect(Math.abs(box.width - Math.min(1280 * 0.84, 1100))).toBeLessThan(2);
    expect(Math.abs(box.height - 800 * 0.8)).toBeLessThan(2);
    await checkScreen(page, 'view-pdf');
    // With focus inside the viewer (scrolling it by keyboard), Escape still closes the dialog.
    await pages.click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    await screen.row('receipt.jpg').getByRole('button', { name: 'View' }).click();
    modal = page.getByRole('dialog', { name: 'receipt.jpg' });
    const image = modal.getByRole('img', { name: 'receipt.jpg' });
    await image.waitFor();
    await page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth === 640,
      await image.elementHandle(),
    );
    await checkScreen(page, 'view-image');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    await screen.row('scan.tif').getByRole('button', { name: 'View' }).click();
    modal = page.getByRole('dialog', { name: 'scan.tif' });
    await modal.getByText(messages.previewNotAvailable).waitFor();
    await checkScreen(page, 'view-no-preview');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      modal.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('scan.tif');
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'detached' });
  });

  test('Rename: empty is refused, unchanged just closes, the extension is added back', async () => {
    const { dialogs } = vis;
    const screen = categoryScreen(page);
    await screen.row('receipt.jpg').getByRole('button', { name: 'Rename' }).click();
    const modal = page.getByRole('dialog', { name: 'Rename Document' });
    await modal.getByText('Current name: receipt.jpg').waitFor();
    const field = modal.getByLabel('New name');
    expect(await field.inputValue()).toBe('receipt.jpg');
    await checkScreen(page, 'rename-dialog');
    await field.fill('   ');
    await modal.getByRole('button', { name: 'Save' }).click();
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.renameEmpty });
    await field.fill(' receipt.jpg ');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });
    await expectFiles(page, [
      'w2.pdf',
      'id-portrait.pdf',
      'paystub-landscape.pdf',
      'receipt.jpg',
      'scan.tif',
    ]);

    await screen.row('receipt.jpg').getByRole('button', { name: 'Rename' }).click();
    await field.fill('Grocery receipt');
    await field.press('Enter');
    await modal.waitFor({ state: 'detached' });
    await expectFiles(page, [
      'w2.pdf',
      'id-portrait.pdf',
      'paystub-landscape.pdf',
      'Grocery receipt.jpg',
      'scan.tif',
    ]);
    expect(dialogs.unread()).toEqual([]);
  });

  test('Retake via Upload replaces the file; Select All, Delete and Delete Selected ask first', async () => {
    const { dialogs } = vis;
    const screen = categoryScreen(page);
    const replacement = await pdfFixture('scan-retake.pdf');
    const scanRow = screen.row('scan.tif');
    await scanRow.getByRole('button', { name: 'Retake' }).click();
    const menu = scanRow.getByRole('group', { name: 'Retake scan.tif' });
    await menu.getByLabel('Take Photo').waitFor({ state: 'attached' });
    await checkScreen(page, 'retake-menu');
    await menu.getByLabel('Upload', { exact: true }).setInputFiles(replacement);
    await expectFiles(page, [
      'w2.pdf',
      'id-portrait.pdf',
      'paystub-landscape.pdf',
      'Grocery receipt.jpg',
      // A retake keeps the name of the file it replaces, with its own type's extension.
      'scan.pdf',
    ]);
    // In the replaced file's place, marked for a few seconds.
    await screen.row('scan.pdf').getByText('Replaced', { exact: true }).waitFor();

    const selectAll = screen.uploaded.getByRole('button', { name: 'Select All' });
    await selectAll.click();
    expect(await screen.uploaded.getByRole('checkbox', { checked: true }).count()).toBe(5);
    await screen.uploaded.getByRole('button', { name: 'Clear Selection' }).click();
    expect(await screen.uploaded.getByRole('checkbox', { checked: true }).count()).toBe(0);
    expect(await screen.uploaded.getByRole('button', { name: 'Delete Selected' }).isDisabled()).toBe(true);

    dialogs.answerNextConfirm(false);
    await screen.row('w2.pdf').getByRole('button', { name: 'Delete w2.pdf', exact: true }).click();
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: messages.deleteFileConfirm });

    await screen
      .row('Grocery receipt.jpg')
      .getByRole('checkbox', { name: 'Select Grocery receipt.jpg' })
      .check();
    await screen.row('scan.pdf').getByRole('checkbox', { name: 'Select scan.pdf' }).check();
    await screen.uploaded.getByRole('button', { name: 'Delete Selected' }).click();
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: deleteSelectedConfirm(2) });
    await expectFiles(page, ['w2.pdf', 'id-portrait.pdf', 'paystub-landscape.pdf']);
    const names = (await listDocs(page, clientId, '13614-C')).map((d) => d.filename);
    expect(names).toEqual(['w2.pdf', 'id-portrait.pdf', 'paystub-landscape.pdf']);
  });
});
