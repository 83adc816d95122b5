// The season close (docs/behaviour.md#season-close) in the browser: the admin sees what it will do,
// can download each client's ZIP first, and closes only with the exact phrase; afterwards a
// volunteer cannot sign in and is told why.
import { seasonClosePhrase, zipFileName } from '@vita-docs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { DESKTOP } from './support/browser.js';
import { listDocs, pdfFixture, uploadViaApi } from './support/documents.js';
import { checkScreen } from './support/screens.js';
import { seeHeading, signInViaUi, submitCredentials } from './support/journeys.js';
import { startWithClient } from './support/seed.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Season');
const YEAR = new Date().getUTCFullYear();

describe('closing the season', () => {
  let app: TestApp;
  let clientId = '';

  beforeAll(async () => {
    ({ app, clientId } = await startWithClient(admin, vera, 'Dora', async (api, id, started) => {
      await uploadViaApi(api, started.server.url, id, 'Banking Info', await pdfFixture('statement.pdf'));
    }));
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('shows what it does, offers the ZIPs, needs the exact phrase, then closes', async () => {
    const { page, context, dialogs } = await app.visit(DESKTOP);
    await signInViaUi(page, app.server, admin);
    await page.getByRole('link', { name: 'Close season' }).click();
    await seeHeading(page, `Close the ${YEAR} season`);
    await page
      .getByText(
        `Closing the ${YEAR} season deletes all 1 document of 1 client and suspends 1 account (everyone but admins)`,
      )
      .waitFor();
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download ZIP of Dora Client' }).click(),
    ]);
    expect(zip.suggestedFilename()).toBe(zipFileName(clientId));

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

  it('a suspended volunteer is told why they cannot sign in', async () => {
    const { page, dialogs } = await app.visit();
    await page.goto('/login');
    await submitCredentials(page, vera);
    expect(await dialogs.next()).toEqual({
      type: 'alert',
      message: 'Your account is suspended for the off-season. Ask an officer or admin to reactivate it.',
    });
  });
});
