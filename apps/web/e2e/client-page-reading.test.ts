// The client page reads what the client adds, on the phone (docs/behaviour.md#reading-documents): in
// Spanish, a 1099-INT photographed into the W-2 row says so and moves to the 1099-INT row the volunteer
// asked for; a form the link did not ask for is only said, with `Dejar aquí`; a W-2 in W-2 says nothing;
// an expired license's barcode says when it expired —
// with every request to anywhere but the app itself cut after the page loaded.
import { CLIENT_CAPTURE_TEXTS, CLIENT_LINK_TEXTS } from '@vita-docs/core';
import type { ApiSession } from './support/api.js';
import { person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { cutOutside } from './support/browser.js';
import {
  categoryFiles,
  checkClientScreen,
  linkRow,
  proveWithCode,
  requestLink,
  signConsent,
} from './support/client-page.js';
import { formPhoto, licenseBackPhoto } from './support/documents.js';
import { startWithVolunteer } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Reads');
const t = CLIENT_LINK_TEXTS.es;
const ID = 'License/Other Identification';
const INT = [
  'Form 1099-INT',
  'Interest Income',
  'For calendar year 2025',
  'PAYER: Lakeside Credit Union',
  '1 Interest income   $ 31.20',
];
const W2 = [
  'Form W-2 Wage and Tax Statement 2025',
  'b Employer identification number 12-3456789',
  '1 Wages, tips, other compensation  41,250.00',
];
const TUITION = [
  'Form 1098-T Tuition Statement 2025',
  "FILER'S name: Washtenaw Community College",
  '1 Payments received for qualified tuition  2,400.00',
];

test.describe('the client page reads what is added, in Spanish', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let api: ApiSession;
  let client: Visitor;
  let clientId = '';
  let outside: string[] = [];

  test.beforeAll(async ({ startApp }) => {
    ({ app, api } = await startWithVolunteer(startApp, admin, vera, 'Dora'));
    const made = await api.createClient('Elena', 'Diaz');
    clientId = made.clientId;
    for (const template of ['W-2', '1099-INT'])
      await api.call('POST', `/clients/${clientId}/docs/types`, { template });
    const url = await requestLink(api, clientId, 'es', ['W-2', '1099-INT', ID]);
    client = await app.visit();
    await proveWithCode(app, client, url, made.email, 'es');
    await signConsent(client.page, 'es', 'Elena Diaz');
    await linkRow(client.page, 'W-2').waitFor();
    outside = await cutOutside(client.page);
  });
  test.afterAll(async () => {
    await api?.dispose();
    await app?.stop();
  });

  test('a 1099-INT photographed into W-2 is caught and moved to the 1099-INT row', async () => {
    const page = client.page;
    const w2 = linkRow(page, 'W-2');
    await w2.getByLabel(t.uploadFiles, { exact: true }).setInputFiles([await formPhoto('interes.jpg', INT)]);
    // The upload does not wait for the reading: the file is stored, then its row says what it is.
    await w2.getByRole('list', { name: t.added }).getByText('interes.pdf').waitFor();
    await w2.getByText('Parece un 1099-INT, no un W-2.', { exact: true }).waitFor({ timeout: 30_000 });
    await checkClientScreen(page, 'client page: what the phone read of a file');
    await w2.getByRole('button', { name: 'Mover a 1099-INT', exact: true }).click();
    await linkRow(page, '1099-INT').getByRole('list', { name: t.added }).getByText('interes.pdf').waitFor();
    await expect(w2.getByRole('list', { name: t.added })).toHaveCount(0);
    await expect(page.getByText(/^Parece un/)).toHaveCount(0);
    expect((await categoryFiles(api, clientId, '1099-INT')).map((f) => f.filename)).toEqual(['interes.pdf']);
    expect(await categoryFiles(api, clientId, 'W-2')).toEqual([]);
    expect(outside).toEqual([]);
  });

  test('a W-2 in W-2 says nothing; a form not asked for is said, with only Dejar aquí', async () => {
    const page = client.page;
    const w2 = linkRow(page, 'W-2');
    // Read one after the other, in the order added: once the second is said, the first was read.
    await w2
      .getByLabel(t.uploadFiles, { exact: true })
      .setInputFiles([await formPhoto('w2.jpg', W2), await formPhoto('matricula.jpg', TUITION)]);
    const said = w2.getByText('Parece un 1098-T, no un W-2.', { exact: true });
    await said.waitFor({ timeout: 30_000 });
    // No 1098-T row on this page: the client cannot move it there.
    await expect(w2.getByRole('button', { name: /^Mover a/ })).toHaveCount(0);
    await w2.getByRole('button', { name: 'Dejar aquí', exact: true }).click();
    await expect(said).toHaveCount(0);
    await expect(page.getByText(/^Parece un|^Este formulario es de/)).toHaveCount(0);
    const added = w2.getByRole('list', { name: t.added });
    await added.getByText('w2.pdf').waitFor();
    await added.getByText('matricula.pdf').waitFor();
    expect(outside).toEqual([]);
  });

  test('an expired license’s barcode says when it expired, in Spanish', async () => {
    const row = linkRow(client.page, ID);
    await row
      .getByLabel(t.uploadFiles, { exact: true })
      .setInputFiles([await licenseBackPhoto('licencia.jpg', '2025-03-15')]);
    // Said on the queued row while the photo awaits the client's answer (a barcode close up looks soft)…
    const said = row.getByText('Esta identificación venció el 15 de marzo de 2025.', { exact: true });
    await said.waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: `${CLIENT_CAPTURE_TEXTS.es.keepAnyway} licencia.pdf` }).click();
    // …and on its Added row once it is stored.
    await row.getByRole('list', { name: t.added }).getByText('licencia.pdf').waitFor();
    const added = row.getByRole('list', { name: t.added });
    await added.getByText('Esta identificación venció el 15 de marzo de 2025.', { exact: true }).waitFor();
    expect(outside).toEqual([]);
  });
});
