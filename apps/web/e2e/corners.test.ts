// Adjust corners (docs/behaviour.md#straightened-pages): each straightened photo in the queue opens an
// editor with the found outline and four handles, moved by dragging or by the arrow keys; Save makes
// the row's PDF again from them, Use whole photo makes it of the whole photo as before. The queue's
// thumbnail shows the straightened page. A reload while the new PDF is still being made uploads it
// made with the corners saved (the photo is kept with them). The client page: corners-client-page.test.ts.
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { categoryScreen, listDocs, storedBytes } from './support/documents.js';
import { seeHeading, signIn } from './support/journeys.js';
import { eventually, keptSizes } from './support/kept.js';
import { dragHandle, PAPER } from './support/corners.js';
import { edgeGreys, holdImageWork, setPhoto } from './support/page-image.js';
import { checkScreen } from './support/screens.js';
import { startWithClient } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Corners');

/** The queue's row added last (not a note's list item inside a row). */
const lastRow = (page: Page) =>
  page.getByRole('region', { name: 'Add files' }).locator('li.queue__item').last();

/** The stored PDF named `filename`'s edge greys. */
async function storedGreys(page: Page, clientId: string, docType: string, filename: string) {
  const doc = (await listDocs(page, clientId, docType)).find((item) => item.filename === filename);
  if (!doc) throw new Error(`${filename} is not stored`);
  return edgeGreys(await storedBytes(page, doc.key));
}

test.describe('Adjust corners on the category screen', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let page: Page;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Dora'));
    page = (await app.visit()).page;
    await signIn(page, app.server, vera, `/clients/${clientId}/docs/Banking%20Info`);
    await seeHeading(page, 'Banking Info');
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  /** Takes the tilted page on the dark table, opens its editor and waits for the handles. */
  async function openEditor() {
    const screen = categoryScreen(page);
    await screen.takePhoto.setInputFiles([await setPhoto('00-dark.jpg', 'table.jpg')]);
    // The row just added, whatever the earlier tests left queued.
    const item = lastRow(page);
    await item.getByText('Not uploaded yet').waitFor();
    const filename = (await item.locator('.queue__name').textContent()) ?? '';
    await item.getByRole('button', { name: `Adjust corners ${filename}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Adjust corners' });
    await dialog.getByRole('button', { name: 'Top-left corner' }).waitFor();
    return { item, dialog, filename };
  }

  /** Saves the editor, waits for the row's new PDF, uploads it and reads its edges. */
  async function saveAndStore(dialog: Locator, item: Locator, filename: string) {
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toBeHidden();
    await item.getByText('Not uploaded yet').waitFor();
    await categoryScreen(page).uploadButton.click();
    await expect
      .poll(async () => (await listDocs(page, clientId, 'Banking Info')).some((d) => d.filename === filename))
      .toBe(true);
    return storedGreys(page, clientId, 'Banking Info', filename);
  }

  test('the thumbnail shows the straightened page, not the photo', async () => {
    const screen = categoryScreen(page);
    await screen.takePhoto.setInputFiles([await setPhoto('00-dark.jpg', 'table.jpg')]);
    const item = screen.queued('Banking Info 1.pdf');
    await item.getByText('Not uploaded yet').waitFor();
    const photo = await sharp((await setPhoto('00-dark.jpg', 'table.jpg')).buffer).metadata();
    const thumb = item.getByRole('img', { name: 'Preview of Banking Info 1.pdf' });
    const aspect = () =>
      thumb.evaluate((img: HTMLImageElement) => img.naturalHeight / Math.max(1, img.naturalWidth));
    // The photo is wider than tall; the page in it, straightened, is a Letter page (11 / 8.5).
    expect((photo.height ?? 0) / (photo.width ?? 1)).toBeLessThan(1);
    await expect.poll(aspect).toBeCloseTo(11 / 8.5, 1);
  });

  test('a row whose page edges were not found offers Adjust corners too, the photo’s corners to start from', async () => {
    const screen = categoryScreen(page);
    await screen.takePhoto.setInputFiles([await setPhoto('07-white.jpg', 'white.jpg')]);
    const item = lastRow(page);
    await item.getByText('Page edges not found. The whole photo is used.').waitFor();
    await item.getByRole('button', { name: /^Adjust corners / }).click();
    const dialog = page.getByRole('dialog', { name: 'Adjust corners' });
    const handle = dialog.getByRole('button', { name: 'Bottom-right corner' });
    const photo = dialog.getByRole('img');
    await handle.waitFor();
    const [at, frame] = await Promise.all([handle.boundingBox(), photo.boundingBox()]);
    // The handle sits on the photo's own bottom-right corner.
    expect(
      Math.abs((at?.x ?? 0) + (at?.width ?? 0) / 2 - ((frame?.x ?? 0) + (frame?.width ?? 0))),
    ).toBeLessThan(2);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await item.getByRole('button', { name: 'Remove', exact: true }).click();
  });

  test('dragging a handle and saving makes the PDF from the new corners', async () => {
    const { item, dialog, filename } = await openEditor();
    await checkScreen(page, 'adjust-corners');
    // The top-left corner dragged out into the table: the page now takes some of it in.
    await dragHandle(page, dialog, 'Top-left corner', { x: 0.05, y: 0.03 });
    const [top, , , left] = await saveAndStore(dialog, item, filename);
    expect(Math.min(top ?? 255, left ?? 255)).toBeLessThan(PAPER);
  });

  test('a handle moved by the arrow keys changes the PDF too', async () => {
    const { item, dialog, filename } = await openEditor();
    const handle = dialog.getByRole('button', { name: 'Top-left corner' });
    await handle.focus();
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+ArrowLeft');
      await page.keyboard.press('Shift+ArrowUp');
    }
    const [top, , , left] = await saveAndStore(dialog, item, filename);
    expect(Math.min(top ?? 255, left ?? 255)).toBeLessThan(PAPER);
  });

  test('Use whole photo gives the PDF of the whole photo, the table at its edges', async () => {
    const { item, dialog, filename } = await openEditor();
    await dialog.getByRole('button', { name: 'Use whole photo' }).click();
    const greys = await saveAndStore(dialog, item, filename);
    for (const grey of greys) expect(grey).toBeLessThan(PAPER);
  });

  test('Reset puts the found outline back: the PDF is the page alone again', async () => {
    const { item, dialog, filename } = await openEditor();
    await dialog.getByRole('button', { name: 'Use whole photo' }).click();
    await dialog.getByRole('button', { name: 'Reset' }).click();
    const greys = await saveAndStore(dialog, item, filename);
    for (const grey of greys) expect(grey).toBeGreaterThan(PAPER);
  });

  test('corners saved and a reload before the new PDF is made: the photo was kept with them, and its PDF is made with them', async () => {
    const { item, dialog, filename } = await openEditor();
    const photo = await setPhoto('00-dark.jpg', 'table.jpg');
    // The new PDF is never made on this page: the reload comes while it is being made.
    await holdImageWork(page);
    const handle = dialog.getByRole('button', { name: 'Top-left corner' });
    await handle.focus();
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+ArrowLeft');
      await page.keyboard.press('Shift+ArrowUp');
    }
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toBeHidden();
    await item.getByText('Converting…').waitFor();
    // What the device keeps for the row is the photo now, not the PDF made with the found corners.
    await eventually(async () => expect(await keptSizes(page)).toEqual([photo.buffer.length]));

    await page.reload();
    await seeHeading(page, 'Banking Info');
    await page
      .getByRole('region', { name: 'Files waiting to upload' })
      .getByRole('button', { name: 'Resume' })
      .click();
    await expect
      .poll(async () => (await listDocs(page, clientId, 'Banking Info')).some((d) => d.filename === filename))
      .toBe(true);
    // The table at the page's top-left, as the moved corner gives without a reload (the corners
    // found give paper all round).
    const [top, , , left] = await storedGreys(page, clientId, 'Banking Info', filename);
    expect(Math.min(top ?? 255, left ?? 255)).toBeLessThan(PAPER);
    await eventually(async () => expect(await keptSizes(page)).toEqual([]));
  });
});
