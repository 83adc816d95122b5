// Photos that look scanned (docs/behaviour.md#straightened-pages): a form photographed tilted on a dark
// table with Take Photo becomes a PDF whose page is the form alone, straightened, with no table at its
// edges; a photo with glare is warned with Retake / Keep anyway; the same on the client page in Spanish.
// The photos come from the labelled set the straightening benchmark reads.
import type { Page } from '@playwright/test';
import { person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { clientPageWorld } from './support/client-page.js';
import { categoryScreen, expectFiles, listDocs, storedBytes } from './support/documents.js';
import { seeHeading, signIn } from './support/journeys.js';
import { edgeGreys, setPhoto } from './support/page-image.js';
import { startWithClient } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Straighten');
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
    await signIn(page, app.server, vera, `/clients/${clientId}/docs/Banking%20Info`);
    await seeHeading(page, 'Banking Info');
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('a page tilted on a dark table becomes a PDF of the page alone, no table at its edges', async () => {
    const screen = categoryScreen(page);
    await screen.takePhoto.setInputFiles([await setPhoto('00-dark.jpg', 'table.jpg')]);
    const item = screen.queued('Banking Info 1.pdf');
    await item.getByText('Not uploaded yet').waitFor();
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
  const world = clientPageWorld(admin, vera);

  const form = (page: Page) =>
    page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 2, name: 'Banking Info', exact: true }) });

  test('a glare photo waits with the Spanish warning; a tilted page is stored straightened', async () => {
    const page = world.client.page;
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
    await expect
      .poll(async () => (await listDocs(world.staff.page, world.clientId, 'Banking Info')).length)
      .toBe(2);
    const docs = await listDocs(world.staff.page, world.clientId, 'Banking Info');
    const greys = await Promise.all(
      docs.map(async (doc) => edgeGreys(await storedBytes(world.staff.page, doc.key))),
    );
    // The tilted page on the dark table: paper all round, whichever of the two it is.
    expect(greys.some((sides) => sides.every((grey) => grey > 170))).toBe(true);
  });
});
