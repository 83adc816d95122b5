// What to bring, and anything else (docs/behaviour.md#requesting-documents-from-a-client): at phone size in
// English and Spanish each requested row says in one plain sentence what to photograph, a category added
// with a note shows that note as written, and a last row `Something else` / `Otro documento` takes any other
// document into the client's `Other` category (added when the client has none), marked From client.
import { CATEGORY_HINTS, CLIENT_LINK_TEXTS, type ClientLinkLanguage } from '@vita-docs/core';
import type { ApiSession } from './support/api.js';
import { person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { categoryFiles, linkRow, proveWithCode, requestLink, signConsent } from './support/client-page.js';
import { pdfFixture } from './support/documents.js';
import { startWithVolunteer } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Rows');
const SAID = {
  en: {
    'License/Other Identification':
      "A photo ID for you (and your spouse): driver's license, state ID or passport. Also the Social Security card or ITIN letter of everyone on the return.",
    'Banking Info':
      'A check or a letter from your bank with the routing and account numbers, for a direct deposit of your refund.',
    else: 'Something else',
  },
  es: {
    'License/Other Identification':
      'Una identificación con foto para usted (y su cónyuge): licencia de manejo, identificación estatal o pasaporte. También la tarjeta del Seguro Social o la carta del ITIN de cada persona en la declaración.',
    'Banking Info':
      'Un cheque o una carta de su banco con los números de ruta y de cuenta, para el depósito directo de su reembolso.',
    else: 'Otro documento',
  },
} as const;

test.describe('each row says what to bring, and a last row takes anything else', () => {
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
    test(`what to bring and Something else (${language})`, async () => {
      const { clientId, email } = await api.createClient(language === 'en' ? 'Rosa' : 'Elena', 'Diaz');
      const { docType: w2 } = await api.call<{ docType: string }>('POST', `/clients/${clientId}/docs/types`, {
        template: 'W-2',
        note: 'Acme Inc.',
      });
      const asked = ['License/Other Identification', 'Banking Info', w2];
      const url = await requestLink(api, clientId, language, asked);
      const client = await app.visit();
      const page = client.page;
      await proveWithCode(app, client, url, email, language);
      await signConsent(page, language, 'Rosa Diaz');
      await linkRow(page, 'Banking Info').waitFor();

      // The rows in order, `Something else` last.
      expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
        ...asked,
        SAID[language].else,
      ]);
      for (const name of ['License/Other Identification', 'Banking Info'] as const)
        await linkRow(page, name).getByText(SAID[language][name], { exact: true }).waitFor();
      // A category with a note: its template's sentence, and the note as written.
      await linkRow(page, w2).getByText(CATEGORY_HINTS[language]['W-2']).waitFor();
      await linkRow(page, w2).getByText('Acme Inc.', { exact: true }).waitFor();

      // Something else: any document, into Other (which the client did not have), From client.
      const before = await api.call<{ types: string[] }>('GET', `/clients/${clientId}/docs/types`);
      expect(before.types).not.toContain('Other');
      const other = linkRow(page, SAID[language].else);
      await other.getByLabel(t.uploadFiles, { exact: true }).setInputFiles([await pdfFixture('lease.pdf')]);
      await other.getByRole('list', { name: t.added }).getByText('lease.pdf').waitFor();
      const after = await api.call<{ types: string[] }>('GET', `/clients/${clientId}/docs/types`);
      expect(after.types).toContain('Other');
      const stored = await categoryFiles(api, clientId, 'Other');
      expect(stored.map((f) => f.filename)).toEqual(['lease.pdf']);
      const link = await api.call<{ fromClient: string[] }>('GET', `/clients/${clientId}/link`);
      expect(link.fromClient).toContain(stored[0]?.key);
      await client.close();
    });
  }
});
