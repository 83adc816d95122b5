// The client page keeps the document reader's files on the phone (docs/behaviour.md#offline): after a
// first reading online, the page loaded again reads a document with the reader's files cut off from
// the network, from what its service worker kept — and that worker keeps nothing of the staff app.
// In a browser that has the staff app's worker too, the staff app still reads with them cut off.
import type { BrowserContext, Route } from '@playwright/test';
import type { ApiSession } from './support/api.js';
import { person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { PHONE, WAIT_MS } from './support/browser.js';
import { linkRow, proveWithCode, requestLink, signConsent } from './support/client-page.js';
import { FORM_1099_INT, FORM_W2, formPhoto } from './support/documents.js';
import { openCategory, serviceWorkerReady, signInHome } from './support/kept.js';
import { startWithVolunteer } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Keeps');

/** Every address the page's origin keeps in a cache (Cache Storage, all caches). */
const keptAddresses = (client: Visitor) =>
  client.page.evaluate(async () => {
    const kept: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) kept.push(new URL(request.url).pathname);
    return kept.sort();
  });

/**
 * From now on no request for the reader's files (tesseract.js's and zxing's under /ocr/, and the
 * reading worker's own code) reaches the network, whoever makes it (a page, its workers, a service
 * worker); each one that tries is recorded in `cut`. Returns the undo.
 */
async function cutReader(context: BrowserContext, cut: string[]): Promise<() => Promise<void>> {
  const refuse = (route: Route) => {
    cut.push(route.request().url());
    return route.abort('internetdisconnected');
  };
  const files = ['**/ocr/**', '**/assets/reading-worker-*'];
  for (const f of files) await context.route(f, refuse);
  return async () => {
    for (const f of files) await context.unroute(f, refuse);
  };
}

test.describe('the client page reads offline after its first reading', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let api: ApiSession;
  let client: Visitor;
  let clientId = '';
  /** Requests for the reader's files that reached the network once they were cut. */
  const cut: string[] = [];

  test.beforeAll(async ({ startApp }) => {
    ({ app, api } = await startWithVolunteer(startApp, admin, vera, 'Dora'));
    const made = await api.createClient('Elena', 'Diaz');
    clientId = made.clientId;
    for (const template of ['W-2', '1099-INT'])
      await api.call('POST', `/clients/${made.clientId}/docs/types`, { template });
    const url = await requestLink(api, made.clientId, 'es', ['W-2', '1099-INT']);
    client = await app.visit(PHONE, { serviceWorkers: 'allow' });
    await proveWithCode(app, client, url, made.email, 'es');
    await signConsent(client.page, 'es', 'Elena Diaz');
    await linkRow(client.page, 'W-2').waitFor();
  });
  test.afterAll(async () => {
    await api?.dispose();
    await app?.stop();
  });

  test('a second document is read with the reader’s files cut off, from what the phone kept', async () => {
    const { page, context } = client;
    // The reader's worker is ready before the first reading, so that reading's files pass through it.
    await expect
      .poll(() =>
        page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/ocr/'))?.active?.state),
      )
      .toBe('activated');
    const w2 = linkRow(page, 'W-2');
    await w2
      .getByLabel('Subir archivos', { exact: true })
      .setInputFiles([await formPhoto('interes.jpg', FORM_1099_INT)]);
    await w2.getByText('Parece un 1099-INT, no un W-2.', { exact: true }).waitFor({ timeout: WAIT_MS });

    const kept = await keptAddresses(client);
    for (const file of [
      '/ocr/worker.min.js',
      '/ocr/tesseract-core-simd-lstm.js',
      '/ocr/tesseract-core-simd-lstm.wasm',
      '/ocr/eng.traineddata',
      '/ocr/zxing_reader.wasm',
    ])
      expect(kept).toContain(file);
    expect(kept.some((f) => f.startsWith('/assets/reading-worker-'))).toBe(true);
    // Only the reader's: not the page, not its scripts, not the staff app.
    expect(kept.filter((f) => !f.startsWith('/ocr/') && !f.startsWith('/assets/reading-worker-'))).toEqual(
      [],
    );

    // The page loaded again starts new workers, with nothing in memory.
    const undo = await cutReader(context, cut);
    await page.reload();
    const int = linkRow(page, '1099-INT');
    await int
      .getByLabel('Subir archivos', { exact: true })
      .setInputFiles([await formPhoto('salario.jpg', FORM_W2)]);
    await int.getByText('Parece un W-2, no un 1099-INT.', { exact: true }).waitFor({ timeout: WAIT_MS });
    expect(cut).toEqual([]);
    await undo();
  });

  test('with the staff app’s worker in the same browser, the staff app reads with them cut off too', async () => {
    // The staff app's worker is installed online (it precaches the reading worker's code too)…
    const page = await client.context.newPage();
    await signInHome(app, page, vera);
    await serviceWorkerReady(page);
    // Each worker at its own scope: the staff app's at /, the reader's at its workers' addresses.
    const scopes = await page.evaluate(async () =>
      (await navigator.serviceWorker.getRegistrations()).map((r) => new URL(r.scope).pathname).sort(),
    );
    expect(scopes).toEqual(['/', '/assets/reading-worker', '/ocr/']);
    // …then the reader's files are cut off again, and the reading worker's code the client page kept
    // is dropped: the reader's worker (its scope the narrower) must take it from the staff app's precache.
    await cutReader(client.context, cut);
    await page.evaluate(() => caches.delete('vita-reader-code'));
    const screen = await openCategory(page, clientId, 'W-2');
    await screen.uploadFiles.setInputFiles([await formPhoto('bank-interest.jpg', FORM_1099_INT)]);
    await screen.uploadButton.click();
    await page
      .getByText('This looks like a 1099-INT, not a W-2.', { exact: true })
      .waitFor({ timeout: WAIT_MS });
    // The only request that tried the network: the reader's worker asking for the code it had dropped.
    expect(cut.map((url) => new URL(url).pathname)).toEqual([
      expect.stringMatching(/^\/assets\/reading-worker-[\w-]+\.js$/),
    ]);
  });
});
