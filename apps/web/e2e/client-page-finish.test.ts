// Signing and finishing on the client's request page, at phone size, in English and Spanish
// (docs/behaviour.md#requesting-documents-from-a-client): the consent is signed with the typed full name
// (`I agree` waits for one) and filed as a PDF in Digital Consent Form, which turns Ready; `I'm done` with a
// requested row neither added nor answered asks first (Go back / Send anyway); a finished link opened
// again thanks the client instead of saying it expired.
import { CLIENT_LINK_TEXTS, type ClientLinkLanguage } from '@vita-docs/core';
import type { ApiSession } from './support/api.js';
import { person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { categoryFiles, linkRow, proveWithCode, requestLink } from './support/client-page.js';
import { seeHeading } from './support/journeys.js';
import { startWithVolunteer } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Finish');

test.describe('the client signs the consent and finishes', () => {
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

  for (const language of ['en', 'es'] as const satisfies readonly ClientLinkLanguage[]) {
    const t = CLIENT_LINK_TEXTS[language];
    test(`signs with the typed name, asks before finishing with a row missing, then thanks (${language})`, async () => {
      const { clientId, email } = await api.createClient(language === 'en' ? 'Rosa' : 'Elena', 'Diaz');
      const url = await requestLink(api, clientId, language, ['13614-C', 'Banking Info']);
      const client = await app.visit();
      const page = client.page;
      await proveWithCode(app, client, url, email, language);

      // `I agree` waits for a name.
      const agree = page.getByRole('checkbox', { name: t.consentAgree });
      await agree.waitFor();
      expect(await agree.isDisabled()).toBe(true);
      await page.getByLabel(t.signName).fill('Rosa María Díaz');
      await expect(agree).toBeEnabled();
      await agree.check();
      await page.getByRole('button', { name: t.continue }).click();
      await seeHeading(
        page,
        `${language === 'en' ? 'Hi' : 'Hola'} ${language === 'en' ? 'Rosa' : 'Elena'}, ${language === 'en' ? 'please add these documents' : 'por favor agregue estos documentos'}`,
      );

      // The signed record is filed, From client, and the category is Ready.
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(new Date());
      const records = await categoryFiles(api, clientId, 'Digital Consent Form');
      expect(records.map((r) => r.filename)).toEqual([
        expect.stringMatching(/^Consent \d{4}-\d{2}-\d{2}\.pdf$/),
      ]);
      expect(
        Math.abs(Date.parse(records[0]?.filename.slice(8, 18) ?? '') - Date.parse(day)),
      ).toBeLessThanOrEqual(86_400_000);
      const status = await api.call<Record<string, boolean>>('GET', `/clients/${clientId}/docs/status`);
      expect(status['Digital Consent Form']).toBe(true);
      const link = await api.call<{ fromClient: string[] }>('GET', `/clients/${clientId}/link`);
      expect(link.fromClient).toContain(records[0]?.key);

      // One row answered, one neither added nor answered: I'm done asks first.
      await linkRow(page, 'Banking Info').getByRole('button', { name: t.dontHave }).click();
      await linkRow(page, 'Banking Info').getByRole('button', { name: t.dontHaveSave }).click();
      await linkRow(page, 'Banking Info').getByText(t.dontHaveMarked).waitFor();
      await page.getByRole('button', { name: t.done }).click();
      const ask = page.getByRole('alertdialog', { name: t.stillMissing });
      await ask.waitFor();
      expect(t.stillMissing).toBe(
        language === 'en'
          ? 'Some documents are still missing. Send what you added anyway?'
          : 'Todavía faltan algunos documentos. ¿Enviar lo que agregó de todos modos?',
      );
      await ask.getByRole('button', { name: language === 'en' ? 'Go back' : 'Volver' }).click();
      await ask.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: t.done }).click();
      await ask
        .getByRole('button', { name: language === 'en' ? 'Send anyway' : 'Enviar de todos modos' })
        .click();
      await page.getByText(t.thanks).waitFor();

      // The link opened again (another visit): the documents were sent, not "expired".
      const again = await app.visit();
      await again.page.goto(url);
      await again.page
        .getByText(
          language === 'en'
            ? 'You already sent your documents. Thank you.'
            : 'Ya envió sus documentos. Gracias.',
        )
        .waitFor();
      expect(await again.page.locator('main').textContent()).not.toContain(t.expired);
      await client.close();
      await again.close();
    });
  }
});
