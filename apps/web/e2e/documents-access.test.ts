// Who may see a client's documents, and what officers and admins do with them
// (docs/behaviour.md#roles-and-permissions): drag and drop, Download All of a subset opened with jszip,
// a second volunteer refused, Reassign Client (empty list, client-meta failure → orphan path), and an
// admin deleting a client and its files.
import { messages, zipFileName } from '@vita-docs/core';
import JSZip from 'jszip';
import { readFile } from 'node:fs/promises';
import { ApiSession, person, seedPeople } from './support/api.js';
import type { TestApp } from './support/app.js';
import { DESKTOP } from './support/browser.js';
import {
  bulkyPdf,
  categoryRow,
  categoryScreen,
  dropFiles,
  expectFiles,
  filesOnDisk,
  pdfFixture,
  photoFixture,
  uploadViaApi,
} from './support/documents.js';
import type { Fixture } from './support/documents.js';
import { checkScreen } from './support/screens.js';
import { seeHeading, signIn } from './support/journeys.js';
import { expect, test } from './support/test.js';

const admin = person('Abe', 'Admin');
const vera = person('Vera', 'Access');
const victor = person('Victor', 'Other');
const wendy = person('Wendy', 'Leaving');

test.describe('client documents: access, ZIP, reassignment, deletion', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let coraId = '';
  let ottoId = '';
  let files: Record<'a' | 'b' | 'bank' | 'big', Fixture>;

  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    const adminApi = await seedPeople(app.server, admin, [
      { person: vera },
      { person: victor },
      { person: wendy },
    ]);
    files = {
      a: await pdfFixture('a.pdf'),
      b: await pdfFixture('b.pdf'),
      bank: await photoFixture('void-cheque.jpg', 800, 400),
      big: bulkyPdf('passport-scan.pdf', 6),
    };
    const veraApi = await ApiSession.open(app.server);
    await veraApi.signIn(vera);
    coraId = (await veraApi.createClient('Cora', 'Client')).clientId;
    await uploadViaApi(veraApi, app.server.url, coraId, '13614-C', files.a);
    await uploadViaApi(veraApi, app.server.url, coraId, '13614-C', files.b);
    await uploadViaApi(veraApi, app.server.url, coraId, 'Banking Info', files.bank);
    await uploadViaApi(veraApi, app.server.url, coraId, 'License/Other Identification', files.big);
    await veraApi.dispose();
    // Wendy's client becomes an orphan when her account goes.
    const wendyApi = await ApiSession.open(app.server);
    await wendyApi.signIn(wendy);
    ottoId = (await wendyApi.createClient('Otto', 'Orphan')).clientId;
    await wendyApi.dispose();
    await adminApi.deleteUser(wendy.email);
    await adminApi.dispose();
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('files dropped on the category screen join the queue; other kinds are refused with a message', async () => {
    const { page, dialogs } = await app.visit();
    await signIn(
      page,
      app.server,
      vera,
      `/clients/${coraId}/docs/${encodeURIComponent('Digital Consent Form')}`,
    );
    await seeHeading(page, 'Digital Consent Form');
    const screen = categoryScreen(page);
    await screen.uploaded.getByText(messages.noFilesYet).waitFor();
    const notes: Fixture = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') };
    await dropFiles(page, [await pdfFixture('consent.pdf'), notes]);
    expect(await dialogs.next()).toEqual({
      type: 'alert',
      message: 'Only PDF files and images can be uploaded. Not added: notes.txt',
    });
    await screen.queued('consent.pdf').getByText('Not uploaded yet').waitFor();
    await screen.uploadButton.click();
    await expectFiles(page, ['consent.pdf']);
  });

  test('Download All: the dialog lists every type, and a subset downloads exactly those files', async () => {
    const { page } = await app.visit(DESKTOP);
    await signIn(page, app.server, vera, `/clients/${coraId}/docs`);
    await page.getByRole('button', { name: 'Download All Documents' }).click();
    const modal = page.getByRole('dialog', { name: 'Choose types to include' });
    const box = (name: string) =>
      modal.getByRole('checkbox', { name: new RegExp(`^${name} (Has files|Empty)$`) });
    await box('13614-C').waitFor();
    const labels = await modal
      .getByRole('checkbox')
      .evaluateAll((inputs) =>
        inputs.map(
          (i) => `${(i as HTMLInputElement).checked ? '[x]' : '[ ]'} ${i.closest('label')!.textContent}`,
        ),
      );
    // The types with files start ticked.
    expect(labels).toEqual([
      '[x] 13614-CHas files',
      '[ ] Michigan/Locality IntakeEmpty',
      '[x] License/Other IdentificationHas files',
      '[x] Digital Consent FormHas files',
      '[x] Banking InfoHas files',
    ]);
    const list = modal.getByRole('group', { name: 'Document types' });
    expect(
      await list.evaluate((el) => [getComputedStyle(el).maxHeight, getComputedStyle(el).overflowY]),
    ).toEqual(['300px', 'auto']);
    await checkScreen(page, 'download-dialog');

    await box('License/Other Identification').uncheck();
    await box('Banking Info').uncheck();
    await box('Digital Consent Form').uncheck();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      modal.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(zipFileName(coraId));
    await modal.waitFor({ state: 'detached' });
    const zip = await JSZip.loadAsync(await readFile(await download.path()));
    const entries = Object.values(zip.files).filter((f) => !f.dir);
    expect(entries.map((f) => f.name)).toEqual(['13614-C/a.pdf', '13614-C/b.pdf']);
    for (const [entry, fixture] of [
      [entries[0]!, files.a],
      [entries[1]!, files.b],
    ] as const) {
      expect(Buffer.from(await entry.async('uint8array')).equals(fixture.buffer)).toBe(true);
    }
  });

  test('Download All of a large archive shows its progress, then holds every file', async () => {
    const { page } = await app.visit(DESKTOP);
    await signIn(page, app.server, vera, `/clients/${coraId}/docs`);
    // A slow line (about 2 MB/s), so the 6 MB archive takes a few seconds.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: 2 * 1024 * 1024,
      uploadThroughput: -1,
    });
    await page.getByRole('button', { name: 'Download All Documents' }).click();
    const modal = page.getByRole('dialog', { name: 'Choose types to include' });
    await modal.getByRole('button', { name: 'Select All' }).click();
    const downloaded = page.waitForEvent('download', { timeout: 120_000 });
    await modal.getByRole('button', { name: 'Download', exact: true }).click();
    await modal
      .getByRole('status')
      .getByText(/^Downloading… \d+% \(\d+(\.\d)? [KM]B\)$/)
      .waitFor();
    expect(await modal.getByRole('progressbar', { name: 'Download progress' }).isVisible()).toBe(true);
    const download = await downloaded;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const zip = await JSZip.loadAsync(await readFile(await download.path()));
    const names = Object.values(zip.files)
      .filter((f) => !f.dir)
      .map((f) => f.name);
    expect(names).toEqual([
      '13614-C/a.pdf',
      '13614-C/b.pdf',
      'License-Other Identification/passport-scan.pdf',
      'Digital Consent Form/consent.pdf',
      'Banking Info/void-cheque.jpg',
    ]);
    const big = await zip.file('License-Other Identification/passport-scan.pdf')!.async('uint8array');
    expect(Buffer.from(big).equals(files.big.buffer)).toBe(true);
  });

  test('a second volunteer opening the client by its URL sees an error, not the data', async () => {
    const { page, dialogs } = await app.visit();
    await signIn(page, app.server, victor, `/clients/${coraId}/docs`);
    await seeHeading(page, 'Client Documents');
    expect(await dialogs.next()).toEqual({
      type: 'alert',
      message: 'This client belongs to another volunteer.',
    });
    const region = page.getByRole('region', { name: 'Required Documents' });
    await region.getByText('This client belongs to another volunteer.').waitFor();
    expect(await region.getByRole('link').count()).toBe(0);
    expect(await page.getByText('Cora Client').count()).toBe(0);
    await checkScreen(page, 'client-docs-refused');

    await page.goto(`/clients/${coraId}/docs/13614-C`);
    expect(await dialogs.next()).toEqual({
      type: 'alert',
      message: 'This client belongs to another volunteer.',
    });
    const uploaded = categoryScreen(page).uploaded;
    await uploaded.getByText('This client belongs to another volunteer.').waitFor();
    expect(await uploaded.getByRole('listitem').count()).toBe(0);
    expect(await page.getByText('a.pdf').count()).toBe(0);

    await page.goto('/clients');
    await seeHeading(page, 'Client List');
    await page.getByText('No clients yet.').waitFor();
    expect(await page.getByRole('link', { name: 'Cora Client' }).count()).toBe(0);
  });

  test('Reassign Client: the empty list says so; a failed client-meta lookup takes the orphan path', async () => {
    const { page, dialogs } = await app.visit(DESKTOP);
    await signIn(page, app.server, admin, '/clients');
    // Admins see every client, with who created it.
    await page.getByRole('link', { name: 'Cora Client' }).waitFor();
    await page.getByText(`Created by: ${vera.email}`).waitFor();
    await checkScreen(page, 'client-list-admin');
    await page.getByRole('link', { name: 'Otto Orphan' }).click();
    await seeHeading(page, 'Client Documents');
    await page.getByText('Volunteer: unknown (needs reassignment)').waitFor();

    await page.route('**/api/officer/volunteers', (route) => route.fulfill({ json: { items: [] } }));
    await page.getByRole('button', { name: 'Reassign Client' }).click();
    const modal = page.getByRole('dialog', { name: 'Reassign Client' });
    await modal.getByText(messages.noVolunteersFound).waitFor();
    expect(await modal.getByRole('button', { name: 'Yes, Reassign' }).isDisabled()).toBe(true);
    await modal.getByRole('button', { name: 'No' }).click();
    await modal.waitFor({ state: 'detached' });
    await page.unroute('**/api/officer/volunteers');

    await page.route('**/api/admin/client-meta/**', (route) =>
      route.fulfill({ status: 500, json: { error: 'Something went wrong.' } }),
    );
    await page.getByRole('button', { name: 'Reassign Client' }).click();
    await modal.getByLabel('New Volunteer').selectOption(vera.email);
    await checkScreen(page, 'client-docs-reassign');
    const orphanCall = page.waitForRequest((r) => r.url().endsWith('/api/officer/orphaned-clients/reassign'));
    await modal.getByRole('button', { name: 'Yes, Reassign' }).click();
    await orphanCall;
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.clientReassigned });
    await modal.waitFor({ state: 'detached' });
    await page.getByText(`Volunteer: ${vera.email}`).waitFor();
    await page.unroute('**/api/admin/client-meta/**');

    // An owned client goes through the admin call; afterwards the page shows the new owner.
    await page.goto(`/clients/${coraId}/docs`);
    await page.getByText(`Volunteer: ${vera.email}`).waitFor();
    await page.getByRole('button', { name: 'Reassign Client' }).click();
    await modal.getByLabel('New Volunteer').selectOption(victor.email);
    const adminCall = page.waitForRequest((r) => r.url().endsWith('/api/admin/clients/reassign'));
    await modal.getByRole('button', { name: 'Yes, Reassign' }).click();
    await adminCall;
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.clientReassigned });
    await page.getByText(`Volunteer: ${victor.email}`).waitFor();
  });

  test('an admin deletes a client: its files are gone from storage', async () => {
    expect((await filesOnDisk(app.server.dataDir, coraId)).length).toBe(5);
    const { page, dialogs } = await app.visit(DESKTOP);
    await signIn(page, app.server, admin);
    const card = page
      .getByRole('region', { name: 'All Clients' })
      .getByRole('article', { name: 'Cora Client' });
    await card.getByRole('button', { name: 'Delete Client' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Client?' })
      .getByRole('button', { name: 'Delete Client' })
      .click();
    await card.waitFor({ state: 'detached' });
    await expect.poll(() => filesOnDisk(app.server.dataDir, coraId), { timeout: 30_000 }).toEqual([]);
    const gone = await page.request.get(`/api/docs/list/${coraId}?docType=13614-C`);
    expect(gone.status()).toBe(404);
    expect((await filesOnDisk(app.server.dataDir, ottoId)).length).toBe(0);
    await page.goto(`/clients/${coraId}/docs`);
    const notFound = await dialogs.next();
    expect(notFound.type).toBe('alert');
    await page.getByRole('region', { name: 'Required Documents' }).getByText(notFound.message).waitFor();
    expect(await categoryRow(page, '13614-C').count()).toBe(0);
  });
});
