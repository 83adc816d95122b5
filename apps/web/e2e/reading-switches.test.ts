// Reading can be turned off (docs/behaviour.md#reading-documents): by the volunteer in Account and by an
// admin for the programme in Settings. Off, a 1099-INT photographed into W-2 says nothing and nothing of
// the reader (under /ocr/) is fetched; turned on again, the next file is read, so the silence is the
// switch's and not a slow reader's.
import type { Page } from '@playwright/test';
import type { TestApp } from './support/app.js';
import { addCategory, expectFiles, FORM_1099_INT, formPhoto } from './support/documents.js';
import { ApiSession } from './support/api.js';
import { admin, openCategory, seedKeptUploads, signInHome, vera } from './support/kept.js';
import { checkScreen } from './support/screens.js';
import { linkRow, proveWithCode, requestLink, signConsent } from './support/client-page.js';
import { CLIENT_LINK_TEXTS } from '@vita-docs/core';
import { expect, test } from './support/test.js';

const SAID = 'This looks like a 1099-INT, not a W-2.';

test.describe('turning reading off', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let clientId = '';
  let boId = '';

  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    ({ adaId: clientId, boId } = await seedKeptUploads(app));
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  /** Every request for the reader's files (OCR code and data, the barcode reader), from the page or its workers. */
  function readerFetches(page: Page): string[] {
    const fetched: string[] = [];
    page.context().on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/ocr/')) fetched.push(request.url());
    });
    return fetched;
  }

  /** Account's own switch, ticked or not, and saved. */
  async function setOwnSwitch(page: Page, on: boolean) {
    await page.goto('/account');
    const box = page.getByRole('checkbox', { name: 'Check documents on this device' });
    await box.setChecked(on);
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  }

  /** A 1099-INT photo queued in W-2 and uploaded; the screen's parts. */
  async function uploadInterest(page: Page, name: string) {
    const screen = await openCategory(page, clientId, 'W-2');
    await screen.uploadFiles.setInputFiles([await formPhoto(`${name}.jpg`, FORM_1099_INT)]);
    await screen.uploadButton.click();
    return screen;
  }

  test('the volunteer’s own switch off: nothing is read, nothing of the reader fetched', async () => {
    const { page } = await app.visit();
    await signInHome(app, page, vera);
    await addCategory(page, clientId, 'W-2');
    const fetched = readerFetches(page);
    await setOwnSwitch(page, false);

    const screen = await uploadInterest(page, 'interest-off');
    await expectFiles(page, ['interest-off.pdf']);
    const whileOff = [...fetched];

    // On again: the next one is read (and said), the one sent while off still says nothing.
    await setOwnSwitch(page, true);
    await uploadInterest(page, 'interest-on');
    await expectFiles(page, ['interest-off.pdf', 'interest-on.pdf']);
    await screen.row('interest-on.pdf').getByText(SAID, { exact: true }).waitFor({ timeout: 30_000 });
    await expect(screen.row('interest-off.pdf').getByRole('status')).toHaveCount(0);
    expect(whileOff).toEqual([]);
    expect(fetched.length).toBeGreaterThan(0);
  });

  test('the programme’s switch off: nothing is read, and Account’s box is disabled and says why', async () => {
    const adminPage = (await app.visit()).page;
    await signInHome(app, adminPage, admin);
    await adminPage.goto('/admin/settings');
    await adminPage.getByRole('checkbox', { name: 'Check documents on the device' }).uncheck();
    await adminPage.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await checkScreen(adminPage, 'settings-reading-off');

    const { page } = await app.visit();
    const fetched = readerFetches(page);
    await signInHome(app, page, vera);
    await page.goto('/account');
    await expect(page.getByRole('checkbox', { name: 'Check documents on this device' })).toBeDisabled();
    await expect(page.getByRole('checkbox', { name: 'Check documents on this device' })).toBeChecked();
    await page.getByText('Your programme turned checking documents off.', { exact: true }).waitFor();
    await checkScreen(page, 'account-reading-off');

    const screen = await uploadInterest(page, 'interest-programme-off');
    await expectFiles(page, ['interest-off.pdf', 'interest-on.pdf', 'interest-programme-off.pdf']);
    const whileOff = [...fetched];

    const api = await ApiSession.open(app.server);
    await api.signIn(admin);
    await api.call('POST', '/admin/reading', { on: true });
    await api.dispose();
    await uploadInterest(page, 'interest-programme-on');
    await screen
      .row('interest-programme-on.pdf')
      .getByText(SAID, { exact: true })
      .waitFor({ timeout: 30_000 });
    await expect(screen.row('interest-programme-off.pdf').getByRole('status')).toHaveCount(0);
    expect(whileOff).toEqual([]);
    expect(fetched.length).toBeGreaterThan(0);
  });

  test('the programme’s switch off: the client page reads nothing either', async () => {
    const t = CLIENT_LINK_TEXTS.es;
    const api = await ApiSession.open(app.server);
    await api.signIn(admin);
    await api.call('POST', '/admin/reading', { on: false });
    await api.signIn(vera);
    await api.call('POST', `/clients/${boId}/docs/types`, { template: 'W-2' });
    const url = await requestLink(api, boId, 'es', ['W-2']);
    const client = await app.visit();
    const fetched = readerFetches(client.page);
    await proveWithCode(app, client, url, 'bo.diddley@client.example.org', 'es');
    await signConsent(client.page, 'es', 'Bo Diddley');
    const w2 = linkRow(client.page, 'W-2');
    const added = w2.getByRole('list', { name: t.added });
    await w2
      .getByLabel(t.uploadFiles, { exact: true })
      .setInputFiles([await formPhoto('interes-off.jpg', FORM_1099_INT)]);
    await added.getByText('interes-off.pdf').waitFor();
    const whileOff = [...fetched];

    // On again (the page learns it with its checklist): the next one is read, the first still says nothing.
    await api.signIn(admin);
    await api.call('POST', '/admin/reading', { on: true });
    await api.dispose();
    await client.page.reload();
    await w2
      .getByLabel(t.uploadFiles, { exact: true })
      .setInputFiles([await formPhoto('interes-on.jpg', FORM_1099_INT)]);
    await added.getByText('interes-on.pdf').waitFor();
    const said = w2.getByText('Parece un 1099-INT, no un W-2.', { exact: true });
    await said.waitFor({ timeout: 30_000 });
    await expect(said).toHaveCount(1);
    expect(whileOff).toEqual([]);
    expect(fetched.length).toBeGreaterThan(0);
  });
});
