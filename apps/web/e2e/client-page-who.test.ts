// Who is asking (docs/behaviour.md#requesting-documents-from-a-client): the admin names the programme in
// Settings; the client's page, at phone size in English and Spanish, is headed with that name and says
// which volunteer of it asked, on the code, consent, checklist and done screens; every link mail names
// both, its subject beginning with the programme's name.
import { CLIENT_LINK_TEXTS, type ClientLinkLanguage } from '@vita-docs/core';
import type { ApiSession } from './support/api.js';
import { person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { DESKTOP } from './support/browser.js';
import { proveWithCode, requestLink, signConsent } from './support/client-page.js';
import { seeHeading, signIn } from './support/journeys.js';
import { startWithVolunteer } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Who');
const PROGRAMME = 'Site 12 Tax Help';
const ASKED = {
  en: 'Vera from Site 12 Tax Help asked for your tax documents.',
  es: 'Vera, de Site 12 Tax Help, le pidió sus documentos de impuestos.',
} as const;

test.describe('the client page and its mails name the programme and the volunteer', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let api: ApiSession;

  test.beforeAll(async ({ startApp }) => {
    ({ app, api } = await startWithVolunteer(startApp, admin, vera, 'Dora'));
  });
  test.afterAll(async () => {
    await api?.dispose();
    await app?.stop();
  });

  test('the admin names the programme in Settings', async () => {
    const desk = await app.visit(DESKTOP);
    await signIn(desk.page, app.server, admin);
    await desk.page.goto('/admin/settings');
    const form = desk.page.getByRole('form', { name: 'Programme name' });
    expect(await form.getByLabel('Name').inputValue()).toBe('VITA Documents');
    await form.getByLabel('Name').fill(PROGRAMME);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('status').getByText('Saved.').waitFor();
    await desk.close();
  });

  for (const language of ['en', 'es'] as const satisfies readonly ClientLinkLanguage[]) {
    const t = CLIENT_LINK_TEXTS[language];
    test(`every screen and mail says who is asking (${language})`, async () => {
      const { clientId, email } = await api.createClient(language === 'en' ? 'Rosa' : 'Elena', 'Diaz');
      const url = await requestLink(api, clientId, language, ['13614-C']);
      const mails = async () => (await app.server.outbox()).filter((m) => m.to === email);
      const [request] = await mails();
      expect(request?.subject).toBe(
        `${PROGRAMME}: ${language === 'en' ? 'Please add your tax documents' : 'Por favor agregue sus documentos de impuestos'}`,
      );
      expect(request?.text).toContain(
        language === 'en'
          ? 'Vera from Site 12 Tax Help asks you to add some documents'
          : 'Vera, de Site 12 Tax Help, le pide que agregue algunos documentos',
      );

      const client = await app.visit();
      const page = client.page;
      // The code screen: the programme is the heading, the volunteer under it.
      await proveWithCode(app, client, url, email, language, async () => {
        await seeHeading(page, PROGRAMME);
        await page.getByText(ASKED[language], { exact: true }).waitFor();
      });
      const code = (await mails()).at(-1);
      expect(code?.subject.startsWith(`${PROGRAMME}: `)).toBe(true);
      expect(code?.text).toContain(ASKED[language]);

      await page.getByLabel(t.signName).waitFor();
      await seeHeading(page, PROGRAMME);
      await page.getByText(ASKED[language], { exact: true }).waitFor();
      await signConsent(page, language, 'Rosa Diaz');
      await page.getByText(ASKED[language], { exact: true }).waitFor();
      await page.getByText(PROGRAMME, { exact: true }).waitFor();

      await page.getByRole('button', { name: t.done }).click();
      await page.getByRole('button', { name: t.sendAnyway }).click();
      await page.getByText(t.thanks).waitFor();
      await seeHeading(page, PROGRAMME);
      await page.getByText(ASKED[language], { exact: true }).waitFor();
      const done = (await app.server.outbox()).filter((m) => m.to === vera.email).at(-1);
      expect(done?.subject).toBe(`${PROGRAMME}: ${language === 'en' ? 'Rosa' : 'Elena'} D. sent documents`);
      await client.close();
    });
  }
});
