// A volunteer on a phone's touch screen, 390 px wide (docs/behaviour.md#upload-tray, #category-screen,
// #client-documents-screen): the header's upload count on one line, the sticky `Upload (n)` never
// over the queue row being worked, no talk of dropping files where nothing can be dragged, and on
// Client Documents the categories first, `Download All Documents` plain while there is nothing to download.
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { DESKTOP, PHONE, WAIT_MS } from './support/browser.js';
import { categoryScreen, pdfFixture } from './support/documents.js';
import { seeHeading, signIn } from './support/journeys.js';
import { startWithClient } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Phone');
const DROP_HINT = 'You can also drop files onto this page.';

/** Lines of text the element's content takes (its height over its line height). */
const lines = (element: Locator) =>
  element.evaluate((el) => {
    const style = getComputedStyle(el);
    const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    return Math.round(el.getBoundingClientRect().height / lineHeight);
  });

/** Whether two boxes overlap. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.y < y.y + y.height && y.y < x.y + x.height && x.x < y.x + y.width && y.x < x.x + x.width;
}

test.describe('a volunteer on a touch phone, 390 px', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let clientId = '';
  let context: BrowserContext;
  let page: Page;
  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Ada'));
    // A touch screen without a mouse: (pointer: coarse) and (hover: none).
    context = await app.browser.newContext({
      baseURL: app.server.url,
      viewport: PHONE,
      hasTouch: true,
      serviceWorkers: 'block',
    });
    context.setDefaultTimeout(WAIT_MS);
    page = await context.newPage();
    await signIn(page, app.server, vera, `/login?next=/clients/${clientId}/docs`);
    await seeHeading(page, 'Client Documents');
  });
  test.afterAll(async () => {
    await context?.close();
    await app?.stop();
  });

  test('Client Documents: the categories come first; Download All is not the primary button with no files', async () => {
    const list = page.getByRole('region', { name: 'Required Documents' });
    await list.getByRole('link', { name: 'Banking Info' }).waitFor();
    const downloadAll = page.getByRole('button', { name: 'Download All Documents' });
    await expect(downloadAll).toBeEnabled();
    const [listBox, buttonBox] = [await list.boundingBox(), await downloadAll.boundingBox()];
    expect(listBox!.y).toBeLessThan(buttonBox!.y);
    expect(await downloadAll.evaluate((el) => el.classList.contains('button--primary'))).toBe(false);
  });

  test('category screen: no drop hint; the tray on one line; Upload (n) never covers the focused row', async () => {
    await page.goto(`/clients/${clientId}/docs/Banking%20Info`);
    await seeHeading(page, 'Banking Info');
    const screen = categoryScreen(page);
    await screen.addFiles.getByRole('button', { name: 'Scan pages' }).waitFor();
    expect(await page.getByText(DROP_HINT).isVisible()).toBe(false);

    const names = Array.from({ length: 8 }, (_, i) => `statement-${i + 1}.pdf`);
    await screen.uploadFiles.setInputFiles(await Promise.all(names.map((n) => pdfFixture(n))));
    await screen.uploadButton.filter({ hasText: 'Upload (8)' }).waitFor();

    const tray = page.getByRole('banner').getByRole('button', { name: /8 files waiting to upload/ });
    await tray.waitFor();
    expect(await lines(tray.locator('.upload-tray__label'))).toBe(1);

    // Each row's Remove in turn, as a keyboard (or a screen reader) reaches it: never under the footer.
    const footer = screen.addFiles.locator('.queue__footer');
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const name of names) {
      const remove = screen.queued(name).getByRole('button', { name: 'Remove' });
      await remove.focus();
      expect(await overlap(remove, footer), `${name}'s Remove under Upload (8)`).toBe(false);
    }
  });

  test('with a mouse the drop hint is there', async () => {
    await page.setViewportSize(DESKTOP);
    const mouse = await app.visit(DESKTOP);
    await signIn(mouse.page, app.server, vera, `/login?next=/clients/${clientId}/docs/Banking%20Info`);
    await seeHeading(mouse.page, 'Banking Info');
    await mouse.page.getByText(DROP_HINT).waitFor();
    await mouse.close();
  });
});
