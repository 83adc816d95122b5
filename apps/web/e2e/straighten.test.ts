// Photos that look scanned (docs/behaviour.md#straightened-pages): a form photographed tilted on a dark
// table with Take Photo becomes a PDF whose page is the form alone, straightened, with no table at its
// edges; a photo with glare is warned with Retake / Keep anyway; the same on the client page in Spanish.
// The photos come from the labelled set the straightening benchmark reads.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { ApiSession, person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import type { Fixture } from './support/documents.js';
import { categoryScreen, expectFiles, listDocs, storedBytes } from './support/documents.js';
import { seeHeading, signInViaUi } from './support/journeys.js';
import { startWithClient } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Straighten');
const DORA = 'dora.client@client.example.org';
const SET = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'packages',
  'core',
  'bench',
  'straighten-set',
  'photos',
);

/** A photo of the labelled set: `00-dark.jpg` a W-2 tilted on a dark table, `01-wood.jpg` one with glare. */
async function setPhoto(name: string, as: string): Promise<Fixture> {
  return { name: as, mimeType: 'image/jpeg', buffer: await readFile(join(SET, name)) };
}

/**
 * The mean grey of a band just inside each edge of the first page's image (2–3 % in), top, right,
 * bottom, left: paper where the page was straightened, the table where the whole photo was used.
 */
async function edgeGreys(pdf: Uint8Array): Promise<number[]> {
  const doc = await PDFDocument.load(pdf);
  const xobjects = doc.getPages()[0]?.node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
  const ref = xobjects?.values()[0];
  const image = ref ? doc.context.lookup(ref) : undefined;
  if (!(image instanceof PDFRawStream)) throw new Error('no image on the page');
  const { data, info } = await sharp(Buffer.from(image.contents))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const mean = (x0: number, y0: number, x1: number, y1: number) => {
    let sum = 0;
    let count = 0;
    for (let y = Math.floor(y0); y < Math.ceil(y1); y++)
      for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
        sum += data[y * width + x] ?? 0;
        count++;
      }
    return Math.round(sum / count);
  };
  const [a, b] = [0.02, 0.03];
  return [
    mean(0, height * a, width, height * b),
    mean(width * (1 - b), 0, width * (1 - a), height),
    mean(0, height * (1 - b), width, height * (1 - a)),
    mean(width * a, 0, width * b, height),
  ];
}

test.describe('photos found, straightened and cropped on the device', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let vis: Visitor;
  let page: Page;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Dora'));
    vis = await app.visit();
    page = vis.page;
    await signInViaUi(page, app.server, vera, `/clients/${clientId}/docs/Banking%20Info`);
    await seeHeading(page, 'Banking Info');
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('a page tilted on a dark table becomes a PDF of the page alone, no table at its edges', async () => {
    const screen = categoryScreen(page);
    await screen.takePhoto.setInputFiles([await setPhoto('00-dark.jpg', 'table.jpg')]);
    const item = screen.queued('Banking Info 1.pdf');
    await item.getByText('Ready').waitFor();
    expect(await item.getByText('Page edges not found. The whole photo is used.').count()).toBe(0);
    await screen.uploadButton.click();
    await expectFiles(page, ['Banking Info 1.pdf']);
    const [doc] = await listDocs(page, clientId, 'Banking Info');
    const greys = await edgeGreys(await storedBytes(page, doc?.key ?? ''));
    // Paper all round (the table is below 70).
    for (const grey of greys) expect(grey).toBeGreaterThan(170);
  });

  test('a page that cannot be told apart is kept whole, and the row says so', async () => {
    const screen = categoryScreen(page);
    await screen.takePhoto.setInputFiles([await setPhoto('07-white.jpg', 'white.jpg')]);
    const item = screen.queued('Banking Info 2.pdf');
    await item.getByText('Page edges not found. The whole photo is used.').waitFor();
    // A notice, not a fault: nothing to answer.
    expect(await item.getByRole('button', { name: /^Keep anyway/ }).count()).toBe(0);
  });

  test('a photo with glare is warned, with Retake and Keep anyway', async () => {
    const screen = categoryScreen(page);
    await screen.takePhoto.setInputFiles([await setPhoto('01-wood.jpg', 'glare.jpg')]);
    const item = screen.queued('Banking Info 3.pdf');
    await item.getByText('This photo has glare. Tilt the page away from the light and retake.').waitFor();
    await item.getByRole('button', { name: /^Keep anyway/ }).waitFor();
    await item.getByLabel(/^Retake/).waitFor({ state: 'attached' });
  });
});

test.describe('the client page straightens and warns of glare, in Spanish', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let api: ApiSession;
  let client: Visitor;
  let staff: Visitor;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Dora'));
    staff = await app.visit();
    await signInViaUi(staff.page, app.server, vera, `/clients/${clientId}/docs/Banking%20Info`);
    api = await ApiSession.open(app.server);
    await api.signIn(vera);
    const { url } = await api.call<{ url: string }>('POST', `/clients/${clientId}/link`, {
      categories: ['13614-C', 'Banking Info'],
      language: 'es',
    });
    client = await app.visit();
    const after = Date.now() - 1000;
    await client.page.goto(url);
    const code = await app.server.latestCode(DORA, { after });
    await client.page.getByLabel('Código de 6 dígitos').fill(code);
    await client.page.getByRole('button', { name: 'Continuar' }).click();
    await client.page.getByRole('checkbox', { name: 'Acepto' }).check();
    await client.page.getByRole('button', { name: 'Continuar' }).click();
    await seeHeading(client.page, 'Hola Dora, por favor agregue estos documentos');
  });
  test.afterAll(async () => {
    await api?.dispose();
    await app?.stop();
  });

  const form = (page: Page) =>
    page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 2, name: 'Banking Info', exact: true }) });

  test('a glare photo waits with the Spanish warning; a tilted page is stored straightened', async () => {
    const page = client.page;
    await form(page)
      .getByLabel('Tomar foto', { exact: true })
      .setInputFiles([await setPhoto('01-wood.jpg', 'glare.jpg')]);
    await form(page)
      .getByText('Esta foto tiene reflejos. Incline la página para alejarla de la luz y tome otra.')
      .waitFor();
    await form(page)
      .getByRole('button', { name: /^Usarla así / })
      .click();
    await form(page)
      .getByRole('list', { name: 'Agregado' })
      .getByText(/\.pdf$/)
      .waitFor();

    await form(page)
      .getByLabel('Tomar foto', { exact: true })
      .setInputFiles([await setPhoto('00-dark.jpg', 'table.jpg')]);
    await expect.poll(async () => (await listDocs(staff.page, clientId, 'Banking Info')).length).toBe(2);
    const docs = await listDocs(staff.page, clientId, 'Banking Info');
    const greys = await Promise.all(
      docs.map(async (doc) => edgeGreys(await storedBytes(staff.page, doc.key))),
    );
    // The tilted page on the dark table: paper all round, whichever of the two it is.
    expect(greys.some((sides) => sides.every((grey) => grey > 170))).toBe(true);
  });
});
