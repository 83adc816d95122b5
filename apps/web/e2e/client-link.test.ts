// Clients hand in their own documents (docs/behaviour.md#requesting-documents-from-a-client), at phone size
// with two browser profiles: the volunteer asks for three categories, the client opens the link from the
// mail, proves who they are with the mailed code, consents, photographs one document (a PDF), scans two
// pages of another, answers "I don't have this" for the third and presses I'm done; the volunteer sees
// what came back. Then the refusals: wrong codes lock the link (and the volunteer's panel says until when),
// an expired link, a revoked link, another client's files; and the admin's own consent statement.
import { CLIENT_LINK_TEXTS } from '@vita-docs/core';
import JSZip from 'jszip';
import type { Page } from '@playwright/test';
import type { ApiSession } from './support/api.js';
import { person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { DESKTOP } from './support/browser.js';
import { categoryRow, pagePhoto } from './support/documents.js';
import { seeHeading, signIn } from './support/journeys.js';
import { startWithClient, startWithVolunteer } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Links');
const DORA = 'dora.client@client.example.org';
/** In the order of the client's category list. */
const ASKED = ['13614-C', 'License/Other Identification', 'Banking Info'];
const EXPIRED = 'This link has expired. Ask your volunteer for a new one.';
const EXPIRED_PAGE = ['VITA Documents', 'Vera from VITA Documents asked for your tax documents.', EXPIRED];

/** The link in the newest request mail to `to`. */
async function mailedLink(app: TestApp, to: string): Promise<string> {
  const mail = (await app.server.outbox()).filter((m) => m.to === to && m.text.includes('/u#')).at(-1);
  const url = /(http\S+\/u#[A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  if (!url) throw new Error(`no link mailed to ${to}`);
  return url;
}

/** A checklist row of the client page, by its category. */
const row = (page: Page, docType: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: docType, exact: true }) });

/** What the client page says, line by line, beside its language switch. */
async function pageWords(page: Page): Promise<string[]> {
  const switcher = await page.getByRole('button', { name: CLIENT_LINK_TEXTS.en.language }).count();
  const lines = (await page.locator('main').innerText()).split('\n').map((l) => l.trim());
  return lines.filter((l) => l !== '' && !(switcher > 0 && l === CLIENT_LINK_TEXTS.en.language));
}

/** The client opens the link and enters the code mailed to them. */
async function openWithCode(app: TestApp, client: Visitor, url: string, to = DORA): Promise<void> {
  const after = Date.now() - 1000;
  await client.page.goto(url);
  await client.page.getByText(`We sent a 6-digit code to d•••@client.example.org.`).waitFor();
  const code = await app.server.latestCode(to, { after });
  await client.page.getByLabel('6-digit code').fill(code);
  await client.page.getByRole('button', { name: 'Continue' }).click();
}

test.describe('a client hands in documents through a request link', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let clientId = '';
  let volunteer: Visitor;
  let client: Visitor;

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Dora'));
    volunteer = await app.visit();
    client = await app.visit();
    await signIn(volunteer.page, app.server, vera, `/clients/${clientId}/docs`);
    await seeHeading(volunteer.page, 'Client Documents');
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('the volunteer sends a request for three categories and sees the QR code', async () => {
    const page = volunteer.page;
    await page.getByRole('button', { name: 'Request documents from client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request documents' });
    await dialog.waitFor();
    // The Missing ones are ticked: all five fixed categories; two are unticked.
    for (const name of ['Michigan/Locality Intake', 'Digital Consent Form'])
      await dialog.getByRole('checkbox', { name, exact: true }).uncheck();
    await dialog.getByLabel('Message (optional)').fill('Your W-2 is not needed.');
    await dialog.getByRole('button', { name: 'Send link' }).click();
    const sent = page.getByRole('dialog', { name: 'Request documents' });
    await sent.getByText(`Link sent to ${DORA}. It works for 7 days.`).waitFor();
    await sent.getByRole('img', { name: 'QR code of the link' }).waitFor();
    expect(await sent.getByRole('textbox', { name: 'Link' }).inputValue()).toBe(await mailedLink(app, DORA));
    await sent.getByRole('button', { name: 'Close' }).click();
    await page.getByText(/^Request sent .*, not opened yet, 0 files back\.$/).waitFor();
  });

  test('the client proves who they are, consents, photographs, scans, answers and is done', async () => {
    const page = client.page;
    await openWithCode(app, client, await mailedLink(app, DORA));
    await page.getByLabel('Type your full name to sign').fill('Dora Client');
    await page.getByRole('checkbox', { name: 'I agree' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await seeHeading(page, 'Hi Dora, please add these documents');
    await page.getByText('Your W-2 is not needed.').waitFor();
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
      ...ASKED,
      'Something else',
    ]);

    // A photo of the intake form: it goes up as a Letter PDF.
    await row(page, '13614-C')
      .getByLabel('Take Photo', { exact: true })
      // A page of small print: no quality warning (large synthetic text reads as blurry), so it goes at once.
      .setInputFiles([await pagePhoto('form.jpg', 1200, 1600, 236, { lineHeight: 3 })]);
    await row(page, '13614-C')
      .getByRole('list', { name: 'Added' })
      .getByText(/\.pdf$/)
      .waitFor();

    // Two pages of the bank letter scanned into one PDF.
    await row(page, 'Banking Info').getByRole('button', { name: 'Scan pages' }).click();
    const scan = page.getByRole('dialog', { name: 'Scan pages' });
    const addPage = scan.getByLabel('Add page', { exact: true });
    await addPage.setInputFiles([await pagePhoto('bank-1.jpg', 1200, 1600)]);
    await addPage.setInputFiles([await pagePhoto('bank-2.jpg', 1200, 1600)]);
    await expect.poll(() => scan.getByRole('button', { name: /^Done/ }).textContent()).toBe('Done (2 pages)');
    await scan.getByRole('button', { name: /^Done/ }).click();
    await row(page, 'Banking Info')
      .getByRole('list', { name: 'Added' })
      .getByText(/\.pdf$/)
      .waitFor();

    await row(page, 'License/Other Identification')
      .getByRole('button', { name: "I don't have this" })
      .click();
    await row(page, 'License/Other Identification')
      .getByLabel('Note (optional)')
      .fill('My licence is being renewed');
    await row(page, 'License/Other Identification').getByRole('button', { name: 'Save' }).click();
    await row(page, 'License/Other Identification').getByText("You said you don't have this.").waitFor();

    await page.getByRole('button', { name: "I'm done" }).click();
    await page.getByText('Thank you. Your volunteer has been told.').waitFor();
    const mail = (await app.server.outbox()).filter((m) => m.to === vera.email).at(-1);
    expect(mail?.subject).toBe('VITA Documents: Dora C. sent documents');
  });

  test('the volunteer sees New from clients, From client, the note, and the ZIP holds both files', async () => {
    const page = volunteer.page;
    await page.goto('/home');
    const fresh = page.getByRole('region', { name: 'New from clients' });
    await fresh.getByRole('link', { name: 'Dora Client' }).click();
    await seeHeading(page, 'Client Documents');
    await categoryRow(page, 'License/Other Identification')
      .getByText("Client: I don't have this — My licence is being renewed")
      .waitFor();
    await categoryRow(page, '13614-C').getByText('From client: 1').waitFor();
    await categoryRow(page, 'Banking Info').getByText('From client: 1').waitFor();
    await page.getByRole('link', { name: '13614-C', exact: true }).click();
    await seeHeading(page, '13614-C');
    await page.getByRole('region', { name: 'Uploaded' }).getByText('From client', { exact: true }).waitFor();

    const zip = await page.request.get(`/api/clients/${clientId}/docs/download-all`);
    expect(zip.ok()).toBe(true);
    const names = Object.keys((await JSZip.loadAsync(await zip.body())).files).filter(
      (n) => !n.endsWith('/'),
    );
    expect(names.filter((n) => n.startsWith('13614-C/') && n.endsWith('.pdf'))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('Banking Info/') && n.endsWith('.pdf'))).toHaveLength(1);
  });
});

test.describe('a request link refuses what it must', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let clientId = '';
  let api: ApiSession;

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId, api } = await startWithVolunteer(startApp, admin, vera, 'Dora'));
  });
  test.afterAll(async () => {
    await api?.dispose();
    await app?.stop();
  });

  const request = async (id = clientId) => {
    const answer = await api.call<{ url: string }>('POST', `/clients/${id}/link`, {
      categories: ['13614-C'],
    });
    return answer.url;
  };

  test('locks the link after five wrong codes', async () => {
    const url = await request();
    const client = await app.visit();
    await client.page.goto(url);
    await client.page.getByText(/^We sent a 6-digit code to/).waitFor();
    const code = await app.server.latestCode(DORA);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i += 1) {
      await client.page.getByLabel('6-digit code').fill(wrong);
      await client.page.getByRole('button', { name: 'Continue' }).click();
      await client.page.getByRole('alert').getByText('That did not match. Check and try again.').waitFor();
      await client.page
        .getByRole('button', { name: 'Continue' })
        .and(client.page.locator(':enabled'))
        .waitFor();
    }
    await client.page.getByLabel('6-digit code').fill(wrong);
    await client.page.getByRole('button', { name: 'Continue' }).click();
    await client.page.getByText('Too many wrong tries. Try again in 30 minutes.').waitFor();
    await client.close();

    // The volunteer's panel says so, and the link can still be revoked.
    const volunteer = await app.visit(DESKTOP);
    await signIn(volunteer.page, app.server, vera, `/clients/${clientId}/docs`);
    const panel = volunteer.page.getByRole('region', { name: 'Request documents from client' });
    await panel
      .getByText(
        /^Locked after too many wrong tries until .+\. You can still revoke the link or send a new request\.$/,
      )
      .waitFor();
    await panel.getByRole('button', { name: 'Revoke link' }).click();
    await panel.getByText(/^Locked after too many wrong tries/).waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'Revoke link' }).waitFor({ state: 'detached' });

    // Closed for good after too many wrong answers over its life: a new request is the way on.
    await request();
    await app.server.query(
      `UPDATE client_links SET closed_at = now(), closed_reason = 'locked' WHERE client_id = $1 AND closed_at IS NULL`,
      [clientId],
    );
    await volunteer.page.reload();
    await panel
      .getByText(
        'This link closed after too many wrong tries. Send a new request if the client still needs one.',
      )
      .waitFor();
    expect(await panel.getByRole('button', { name: 'Request documents from client' }).isEnabled()).toBe(true);
    await volunteer.close();
  });

  test('an expired link says only that it expired, to a client in it and to one opening it', async () => {
    const url = await request();
    const client = await app.visit();
    await openWithCode(app, client, url);
    await client.page.getByRole('checkbox', { name: 'I agree' }).waitFor();
    // Its end reached without waiting days for it.
    await app.server.query(
      `UPDATE client_links SET expires_at = now() - interval '1 second' WHERE client_id = $1 AND closed_at IS NULL`,
      [clientId],
    );
    await client.page.reload();
    await client.page.getByText(EXPIRED).waitFor();
    // The expired text, and who asked: nothing about the client.
    expect(await pageWords(client.page)).toEqual(EXPIRED_PAGE);
    const fresh = await app.visit();
    await fresh.page.goto(url);
    await fresh.page.getByText(EXPIRED).waitFor();
    expect(await pageWords(fresh.page)).toEqual(EXPIRED_PAGE);
    await client.close();
    await fresh.close();
  });

  test('a revoked link says only that it expired', async () => {
    const url = await request();
    const client = await app.visit();
    await openWithCode(app, client, url);
    await client.page.getByRole('checkbox', { name: 'I agree' }).waitFor();
    await api.call('DELETE', `/clients/${clientId}/link`);
    await client.page.reload();
    await client.page.getByText(EXPIRED).waitFor();
    expect(await client.page.locator('main').textContent()).not.toContain('Dora');
    // Opened again from the link itself: the same words.
    const fresh = await app.visit();
    await fresh.page.goto(url);
    await fresh.page.getByText(EXPIRED).waitFor();
    await client.close();
    await fresh.close();
  });

  test('a link session reaches neither another category nor another client', async () => {
    const other = await api.createClient('Otto', 'Other');
    const url = await request();
    const client = await app.visit();
    await openWithCode(app, client, url);
    await client.page.getByLabel('Type your full name to sign').fill('Dora Client');
    await client.page.getByRole('checkbox', { name: 'I agree' }).check();
    await client.page.getByRole('button', { name: 'Continue' }).click();
    await seeHeading(client.page, 'Hi Dora, please add these documents');
    const statuses = await client.page.evaluate(
      async ({ otherId, ownId }) => {
        const csrf = /(?:^|; )csrf_token=([^;]+)/.exec(document.cookie)?.[1] ?? '';
        const post = async (path: string, body: unknown) =>
          (
            await fetch(`/api${path}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) },
              body: JSON.stringify(body),
            })
          ).status;
        return {
          otherCategory: await post('/link/session/presign', {
            docType: 'Banking Info',
            filename: 'x.pdf',
            contentType: 'application/pdf',
            size: 100,
            sha256: '0'.repeat(64),
          }),
          otherClientFile: await post('/link/session/remove', { key: `${otherId}/13614-C/1_x.pdf` }),
          ownOlderFile: await post('/link/session/complete', { key: `${ownId}/13614-C/1_x.pdf` }),
          staffList: (await fetch(`/api/docs/list/${otherId}?docType=13614-C`)).status,
        };
      },
      { otherId: other.clientId, ownId: clientId },
    );
    expect(statuses).toEqual({ otherCategory: 403, otherClientFile: 404, ownOlderFile: 404, staffList: 401 });
    await client.close();
  });

  test('the admin rewrites the consent statement in Settings and a client is shown it', async () => {
    const desk = await app.visit(DESKTOP);
    await signIn(desk.page, app.server, admin);
    await desk.page.goto('/admin/settings');
    const form = desk.page.getByRole('form', { name: 'Consent statement for request links' });
    await form.getByText(/this is version 1\.$/).waitFor();
    // Empty: the default text, shown greyed.
    expect(await form.getByLabel('English').getAttribute('placeholder')).toBe(CLIENT_LINK_TEXTS.en.consent);
    await form.getByLabel('English').fill('Volunteers of Site 12 see what you add. It is deleted in May.');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('status').getByText('Saved.').waitFor();
    await form.getByText(/this is version 2\.$/).waitFor();
    await desk.close();

    // Another client: Dora has had her requests for the day (the next test).
    const dana = await api.createClient('Dana', 'Consent');
    const client = await app.visit();
    await openWithCode(app, client, await request(dana.clientId), dana.email);
    await client.page.getByText('Volunteers of Site 12 see what you add. It is deleted in May.').waitFor();
    expect(await client.page.locator('main').textContent()).not.toContain(CLIENT_LINK_TEXTS.en.consent);
    await client.page.getByLabel('Type your full name to sign').fill('Dora Client');
    await client.page.getByRole('checkbox', { name: 'I agree' }).check();
    await client.page.getByRole('button', { name: 'Continue' }).click();
    await seeHeading(client.page, 'Hi Dana, please add these documents');
    await client.close();
  });

  test('a sixth request to one client in a day is refused, saying when to try again', async () => {
    // Five went to Dora in the tests above.
    const { page, dialogs } = await app.visit(DESKTOP);
    await signIn(page, app.server, vera, `/clients/${clientId}/docs`);
    await page.getByRole('button', { name: 'Request documents from client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request documents' });
    await dialog.getByRole('button', { name: 'Send link' }).click();
    expect(await dialogs.next()).toEqual({
      type: 'alert',
      message: 'A client can be sent at most 5 request links a day. Try again in 24 hours.',
    });
    // The dialog stays as filled in, to send once the day is over.
    expect(await dialog.getByRole('button', { name: 'Send link' }).isEnabled()).toBe(true);
  });
});
