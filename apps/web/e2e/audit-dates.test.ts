// The audit log in words a person reads (docs/behaviour.md#audit-screen, #settings-screen, #dates):
// a client's own actions under their name and with their address, dates and times written one way on
// every screen, the consent statements shown whole, and days of retention below 7 refused on the page.
import { CLIENT_LINK_TEXTS } from '@vita-docs/core';
import { ApiSession, person, seedPeople } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { DESKTOP } from './support/browser.js';
import { seeHeading, signIn } from './support/journeys.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Dates');
/** `Nov 29, 2026, 5:00 AM`: a date with its time, as every screen writes it. */
const DATE_TIME = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM)$/;

test.describe('audit words, dates and settings', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let clientId = '';
  let vis: Visitor;
  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    await (await seedPeople(app.server, admin, [{ person: vera }])).dispose();
    const api = await ApiSession.open(app.server);
    await api.signIn(vera);
    const { client } = await api.call<{ client: { clientId: string } }>('POST', '/clients/new', {
      firstName: 'Rosa',
      lastName: 'Díaz',
      email: 'rosa.diaz@client.example.org',
      phone: '555-0100',
    });
    clientId = client.clientId;
    const { url } = await api.call<{ url: string }>('POST', `/clients/${clientId}/link`, {
      categories: ['Banking Info'],
      days: 7,
      language: 'en',
    });
    await api.dispose();
    // The client opens the link (the page's first call): an entry of theirs, with their address.
    const phone = await ApiSession.open(app.server);
    await phone.call('POST', '/link/open', { token: url.split('#')[1] });
    await phone.dispose();
    vis = await app.visit(DESKTOP);
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('the volunteer’s panel writes when the request was sent as every screen does', async () => {
    const { page } = vis;
    await signIn(page, app.server, vera, `/login?next=/clients/${clientId}/docs`);
    await seeHeading(page, 'Client Documents');
    const line = page.getByText(/^Request sent .*, opened, 0 files back\.$/);
    const text = (await line.textContent()) ?? '';
    const when = /^Request sent (.*), opened, 0 files back\.$/.exec(text)?.[1] ?? '';
    expect(when).toMatch(DATE_TIME);
    await vis.close();
    vis = await app.visit(DESKTOP);
  });

  test('the audit log names the client and shows their address; its times read the same way', async () => {
    const { page } = vis;
    await signIn(page, app.server, admin, '/login?next=/admin/audit');
    await seeHeading(page, 'Audit log');
    const table = page.getByRole('region', { name: 'Audit entries' });
    const row = table.getByRole('row').filter({ hasText: 'Client Rosa Díaz (request link)' });
    await row.first().waitFor();
    expect(await table.getByText(/^link:/).count()).toBe(0);
    const cells = await row.first().getByRole('cell').allTextContents();
    expect(cells[0]).toMatch(DATE_TIME);
    expect(cells[5]).toBe('127.0.0.1');
    for (const when of await table.locator('time').allTextContents()) expect(when).toMatch(DATE_TIME);
  });

  test('Settings: the consent boxes show their whole text; days below 7 are refused on the page', async () => {
    const { page } = vis;
    await page.goto('/admin/settings');
    await seeHeading(page, 'Settings');
    const english = page.getByRole('textbox', { name: /English/ });
    await english.fill(`${CLIENT_LINK_TEXTS.en.consent}\n\n${CLIENT_LINK_TEXTS.en.consent}`);
    for (const box of await page.locator('textarea').all()) {
      const { scroll, client } = await box.evaluate((el) => ({
        scroll: el.scrollHeight,
        client: el.clientHeight,
      }));
      expect(scroll).toBeLessThanOrEqual(client + 1);
    }

    await page.getByLabel('Delete a client’s documents after the client was submitted').check();
    await page.getByLabel('Days after submission').fill('5');
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/admin/retention') && r.method() !== 'GET') asked.push(r.url());
    });
    await page.getByRole('form', { name: 'Retention' }).getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('form', { name: 'Retention' })
      .getByText('Choose between 7 and 365 days.', { exact: true })
      .waitFor();
    expect(asked).toEqual([]);
    expect(await page.getByLabel('Days after submission').getAttribute('aria-invalid')).toBe('true');
  });
});
