// The client's request page at phone size, in English and Spanish (docs/behaviour.md#requesting-documents-from-a-client):
// each of its screens (code, consent, checklist, done, expired) is finished at its first paint — its own
// styles load with it, so no browser `Choose Files` control ever shows — and has one h1, inputs a phone
// does not zoom into (16 px), touch targets of 44×44 px (the consent checkbox's too), and nothing axe finds.
import { CLIENT_LINK_TEXTS, type ClientLinkLanguage } from '@vita-docs/core';
import type { ApiSession } from './support/api.js';
import { person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { checkClientScreen, linkRow, proveWithCode, requestLink } from './support/client-page.js';
import { startWithVolunteer } from './support/seed.js';
import { test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Phone');

for (const language of ['en', 'es'] as const satisfies readonly ClientLinkLanguage[]) {
  const t = CLIENT_LINK_TEXTS[language];
  test.describe(`every client screen is finished at its first paint (${language})`, () => {
    test.describe.configure({ mode: 'serial' });
    let app: TestApp;
    let api: ApiSession;
    let clientId = '';
    let email = '';

    test.beforeAll(async ({ startApp }) => {
      ({ app, api } = await startWithVolunteer(startApp, admin, vera, 'Dora'));
      ({ clientId, email } = await api.createClient(language === 'en' ? 'Rosa' : 'Elena', 'Diaz'));
    });
    test.afterAll(async () => {
      await api?.dispose();
      await app?.stop();
    });

    test('code, consent, checklist and done', async () => {
      const url = await requestLink(api, clientId, language);
      const client = await app.visit();
      const page = client.page;
      await proveWithCode(app, client, url, email, language, () =>
        checkClientScreen(page, `client-code-${language}`),
      );
      await page.getByRole('checkbox', { name: t.consentAgree }).waitFor();
      await checkClientScreen(page, `client-consent-${language}`);
      await page.getByLabel(t.signName).fill('Rosa Diaz');
      await checkClientScreen(page, `client-consent-named-${language}`);
      await page.getByRole('checkbox', { name: t.consentAgree }).check();
      await page.getByRole('button', { name: t.continue }).click();
      await linkRow(page, 'Banking Info').waitFor();
      // The checklist's first paint: the file controls are already the page's own buttons.
      await checkClientScreen(page, `client-checklist-${language}`);
      await linkRow(page, 'Banking Info').getByRole('button', { name: t.dontHave }).click();
      await linkRow(page, 'Banking Info').getByLabel(t.dontHaveNote).waitFor();
      await checkClientScreen(page, `client-checklist-note-${language}`);
      await linkRow(page, 'Banking Info').getByRole('button', { name: t.dontHaveSave }).click();
      await linkRow(page, 'Banking Info').getByText(t.dontHaveMarked).waitFor();
      await checkClientScreen(page, `client-checklist-answered-${language}`);
      await linkRow(page, '13614-C').getByRole('button', { name: t.dontHave }).click();
      await linkRow(page, '13614-C').getByRole('button', { name: t.dontHaveSave }).click();
      await linkRow(page, '13614-C').getByText(t.dontHaveMarked).waitFor();
      await page.getByRole('button', { name: t.done }).click();
      await page.getByText(t.thanks).waitFor();
      await checkClientScreen(page, `client-done-${language}`);
      await client.close();
    });

    test('expired', async () => {
      const url = await requestLink(api, clientId, language);
      await app.server.query(
        `UPDATE client_links SET expires_at = now() - interval '1 second' WHERE client_id = $1 AND closed_at IS NULL`,
        [clientId],
      );
      const client = await app.visit();
      await client.page.goto(url);
      await client.page.getByText(t.expired).waitFor();
      await checkClientScreen(client.page, `client-expired-${language}`);
      await client.close();
    });
  });
}
