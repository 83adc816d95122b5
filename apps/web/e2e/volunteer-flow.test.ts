// A volunteer under time pressure on a phone (docs/behaviour.md#category-screen): the code field is
// ready to type in, the category says whose it is, an upload says how many went up and shows them,
// the Retake menu stays on screen, per-file buttons name their file and Delete sits apart, and focus
// never falls to <body> when a row goes.
import { messages } from '@vita-docs/core';
import type { Page } from '@playwright/test';
import { ApiSession, person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { PHONE } from './support/browser.js';
import {
  categoryScreen,
  expectFiles,
  oversizedPdfOnDisk,
  pdfFixture,
  photoFixture,
} from './support/documents.js';
import { checkScreen } from './support/screens.js';
import { seeHeading, submitCredentials } from './support/journeys.js';
import { startWithClient } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Volunteer');
const newcomer = person('Nina', 'Newcomer');

/** What has focus: its role-ish tag and accessible label, or `body`. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    const label =
      el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent;
    return `${el.tagName.toLowerCase()} ${label?.trim() ?? ''}`;
  });

test.describe('a volunteer under time pressure', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let vis: Visitor;
  let page: Page;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Dora'));
    vis = await app.visit(PHONE);
    page = vis.page;
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('the code field has focus when the verify screen opens', async () => {
    await page.goto(`/login?next=${encodeURIComponent(`/clients/${clientId}/docs/Banking Info`)}`);
    const after = Date.now();
    await submitCredentials(page, vera);
    await page.waitForURL((url) => url.pathname === '/login/verify');
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name))
      .toBe('code');
    await page.keyboard.type(await app.server.latestCode(vera.email, { after }));
    await page.keyboard.press('Enter');
    await seeHeading(page, 'Banking Info');
  });

  test('the category names its client; an upload says how many went up and shows the list', async () => {
    const screen = categoryScreen(page);
    await page.getByText('Dora Client', { exact: true }).waitFor();
    await screen.uploadFiles.setInputFiles([
      await pdfFixture('statement-1.pdf'),
      await pdfFixture('statement-2.pdf'),
      await pdfFixture('statement-3.pdf'),
    ]);
    await screen.uploadButton.click();
    await screen.addFiles.getByRole('status').getByText('3 files uploaded.', { exact: true }).waitFor();
    await expectFiles(page, ['statement-1.pdf', 'statement-2.pdf', 'statement-3.pdf']);
    await expect
      .poll(() =>
        screen.row('statement-3.pdf').evaluate((row) => {
          const box = row.getBoundingClientRect();
          return box.top >= 0 && box.top < window.innerHeight;
        }),
      )
      .toBe(true);
    await checkScreen(page, 'category-uploaded-summary');
  });

  test('per-file buttons name their file; Delete comes last; the Retake menu stays inside the viewport', async () => {
    const screen = categoryScreen(page);
    const row = screen.row('statement-2.pdf');
    const names = await row
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
    expect(names).toEqual([
      'View statement-2.pdf',
      'Rename statement-2.pdf',
      'Retake statement-2.pdf',
      'Delete statement-2.pdf',
    ]);

    await row.getByRole('button', { name: 'Retake statement-2.pdf' }).click();
    const menu = row.getByRole('group', { name: 'Retake statement-2.pdf' });
    await menu.waitFor();
    const box = await menu.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    for (const label of ['Upload', 'Take Photo']) {
      const picker = await menu.getByText(label, { exact: true }).boundingBox();
      expect(picker!.x).toBeGreaterThanOrEqual(0);
      expect(picker!.x + picker!.width).toBeLessThanOrEqual(PHONE.width);
    }
    await page.keyboard.press('Escape');
  });

  test('after a file is deleted, focus goes to the next row, not to <body>', async () => {
    const screen = categoryScreen(page);
    vis.dialogs.answerNextConfirm(true);
    await screen.row('statement-2.pdf').getByRole('button', { name: 'Delete statement-2.pdf' }).click();
    expect(await vis.dialogs.next()).toEqual({ type: 'confirm', message: messages.deleteFileConfirm });
    await expectFiles(page, ['statement-1.pdf', 'statement-3.pdf']);
    await expect.poll(() => focused(page)).toBe('input Select statement-3.pdf');

    vis.dialogs.answerNextConfirm(true);
    await screen.row('statement-3.pdf').getByRole('button', { name: 'Delete statement-3.pdf' }).click();
    await vis.dialogs.next();
    await expectFiles(page, ['statement-1.pdf']);
    // The last row went: the one before takes its place.
    await expect.poll(() => focused(page)).toBe('input Select statement-1.pdf');
  });

  test('two camera photos are named after the category, 1 and 2; a picked file keeps its name', async () => {
    const screen = categoryScreen(page);
    await screen.takePhoto.setInputFiles([await photoFixture('image.jpg', 1200, 1600)]);
    await screen.takePhoto.setInputFiles([await photoFixture('image.jpg', 1200, 1600)]);
    await screen.uploadFiles.setInputFiles([await pdfFixture('lease.pdf')]);
    await screen.queued('Banking Info 1.pdf').getByText('Not uploaded yet').waitFor();
    await screen.queued('Banking Info 2.pdf').getByText('Not uploaded yet').waitFor();
    await screen.queued('lease.pdf').waitFor();
    await screen.uploadButton.click();
    await expectFiles(page, ['statement-1.pdf', 'Banking Info 1.pdf', 'Banking Info 2.pdf', 'lease.pdf']);
    // The next one continues the numbers already uploaded.
    await screen.takePhoto.setInputFiles([await photoFixture('image.jpg', 1200, 1600)]);
    await screen.queued('Banking Info 3.pdf').getByText('Not uploaded yet').waitFor();
    await screen.queued('Banking Info 3.pdf').getByRole('button', { name: 'Remove' }).click();
  });

  test('a 26 MB file is refused in the queue at once: no request, no Retry', async () => {
    const screen = categoryScreen(page);
    const presigns: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/docs/presign')) presigns.push(request.url());
    });
    await screen.uploadFiles.setInputFiles(await oversizedPdfOnDisk('scan-26mb.pdf', 26));
    const item = screen.queued('scan-26mb.pdf');
    await item.getByText('This file is larger than the 25 MB limit.', { exact: true }).waitFor();
    expect(await item.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    // It is not counted in Upload, which stays disabled with nothing else to send: the server is asked nothing.
    expect(await screen.uploadButton.textContent()).toBe('Upload (0)');
    expect(await screen.uploadButton.isDisabled()).toBe(true);
    await item.getByText('This file is larger than the 25 MB limit.', { exact: true }).waitFor();
    expect(presigns).toEqual([]);
    await checkScreen(page, 'queue-too-large');
    await item.getByRole('button', { name: 'Remove' }).click();
  });

  test('an expired session goes to login and back, the queued photo still there', async () => {
    const screen = categoryScreen(page);
    await screen.takePhoto.setInputFiles([await photoFixture('image.jpg', 1200, 1600)]);
    await screen.queued('Banking Info 3.pdf').getByText('Not uploaded yet').waitFor();
    // The session ends on the server's side as far as this browser knows: its cookies are gone.
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Refresh' }).click();
    const categoryPath = `/clients/${clientId}/docs/Banking%20Info`;
    await page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('next') === categoryPath,
    );
    const after = Date.now();
    await submitCredentials(page, vera);
    await page.waitForURL((url) => url.pathname === '/login/verify');
    await page.getByLabel('6-digit code').fill(await app.server.latestCode(vera.email, { after }));
    await page.getByRole('button', { name: 'Submit' }).click();
    await seeHeading(page, 'Banking Info');
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(decodeURIComponent(categoryPath));
    await screen.queued('Banking Info 3.pdf').getByText('Not uploaded yet').waitFor();
  });

  test('leaving with a file not uploaded asks (Done, Back): Stay keeps the page, Upload now sends it and goes', async () => {
    const screen = categoryScreen(page);
    await page.getByRole('link', { name: 'Done' }).click();
    const ask = page.getByRole('dialog', { name: '1 file is not uploaded yet.' });
    await ask.waitFor();
    await checkScreen(page, 'leave-with-queue');
    await ask.getByRole('button', { name: 'Stay' }).click();
    await ask.waitFor({ state: 'detached' });
    await seeHeading(page, 'Banking Info');
    // The browser's Back asks too, and Stay keeps the page (and its address).
    const here = page.url();
    await page.evaluate(() => window.history.back());
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Stay' }).click();
    await ask.waitFor({ state: 'detached' });
    await seeHeading(page, 'Banking Info');
    expect(page.url()).toBe(here);

    await page.getByRole('link', { name: 'Done' }).click();
    await ask.getByRole('button', { name: 'Upload now' }).click();
    await seeHeading(page, 'Client Documents');
    // The upload went on without the screen: the file is there when the category opens again.
    await page.getByRole('link', { name: 'Banking Info', exact: true }).click();
    await seeHeading(page, 'Banking Info');
    await expectFiles(page, [
      'statement-1.pdf',
      'Banking Info 1.pdf',
      'Banking Info 2.pdf',
      'lease.pdf',
      'Banking Info 3.pdf',
    ]);
    expect(await screen.queue.count()).toBe(0);
  });

  test('Discard empties the queue and leaves', async () => {
    const screen = categoryScreen(page);
    await screen.uploadFiles.setInputFiles([await pdfFixture('draft.pdf')]);
    await screen.queued('draft.pdf').waitFor();
    await page.getByRole('link', { name: 'Done' }).click();
    await page
      .getByRole('dialog', { name: '1 file is not uploaded yet.' })
      .getByRole('button', { name: 'Discard' })
      .click();
    await seeHeading(page, 'Client Documents');
    await page.getByRole('link', { name: 'Banking Info', exact: true }).click();
    await seeHeading(page, 'Banking Info');
    expect(await screen.queue.count()).toBe(0);
  });

  test('after five wrong codes the message says to use Resend code', async () => {
    const other = await app.visit(PHONE);
    await other.page.goto('/login');
    await submitCredentials(other.page, vera);
    await other.page.waitForURL((url) => url.pathname === '/login/verify');
    const messagesSeen: string[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      await other.page.getByLabel('6-digit code').fill('000000');
      await other.page.getByRole('button', { name: 'Submit' }).click();
      messagesSeen.push((await other.dialogs.next()).message);
    }
    expect(messagesSeen.slice(0, 4).every((m) => /not valid or has expired/.test(m))).toBe(true);
    expect(messagesSeen[4]).toBe('Too many wrong codes. Use Resend code to get a new one.');
    await other.close();
  });

  test('an approved volunteer gets an email with the sign-in link', async () => {
    const session = await ApiSession.open(app.server);
    await session.register(newcomer);
    await session.dispose();
    const adminSession = await ApiSession.open(app.server);
    await adminSession.signIn(admin);
    await adminSession.approve(newcomer.email);
    await adminSession.dispose();
    await expect
      .poll(async () =>
        (await app.server.outbox())
          .filter((m) => m.to === newcomer.email.toLowerCase())
          .map((m) => m.subject),
      )
      .toContain('Your VITA Documents account is approved');
    const mail = (await app.server.outbox()).find(
      (m) => m.subject === 'Your VITA Documents account is approved',
    );
    expect(mail?.text).toContain(`${app.server.url}/login`);
  });
});
