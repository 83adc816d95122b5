// The client's capture tools on a request link, at phone size, in Spanish (docs/behaviour.md#requesting-documents-from-a-client):
// the Scan pages dialog speaks the client's language, a dark photo shows the staff capture's quality warning
// (in Spanish) and waits for Keep anyway or Retake, and each added file shows a thumbnail made on the phone.
import type { Page } from '@playwright/test';
import type { ApiSession } from './support/api.js';
import { person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { pagePhoto, pdfFixture } from './support/documents.js';
import { seeHeading } from './support/journeys.js';
import { startWithVolunteer } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Capture');
const DORA = 'dora.client@client.example.org';

/** A checklist row of the client page, by its category. */
const row = (page: Page, docType: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: docType, exact: true }) });

/** The client opens a Spanish link, enters the mailed code and consents. */
async function openInSpanish(app: TestApp, client: Visitor, url: string): Promise<void> {
  const after = Date.now() - 1000;
  await client.page.goto(url);
  await client.page.getByText('Enviamos un código de 6 dígitos a d•••@client.example.org.').waitFor();
  const code = await app.server.latestCode(DORA, { after });
  await client.page.getByLabel('Código de 6 dígitos').fill(code);
  await client.page.getByRole('button', { name: 'Continuar' }).click();
  await client.page.getByLabel('Escriba su nombre completo para firmar').fill('Dora Client');
  await client.page.getByRole('checkbox', { name: 'Acepto' }).check();
  await client.page.getByRole('button', { name: 'Continuar' }).click();
  await seeHeading(client.page, 'Hola Dora, por favor agregue estos documentos');
}

test.describe('the client page’s capture tools, in Spanish', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let clientId = '';
  let api: ApiSession;
  let client: Visitor;

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId, api } = await startWithVolunteer(startApp, admin, vera, 'Dora'));
    const { url } = await api.call<{ url: string }>('POST', `/clients/${clientId}/link`, {
      categories: ['13614-C', 'Banking Info'],
      language: 'es',
    });
    client = await app.visit();
    await openInSpanish(app, client, url);
  });
  test.afterAll(async () => {
    await api?.dispose();
    await app?.stop();
  });

  test('Scan pages opens in Spanish, with its pages, warnings and question in Spanish', async () => {
    const page = client.page;
    await row(page, 'Banking Info').getByRole('button', { name: 'Escanear páginas' }).click();
    const scan = page.getByRole('dialog', { name: 'Escanear páginas' });
    await scan
      .getByText('Tome una foto de cada página, en orden. También puede soltar fotos aquí.')
      .waitFor();
    await scan
      .getByLabel('Agregar página', { exact: true })
      .setInputFiles([await pagePhoto('dark.jpg', 1200, 1600, 60)]);
    await scan.getByRole('button', { name: 'Listo (1 página)' }).waitFor();
    const pages = scan.getByRole('list', { name: 'Páginas' });
    await pages.getByText('Página 1', { exact: true }).waitFor();
    await pages.getByText('Esta foto se ve muy oscura.').waitFor();
    await pages.getByRole('button', { name: 'Girar a la derecha Página 1' }).waitFor();
    client.dialogs.answerNextConfirm(true);
    await scan.getByRole('button', { name: 'Cancelar' }).click();
    expect(await client.dialogs.next()).toEqual({
      type: 'confirm',
      message: '¿Descartar la página escaneada?',
    });
    await scan.waitFor({ state: 'detached' });
  });

  test('a dark photo waits with the quality warning; Keep anyway sends it, and the row shows it with a thumbnail', async () => {
    const page = client.page;
    const form = row(page, '13614-C');
    await form
      .getByLabel('Tomar foto', { exact: true })
      .setInputFiles([await pagePhoto('form.jpg', 1200, 1600, 60)]);
    await form.getByText('Esta foto se ve muy oscura.').waitFor();
    // Held for the client's choice: not being sent, and nothing stored yet.
    expect(await form.getByText('Subiendo…').count()).toBe(0);
    expect(
      (await api.call<{ items: unknown[] }>('GET', `/docs/list/${clientId}?docType=13614-C`)).items,
    ).toEqual([]);
    await form.getByRole('button', { name: /^Usarla así / }).click();
    const added = form.getByRole('list', { name: 'Agregado' });
    const stored = added.getByText(/\.pdf$/);
    await stored.waitFor();
    const name = (await stored.textContent()) ?? '';
    // The thumbnail is the photo itself, drawn from the file on the phone.
    const thumb = added.getByRole('img', { name: `Vista previa de ${name}` });
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  });

  test('a scanned PDF shows its first page as its thumbnail', async () => {
    const page = client.page;
    await row(page, 'Banking Info').getByRole('button', { name: 'Escanear páginas' }).click();
    const scan = page.getByRole('dialog', { name: 'Escanear páginas' });
    await scan
      .getByLabel('Agregar página', { exact: true })
      .setInputFiles([await pagePhoto('bank-1.jpg', 1200, 1600)]);
    await scan.getByRole('button', { name: 'Listo (1 página)' }).click();
    const added = row(page, 'Banking Info').getByRole('list', { name: 'Agregado' });
    const stored = added.getByText(/\.pdf$/);
    await stored.waitFor();
    const name = (await stored.textContent()) ?? '';
    const thumb = added.getByRole('img', { name: `Vista previa de ${name}` });
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  });

  test('a file queued offline is kept across a reload and stored once when the connection returns', async () => {
    const { page, context } = client;
    const stored = async () =>
      (
        await api.call<{ items: { filename: string }[] }>('GET', `/docs/list/${clientId}?docType=13614-C`)
      ).items
        .map((item) => item.filename)
        .filter((name) => name === 'kept.pdf');
    await context.setOffline(true);
    await row(page, '13614-C')
      .getByLabel('Subir archivos', { exact: true })
      .setInputFiles([await pdfFixture('kept.pdf')]);
    const waiting = row(page, '13614-C').getByRole('listitem').filter({ hasText: 'kept.pdf' });
    await waiting.getByText('Esperando conexión…').waitFor();
    // Back on the network, but the upload itself still cannot get through, so the reload comes first.
    await page.route('**/api/link/session/presign', (route) => route.abort('internetdisconnected'));
    await context.setOffline(false);
    await page.reload();
    await seeHeading(page, 'Hola Dora, por favor agregue estos documentos');
    await waiting.getByText('Esperando conexión…').waitFor();
    expect(await stored()).toEqual([]);
    await page.unroute('**/api/link/session/presign');
    // The browser's own switch says the connection is back: what waits goes by itself.
    await context.setOffline(true);
    await context.setOffline(false);
    const added = row(page, '13614-C').getByRole('list', { name: 'Agregado' });
    await added.getByText('kept.pdf', { exact: true }).waitFor();
    expect(await stored()).toEqual(['kept.pdf']);
    expect(await added.getByText('kept.pdf', { exact: true }).count()).toBe(1);
    // Its thumbnail is its first page, drawn by pdf.js from the file's bytes (never by fetching an
    // object URL, which the page's connect-src refuses: the file would show only as `PDF`).
    const canvas = added.getByRole('img', { name: 'Vista previa de kept.pdf' }).locator('canvas');
    const painted = (c: HTMLCanvasElement) =>
      c
        .getContext('2d')
        ?.getImageData(0, 0, c.width, c.height)
        .data.some((v, i) => i % 4 === 3 && v > 0);
    await expect.poll(() => canvas.evaluate(painted)).toBe(true);
  });
});
