// The season close (docs/behaviour.md#season-close) in the browser: the admin sees what it will do,
// can download every client's documents first as one ZIP, and closes only with the exact phrase; afterwards a
// volunteer cannot sign in and is told why.
import { readFile } from 'node:fs/promises';
import { seasonClosePhrase } from '@vita-docs/core';
import JSZip from 'jszip';
import { person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { DESKTOP } from './support/browser.js';
import { listDocs, pdfFixture, uploadViaApi } from './support/documents.js';
import { checkScreen } from './support/screens.js';
import { seeHeading, signIn, submitCredentials } from './support/journeys.js';
import { startWithClient } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Season');
const YEAR = new Date().getUTCFullYear();

test.describe('closing the season', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Dora', async (api, id, started) => {
      await uploadViaApi(api, started.server.url, id, 'Banking Info', await pdfFixture('statement.pdf'));
    }));
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('shows what it does, offers the ZIPs, needs the exact phrase, then closes', async () => {
    const { page, context, dialogs } = await app.visit(DESKTOP);
    await signIn(page, app.server, admin);
    await page.getByRole('link', { name: 'Close season' }).click();
    await seeHeading(page, `Close the ${YEAR} season`);
    // The consequence first and strongest, saying it cannot be undone.
    const warning = page.getByRole('status');
    const first = warning.locator('p').first();
    expect(await first.textContent()).toBe(
      `Closing the ${YEAR} season deletes all 1 document of 1 client. This cannot be undone.`,
    );
    expect(await first.evaluate((p) => getComputedStyle(p).fontWeight)).toBe('700');
    await warning.getByText('It also suspends 1 account (everyone but admins)', { exact: false }).waitFor();
    // One download of everything, a folder per client, instead of a button per client.
    expect(await page.getByRole('button', { name: /^Download ZIP/ }).count()).toBe(0);
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download all documents (ZIP)' }).click(),
    ]);
    expect(zip.suggestedFilename()).toBe(`season-${YEAR}-all-documents.zip`);
    const archive = await JSZip.loadAsync(await readFile(await zip.path()));
    expect(Object.keys(archive.files).filter((name) => !archive.files[name]!.dir)).toEqual([
      `Client, Dora (${clientId})/Banking Info/statement.pdf`,
    ]);

    const close = page.getByRole('button', { name: 'Close season' });
    const phrase = page.getByLabel(`Type ${seasonClosePhrase(YEAR)} to confirm`);
    expect(await close.isDisabled()).toBe(true);
    await phrase.fill(`close season ${YEAR}`);
    expect(await close.isDisabled()).toBe(true);
    await phrase.fill(seasonClosePhrase(YEAR));
    await checkScreen(page, 'season-close');
    expect(await close.isEnabled()).toBe(true);
    await close.click();
    await page
      .getByText(`The ${YEAR} season is closed: 1 document of 1 client deleted, 1 account suspended.`)
      .waitFor();
    expect(await listDocs(page, clientId, 'Banking Info')).toEqual([]);
    expect(dialogs.unread()).toEqual([]);
    await context.close();
  });

  test('a suspended volunteer is told why they cannot sign in', async () => {
    const { page, dialogs } = await app.visit();
    await page.goto('/login');
    await submitCredentials(page, vera);
    expect(await dialogs.next()).toEqual({
      type: 'alert',
      message: 'Your account is suspended for the off-season. Ask an officer or admin to reactivate it.',
    });
  });
});
