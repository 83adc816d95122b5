// What the phone keeps on the client page (docs/behaviour.md#requesting-documents-from-a-client), at phone
// size in Spanish: leaving with a file neither sent nor kept asks first; a dark photo waiting for the
// client's answer comes back after a reload still waiting, with its warning and its choices (Usarla así,
// Tomar de nuevo, Ajustar esquinas), and nothing
// goes unasked; a photo added and the page reloaded before its PDF was made comes back and is stored once.
import type { ApiSession } from './support/api.js';
import { person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { DialogLog } from './support/dialogs.js';
import { categoryFiles, linkRow, proveWithCode, requestLink, signConsent } from './support/client-page.js';
import { pagePhoto, pdfFixture } from './support/documents.js';
import { seeHeading } from './support/journeys.js';
import { eventually, keptSizes, LINK_JOURNAL_DB } from './support/kept.js';
import { holdImageWork } from './support/page-image.js';
import { startWithVolunteer } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Kept');
const DORA = 'dora.client@client.example.org';
const HEADING = 'Hola Dora, por favor agregue estos documentos';
/** The link's journal key: the page asks for it when it first keeps a file. */
const JOURNAL_KEY = '**/api/link/session/journal-key';
const PRESIGN = '/api/link/session/presign';

test.describe('what the phone keeps on the client page, in Spanish', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let api: ApiSession;
  let client: Visitor;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId, api } = await startWithVolunteer(startApp, admin, vera, 'Dora'));
    const url = await requestLink(api, clientId, 'es', ['13614-C', 'Banking Info']);
    client = await app.visit();
    await proveWithCode(app, client, url, DORA, 'es');
    await signConsent(client.page, 'es', 'Dora Client');
    await seeHeading(client.page, HEADING);
  });
  test.afterAll(async () => {
    await api?.dispose();
    await app?.stop();
  });

  test('leaving with a file neither sent nor kept asks first', async () => {
    // A tab of its own that never gets the link's key: every request for it is held, from before the tab
    // loads until it is closed, so its phone can keep nothing and (not kept) sends nothing. Nothing ever
    // answers those requests: unrouting would (Playwright then lets a held request go on to the server),
    // and the key would arrive while the page is being left. The tests' own tab gets its key as ever.
    const tab = await client.context.newPage();
    const dialogs = new DialogLog(tab);
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    let keyAsked = 0;
    await tab.route(JOURNAL_KEY, () => void (keyAsked += 1));
    const sent: string[] = [];
    tab.on('request', (request) => {
      if (request.url().includes(PRESIGN)) sent.push(request.url());
    });
    await tab.goto(client.page.url());
    await seeHeading(tab, HEADING);

    const bank = linkRow(tab, 'Banking Info');
    const chooser = tab.waitForEvent('filechooser');
    await bank.getByText('Subir archivos', { exact: true }).click();
    await (await chooser).setFiles([await pdfFixture('check.pdf')]);
    // It stays listed, waiting to be kept before it goes: asked for the key once, and nothing sent.
    await bank.getByRole('listitem').filter({ hasText: 'check.pdf' }).getByText('Subiendo…').waitFor();
    await expect.poll(() => keyAsked).toBe(1);

    const closed = tab.waitForEvent('close');
    await tab.close({ runBeforeUnload: true });
    expect((await dialogs.next()).type).toBe('beforeunload');
    await closed;
    expect(keyAsked).toBe(1);
    expect(sent).toEqual([]);
    expect(errors).toEqual([]);
    // The tab is gone and kept nothing: the file can never be sent now.
    expect(await categoryFiles(api, clientId, 'Banking Info')).toEqual([]);
  });

  test('a dark photo waiting for its answer comes back after a reload still waiting, and goes only once answered', async () => {
    const { page, dialogs } = client;
    const form = linkRow(page, '13614-C');
    const photo = await pagePhoto('form.jpg', 1200, 1600, 60);
    await form.getByLabel('Tomar foto', { exact: true }).setInputFiles([photo]);
    await form.getByText('Esta foto se ve muy oscura.').waitFor();
    // The phone keeps the photo itself (not its PDF), so the same choices come back.
    await eventually(async () =>
      expect(await keptSizes(page, LINK_JOURNAL_DB)).toEqual([photo.buffer.length]),
    );

    await page.reload();
    await seeHeading(page, HEADING);
    // Kept: leaving asked nothing.
    expect(dialogs.unread()).toEqual([]);
    await form.getByText('Esta foto se ve muy oscura.').waitFor();
    await form.getByRole('button', { name: /^Usarla así / }).waitFor();
    await form.getByRole('button', { name: /^Tomar de nuevo / }).waitFor();
    await form.getByRole('button', { name: /^Ajustar esquinas / }).waitFor();
    expect(await categoryFiles(api, clientId, '13614-C')).toEqual([]);

    await form.getByRole('button', { name: /^Usarla así / }).click();
    await form
      .getByRole('list', { name: 'Agregado' })
      .getByText(/\.pdf$/)
      .waitFor();
    expect((await categoryFiles(api, clientId, '13614-C')).length).toBe(1);
    await eventually(async () => expect(await keptSizes(page, LINK_JOURNAL_DB)).toEqual([]));
  });

  test('a photo added and the page reloaded before its PDF was made comes back and is stored once', async () => {
    const { page, dialogs } = client;
    const bank = linkRow(page, 'Banking Info');
    // Small print reads as sharp: nothing to answer, so it goes by itself.
    const photo = await pagePhoto('bank.jpg', 1200, 1600, 236, { lineHeight: 3 });
    // Its PDF is never made on this page: the reload comes while it is being made.
    await holdImageWork(page);
    await bank.getByLabel('Tomar foto', { exact: true }).setInputFiles([photo]);
    await eventually(async () =>
      expect(await keptSizes(page, LINK_JOURNAL_DB)).toEqual([photo.buffer.length]),
    );

    await page.reload();
    await seeHeading(page, HEADING);
    await expect
      .poll(async () => (await categoryFiles(api, clientId, 'Banking Info')).map((f) => f.filename))
      .toEqual(['Banking Info 1.pdf']);
    await bank.getByRole('list', { name: 'Agregado' }).getByText('Banking Info 1.pdf').waitFor();
    await eventually(async () => expect(await keptSizes(page, LINK_JOURNAL_DB)).toEqual([]));
    expect((await categoryFiles(api, clientId, 'Banking Info')).length).toBe(1);
    expect(dialogs.unread()).toEqual([]);
  });
});
