// A volunteer's full day with one client (docs/behaviour.md#category-screen), part 2: the camera
// input, an upload that fails mid-queue and its retry, and custom document types added, filled and
// deleted.
import { deleteCategoryConfirm, messages } from '@vita-docs/core';
import type { Page } from '@playwright/test';
import { person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { DESKTOP } from './support/browser.js';
import {
  categoryRow,
  categoryScreen,
  expectFiles,
  filesOnDisk,
  listDocs,
  pageSizes,
  pdfFixture,
  photoFixture,
  storedBytes,
} from './support/documents.js';
import { checkScreen } from './support/screens.js';
import { atPath, seeHeading, signIn } from './support/journeys.js';
import { startWithClient } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Queue');

test.describe("a volunteer's full day, part 2", () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let vis: Visitor;
  let page: Page;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Ada'));
    vis = await app.visit(DESKTOP);
    page = vis.page;
    await signIn(page, app.server, vera, `/clients/${clientId}/docs`);
    await seeHeading(page, 'Client Documents');
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  const openCategory = async (name: string) => {
    await page.goto(`/clients/${clientId}/docs`);
    await categoryRow(page, name).getByRole('link').click();
    await seeHeading(page, name);
  };

  test('the camera input takes photos; a failed upload stays queued with its error and can be retried', async () => {
    const { dialogs } = vis;
    await openCategory('Banking Info');
    const screen = categoryScreen(page);
    expect(await screen.takePhoto.getAttribute('accept')).toBe('image/*');
    expect(await screen.takePhoto.getAttribute('capture')).toBe('environment');
    expect(await screen.takePhoto.getAttribute('multiple')).not.toBeNull();
    await screen.takePhoto.setInputFiles([await photoFixture('camera.jpg', 1600, 1200)]);
    await screen.queued('Banking Info 1.pdf').getByText('Not uploaded yet').waitFor();
    await screen.uploadFiles.setInputFiles([
      await pdfFixture('statement-1.pdf'),
      await pdfFixture('statement-2.pdf'),
    ]);
    expect(await screen.uploadButton.textContent()).toBe('Upload (3)');

    // The second file's PUTs fail on the storage side until the store recovers.
    await page.route('**/api/storage/put?**', async (route) => {
      if (route.request().url().includes('statement-1')) {
        await route.fulfill({ status: 500, contentType: 'text/plain', body: 'disk full' });
      } else await route.continue();
    });
    await screen.uploadButton.click();
    expect(await dialogs.next()).toEqual({ type: 'alert', message: 'Upload failed: 500 disk full' });
    await expectFiles(page, ['Banking Info 1.pdf', 'statement-2.pdf']);
    const failed = screen.queued('statement-1.pdf');
    // A server error is sent again by itself after a pause (alerted once, not at each try).
    await failed.getByText(`Upload failed: 500 disk full ${messages.retryingByItself}`).waitFor();
    expect(await screen.uploadButton.textContent()).toBe('Upload (1)');
    await checkScreen(page, 'category-upload-failed');

    await page.unroute('**/api/storage/put?**');
    await failed.getByRole('button', { name: 'Retry' }).click();
    // The retry is the same upload (same bytes and name): it keeps the place its first attempt reserved.
    await expectFiles(page, ['Banking Info 1.pdf', 'statement-1.pdf', 'statement-2.pdf']);
    expect(await screen.queue.count()).toBe(0);
    const camera = (await listDocs(page, clientId, 'Banking Info')).find(
      (d) => d.filename === 'Banking Info 1.pdf',
    )!;
    expect(await pageSizes(await storedBytes(page, camera.key))).toEqual([{ width: 792, height: 612 }]);
  });

  test('a custom type with a note is added, filled, and deleted with its files', async () => {
    const { dialogs } = vis;
    await page.goto(`/clients/${clientId}/docs`);
    await page.getByRole('button', { name: 'Add document type' }).click();
    const modal = page.getByRole('dialog', { name: 'Add additional document' });
    const add = modal.getByRole('button', { name: 'Add', exact: true });
    expect(await add.isDisabled()).toBe(true);
    const picker = modal.getByLabel('Document type');
    const options = await picker.locator('option').allTextContents();
    expect(options.slice(1)).toHaveLength(16);
    expect(options.slice(1, 3)).toEqual(['W-2', '1099-NEC']);
    await picker.selectOption('W-2');
    await modal.getByLabel('Note (optional)').fill('Acme Inc');
    expect(await add.isEnabled()).toBe(true);
    await checkScreen(page, 'add-type-dialog');
    await add.click();
    await modal.waitFor({ state: 'detached' });
    const custom = categoryRow(page, 'W-2 (Acme Inc)');
    await custom.getByText('Missing', { exact: true }).waitFor();

    await custom.getByRole('link').click();
    await seeHeading(page, 'W-2 (Acme Inc)');
    await atPath(page, `/clients/${clientId}/docs/W-2%20(Acme%20Inc)`);
    const screen = categoryScreen(page);
    await screen.uploadFiles.setInputFiles([await pdfFixture('acme-w2.pdf')]);
    await screen.uploadButton.click();
    await expectFiles(page, ['acme-w2.pdf']);
    expect((await filesOnDisk(app.server.dataDir, clientId)).some((f) => f.includes('Acme'))).toBe(true);
    await page.getByRole('link', { name: 'Done' }).click();
    await custom.getByText('Ready', { exact: true }).waitFor();

    await custom.getByRole('button', { name: 'Delete Type' }).click();
    expect(await dialogs.next()).toEqual({
      type: 'confirm',
      message: deleteCategoryConfirm('W-2 (Acme Inc)'),
    });
    await custom.waitFor({ state: 'detached' });
    expect((await filesOnDisk(app.server.dataDir, clientId)).some((f) => f.includes('Acme'))).toBe(false);

    // Delete Category on the screen of a custom type (Michigan/… has a slash: the path keeps it encoded).
    await page.getByRole('button', { name: 'Add document type' }).click();
    await modal.getByLabel('Document type').selectOption('1099-INT');
    await add.click();
    await categoryRow(page, '1099-INT').getByRole('link').click();
    await seeHeading(page, '1099-INT');
    await page.getByRole('button', { name: 'Delete Category' }).click();
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: deleteCategoryConfirm('1099-INT') });
    await atPath(page, `/clients/${clientId}/docs`);
    await categoryRow(page, '13614-C').waitFor();
    expect(await categoryRow(page, '1099-INT').count()).toBe(0);
    await categoryRow(page, 'Michigan/Locality Intake').getByRole('link').click();
    await atPath(page, `/clients/${clientId}/docs/Michigan%2FLocality%20Intake`);
    await seeHeading(page, 'Michigan/Locality Intake');
  });
});
