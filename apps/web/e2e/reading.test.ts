// The device reads each queued document (docs/behaviour.md#reading-documents): a form filed in the
// wrong category is caught and moved, the right one says nothing — with every request to anywhere but
// the app itself cut after the page loaded (OCR's code and data come from the app).
import type { TestApp } from './support/app.js';
import {
  addCategory,
  categoryRow,
  expectFiles,
  FORM_1099_INT as INT,
  FORM_W2 as W2,
  formPhoto,
  licenseBackPhoto,
  listDocs,
  passportPhoto,
  photoFixture,
  scannedFormPdf,
} from './support/documents.js';
import { openCategory, seedKeptUploads, signInHome, vera } from './support/kept.js';
import { cutOutside } from './support/browser.js';
import { seeHeading } from './support/journeys.js';
import { expect, test } from './support/test.js';

test.describe('the device reads what is queued', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    ({ adaId: clientId } = await seedKeptUploads(app));
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('a 1099-INT photographed into W-2 is caught and moved; W-2 is Missing again', async () => {
    const { page } = await app.visit();
    await signInHome(app, page, vera);
    await addCategory(page, clientId, 'W-2');
    const outside = await cutOutside(page);
    const screen = await openCategory(page, clientId, 'W-2');
    await screen.uploadFiles.setInputFiles([await formPhoto('bank-interest.jpg', INT)]);
    await screen.uploadButton.click();
    // The upload does not wait for the reading: the file is stored, then its row says what it is.
    await expectFiles(page, ['bank-interest.pdf']);
    const note = page.getByText('This looks like a 1099-INT, not a W-2.', { exact: true });
    await note.waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Move to 1099-INT', exact: true }).click();
    await expectFiles(page, []);
    expect((await listDocs(page, clientId, '1099-INT')).map((d) => d.filename)).toEqual([
      'bank-interest.pdf',
    ]);
    await page.getByRole('link', { name: 'Done' }).click();
    await seeHeading(page, 'Client Documents');
    await categoryRow(page, 'W-2').getByText('Missing', { exact: true }).waitFor();
    await categoryRow(page, '1099-INT').getByText('Ready', { exact: true }).waitFor();
    expect(outside).toEqual([]);
  });

  test('a W-2 photographed into W-2: nothing is said', async () => {
    const { page } = await app.visit();
    await signInHome(app, page, vera);
    const outside = await cutOutside(page);
    const screen = await openCategory(page, clientId, 'W-2');
    // Read one after the other, in the order queued: once the second is said, the first was read.
    await screen.uploadFiles.setInputFiles([
      await formPhoto('w2.jpg', W2),
      await formPhoto('interest-2.jpg', INT),
    ]);
    await screen.uploadButton.click();
    await expectFiles(page, ['w2.pdf', 'interest-2.pdf']);
    await screen
      .row('interest-2.pdf')
      .getByText('This looks like a 1099-INT, not a W-2.', { exact: true })
      .waitFor({ timeout: 30_000 });
    await screen.row('interest-2.pdf').getByRole('button', { name: 'Keep here', exact: true }).click();
    await expect(page.getByText(/This looks like|This form is for/)).toHaveCount(0);
    await expect(screen.row('w2.pdf').getByRole('status')).toHaveCount(0);
    expect(outside).toEqual([]);
  });

  test('an expired license’s barcode says when it expired', async () => {
    const { page } = await app.visit();
    await signInHome(app, page, vera);
    const outside = await cutOutside(page);
    const screen = await openCategory(page, clientId, 'License/Other Identification');
    await screen.uploadFiles.setInputFiles([await licenseBackPhoto('license-back.jpg', '2025-03-15')]);
    await screen.uploadButton.click();
    await expectFiles(page, ['license-back.pdf']);
    await page.getByText('This ID expired on Mar 15, 2025.', { exact: true }).waitFor({ timeout: 30_000 });
    expect(outside).toEqual([]);
  });

  test('last year’s W-2 in W-2 says which year it is for', async () => {
    const { page } = await app.visit();
    await signInHome(app, page, vera);
    const outside = await cutOutside(page);
    const screen = await openCategory(page, clientId, 'W-2');
    const lastYear = W2.map((line) => line.replace('2025', '2024'));
    await screen.uploadFiles.setInputFiles([await formPhoto('w2-last-year.jpg', lastYear)]);
    await screen.uploadButton.click();
    await expectFiles(page, ['w2.pdf', 'interest-2.pdf', 'w2-last-year.pdf']);
    await screen
      .row('w2-last-year.pdf')
      .getByText('This form is for 2024.', { exact: true })
      .waitFor({ timeout: 30_000 });
    await expect(screen.row('w2-last-year.pdf').getByText(/This looks like/)).toHaveCount(0);
    expect(outside).toEqual([]);
  });

  test('an expired passport’s machine-readable zone says when it expired', async () => {
    const { page } = await app.visit();
    await signInHome(app, page, vera);
    const outside = await cutOutside(page);
    const screen = await openCategory(page, clientId, 'License/Other Identification');
    await screen.uploadFiles.setInputFiles([await passportPhoto('passport.jpg')]);
    await screen.uploadButton.click();
    await expectFiles(page, ['license-back.pdf', 'passport.pdf']);
    await screen
      .row('passport.pdf')
      .getByText('This ID expired on Mar 15, 2025.', { exact: true })
      .waitFor({ timeout: 30_000 });
    expect(outside).toEqual([]);
  });

  test('a TIFF the reader cannot read says nothing and breaks nothing', async () => {
    const { page, errors } = await app.visit();
    await signInHome(app, page, vera);
    const screen = await openCategory(page, clientId, 'W-2');
    // Read in the order queued: once the photo after it is said, the TIFF was read.
    await screen.uploadFiles.setInputFiles([
      await photoFixture('scan.tif', 600, 800, { format: 'tiff' }),
      await formPhoto('interest-3.jpg', INT),
    ]);
    await screen
      .queued('interest-3.pdf')
      .getByText('This looks like a 1099-INT, not a W-2.', { exact: true })
      .waitFor({ timeout: 30_000 });
    await expect(screen.queued('scan.tif').getByRole('status')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('a scanned 1099-INT PDF (no text, only its page image) in W-2 is caught', async () => {
    const { page } = await app.visit();
    await signInHome(app, page, vera);
    const outside = await cutOutside(page);
    const screen = await openCategory(page, clientId, 'W-2');
    await screen.uploadFiles.setInputFiles([await scannedFormPdf('bank-scan.pdf', INT)]);
    await screen
      .queued('bank-scan.pdf')
      .getByText('This looks like a 1099-INT, not a W-2.', { exact: true })
      .waitFor({ timeout: 30_000 });
    expect(outside).toEqual([]);
  });
});
