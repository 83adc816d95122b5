// A volunteer under time pressure, what must not slow them down: status that follows uploads as they land, a
// retake that keeps its name and is checked like any photo, and work picked up after signing in again.
import { discardKeptConfirm, filesWaitingMessage, messages } from '@vita-docs/core';
import type { Page, Route } from '@playwright/test';
import { ApiSession, person, seedPeople } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { PHONE } from './support/browser.js';
import {
  categoryRow,
  categoryScreen,
  expectFiles,
  listDocs,
  pagePhoto,
  pdfFixture,
} from './support/documents.js';
import { checkScreen } from './support/screens.js';
import { seeHeading, signIn, submitCredentials } from './support/journeys.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Roundtwo');
/** Photo conversion and two axe passes per screen on a busy 2-core machine. */
const SLOW = 300_000;

/** Holds every direct upload (PUT) until `release`: a connection slow enough to leave the screen meanwhile. */
async function holdUploads(page: Page) {
  const held: Route[] = [];
  let open = false;
  let arrived: () => void = () => undefined;
  await page.route('**/api/storage/put?**', async (route) => {
    if (open) return route.continue();
    held.push(route);
    arrived();
  });
  return {
    /** Waits until `count` uploads are held. */
    async waitFor(count: number): Promise<void> {
      while (held.length < count) await new Promise<void>((resolve) => (arrived = resolve));
    },
    /** Lets the held upload `index` go on. */
    release: (index: number) => held[index]?.continue(),
    async stop(): Promise<void> {
      open = true;
      await page.unroute('**/api/storage/put?**');
    },
  };
}

/** Signs in again on the login page the app went to, and waits for the page it comes back to. */
async function signInAgain(app: TestApp, page: Page, heading: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/login');
  const after = Date.now();
  await submitCredentials(page, vera);
  await page.waitForURL((url) => url.pathname === '/login/verify');
  await page.getByLabel('6-digit code').fill(await app.server.latestCode(vera.email, { after }));
  await page.getByRole('button', { name: 'Submit' }).click();
  await seeHeading(page, heading);
}

test.describe('a volunteer, round 2', () => {
  test.describe.configure({ mode: 'serial', timeout: SLOW });
  let app: TestApp;
  let vis: Visitor;
  let page: Page;
  let clientId = '';
  const docsPath = () => `/clients/${clientId}/docs`;

  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    await (await seedPeople(app.server, admin, [{ person: vera }])).dispose();
    const api = await ApiSession.open(app.server);
    await api.signIn(vera);
    clientId = (await api.createClient('Ada', 'Lovelace')).clientId;
    await api.dispose();
    vis = await app.visit(PHONE);
    page = vis.page;
    await signIn(page, app.server, vera, docsPath());
    await seeHeading(page, 'Client Documents');
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('the category row turns Ready as the uploads land, with no Refresh', async () => {
    await categoryRow(page, 'Banking Info').getByRole('link').click();
    await seeHeading(page, 'Banking Info');
    const screen = categoryScreen(page);
    await screen.takePhoto.setInputFiles([
      await pagePhoto('image.jpg', 1200, 1600),
      await pagePhoto('image.jpg', 1200, 1600),
    ]);
    await screen.queued('Banking Info 2.pdf').getByText('Not uploaded yet').waitFor();
    const slow = await holdUploads(page);
    await screen.uploadButton.click();
    await slow.waitFor(1);
    await page.getByRole('link', { name: 'Done' }).click();
    await seeHeading(page, 'Client Documents');
    const row = categoryRow(page, 'Banking Info');
    await row.getByText('Missing', { exact: true }).waitFor();
    await slow.release(0);
    await row.getByText('Ready', { exact: true }).waitFor();
    await slow.waitFor(2);
    await slow.release(1);
    await slow.stop();
    await expect
      .poll(async () => (await listDocs(page, clientId, 'Banking Info')).map((d) => d.filename))
      .toEqual(['Banking Info 1.pdf', 'Banking Info 2.pdf']);
    await checkScreen(page, 'round2-docs-ready');
  });

  test('a retake keeps the name of the file it replaces (a phone sends image.jpg)', async () => {
    await categoryRow(page, 'Banking Info').getByRole('link').click();
    await seeHeading(page, 'Banking Info');
    const screen = categoryScreen(page);
    await expectFiles(page, ['Banking Info 1.pdf', 'Banking Info 2.pdf']);
    const row = screen.row('Banking Info 1.pdf');
    await row.getByRole('button', { name: 'Retake Banking Info 1.pdf' }).click();
    await row
      .getByLabel('Take Photo', { exact: true })
      .setInputFiles([await pagePhoto('image.jpg', 1000, 1334, 236, { lineHeight: 3 })]);
    await row.getByText('Replaced').waitFor();
    await expectFiles(page, ['Banking Info 1.pdf', 'Banking Info 2.pdf']);
  });

  test('a blurry retake warns first; nothing is replaced until Keep anyway', async () => {
    const screen = categoryScreen(page);
    const before = (await listDocs(page, clientId, 'Banking Info')).map((d) => d.key);
    const row = screen.row('Banking Info 2.pdf');
    await row.getByRole('button', { name: 'Retake Banking Info 2.pdf' }).click();
    await row
      .getByLabel('Take Photo', { exact: true })
      .setInputFiles([await pagePhoto('image.jpg', 1000, 1334, 236, { lineHeight: 3, blur: 3 })]);
    await row.getByText('This photo looks blurry.').waitFor();
    await checkScreen(page, 'round2-retake-blurry');
    expect((await listDocs(page, clientId, 'Banking Info')).map((d) => d.key)).toEqual(before);
    await row.getByRole('button', { name: 'Keep anyway: replace Banking Info 2.pdf' }).click();
    await row.getByText('Replaced').waitFor();
    const after = await listDocs(page, clientId, 'Banking Info');
    expect(after.map((d) => d.filename)).toEqual(['Banking Info 1.pdf', 'Banking Info 2.pdf']);
    expect(after[1]?.key).not.toBe(before[1]);
  });

  test('a file that failed because the session ended uploads by itself after signing in again', async () => {
    const screen = categoryScreen(page);
    await screen.uploadFiles.setInputFiles([await pdfFixture('statement.pdf')]);
    await screen.queued('statement.pdf').getByText('Not uploaded yet').waitFor();
    await page.context().clearCookies();
    await screen.uploadButton.click();
    await signInAgain(app, page, 'Banking Info');
    await expectFiles(page, ['Banking Info 1.pdf', 'Banking Info 2.pdf', 'statement.pdf']);
    expect(await screen.queue.count()).toBe(0);
  });

  test('a half-filled New Client form keeps what was typed (not the PIN) across signing in again', async () => {
    await page.goto('/clients/new');
    await seeHeading(page, 'Create New Client');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Email').fill('grace@client.example.org');
    await page.getByLabel('Phone').fill('555-0199');
    await page.getByLabel('Client PIN (optional)').fill('4321');
    // Kept in the page's memory: nothing of the client in the browser's storage or the address.
    const stored = () => page.evaluate(() => JSON.stringify([{ ...sessionStorage }, { ...localStorage }]));
    expect(await stored()).not.toMatch(/Hopper|4321|555-0199/);
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Create Client' }).click();
    await signInAgain(app, page, 'Create New Client');
    expect(page.url()).not.toMatch(/Grace|Hopper|4321/);
    expect(await stored()).not.toMatch(/Hopper|4321|555-0199/);
    expect(await page.getByLabel('First name').inputValue()).toBe('Grace');
    expect(await page.getByLabel('Last name').inputValue()).toBe('Hopper');
    expect(await page.getByLabel('Email').inputValue()).toBe('grace@client.example.org');
    expect(await page.getByLabel('Phone').inputValue()).toBe('555-0199');
    expect(await page.getByLabel('Client PIN (optional)').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Create Client' }).click();
    await seeHeading(page, 'Client Documents');
    await page.getByText('Grace Hopper · grace@client.example.org').waitFor();
    // Created: the draft is gone, the next New Client form (opened within the page) is empty.
    await page.getByRole('link', { name: 'Client List' }).click();
    await seeHeading(page, 'Client List');
    await page.getByRole('link', { name: 'Add New Client' }).click();
    await seeHeading(page, 'Create New Client');
    expect(await page.getByLabel('First name').inputValue()).toBe('');
  });

  test('the kept files’ Discard asks before deleting them: Cancel keeps them, OK deletes them', async () => {
    const { page: tab, context, dialogs } = await app.visit(PHONE);
    await signIn(tab, app.server, vera, `${docsPath()}/Banking%20Info`);
    await seeHeading(tab, 'Banking Info');
    const screen = categoryScreen(tab);
    // The way to the file store is cut: the file waits, kept on the device, through a reload.
    await context.route('**/api/storage/put?**', (route) => route.abort('internetdisconnected'));
    await screen.uploadFiles.setInputFiles([await pdfFixture('kept.pdf')]);
    await screen.queued('kept.pdf').getByText('Not uploaded yet').waitFor();
    await screen.uploadButton.click();
    await screen.queued('kept.pdf').getByText(messages.waitingForConnection).waitFor();
    await tab.reload();
    const offer = tab.getByRole('region', { name: 'Files waiting to upload' });
    await offer.getByText(filesWaitingMessage(1)).waitFor();
    dialogs.answerNextConfirm(false);
    await offer.getByRole('button', { name: 'Discard' }).click();
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: discardKeptConfirm(1) });
    expect(await offer.getByText('kept.pdf').isVisible()).toBe(true);
    dialogs.answerNextConfirm(true);
    await offer.getByRole('button', { name: 'Discard' }).click();
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: discardKeptConfirm(1) });
    await offer.waitFor({ state: 'detached' });
    await context.close();
  });
});
