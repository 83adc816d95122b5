// The category screen by keyboard (docs/behaviour.md#category-screen, #retake-menu): after `Upload (n)`
// the focus lands on the line that says what happened, that line goes at the person's next action,
// and the Retake menu is worked with the arrow keys, Escape giving the focus back to `Retake`.
import type { Page } from '@playwright/test';
import { person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { DESKTOP } from './support/browser.js';
import { categoryScreen, expectFiles, pdfFixture } from './support/documents.js';
import { seeHeading, signIn } from './support/journeys.js';
import { startWithClient } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Focus');

/** The focused element: its accessible name (aria-label, a label, else its text) and its role. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '<body>';
    const name =
      el.getAttribute('aria-label') ??
      (el as HTMLInputElement).labels?.[0]?.textContent?.trim() ??
      el.textContent?.trim() ??
      el.tagName;
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()}: ${name}`;
  });

test.describe('the category screen by keyboard', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let clientId = '';
  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Ada'));
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('Upload (3) → focus on "3 files uploaded."; the line goes at the next action; Retake menu by keys', async () => {
    const { page } = await app.visit(DESKTOP);
    await signIn(page, app.server, vera, `/login?next=/clients/${clientId}/docs/Banking%20Info`);
    await seeHeading(page, 'Banking Info');
    const screen = categoryScreen(page);
    await screen.uploadFiles.setInputFiles([
      await pdfFixture('a.pdf'),
      await pdfFixture('b.pdf'),
      await pdfFixture('c.pdf'),
    ]);
    await screen.uploadButton.filter({ hasText: 'Upload (3)' }).waitFor();
    await screen.uploadButton.focus();
    await page.keyboard.press('Enter');
    await expectFiles(page, ['a.pdf', 'b.pdf', 'c.pdf']);
    const said = screen.addFiles.getByRole('status').filter({ hasText: '3 files uploaded.' });
    await said.waitFor();
    await expect.poll(() => focused(page)).toBe('status: 3 files uploaded.');

    // The next action (here Refresh) and the line is gone.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await said.waitFor({ state: 'detached' });
    expect(await screen.addFiles.getByText('3 files uploaded.').count()).toBe(0);

    // Retake: Enter opens the menu, the arrows move through it, Escape closes it and gives the focus back.
    const retake = screen.row('b.pdf').getByRole('button', { name: 'Retake b.pdf' });
    // The row's buttons are disabled while the list reloads, and a disabled button takes no focus.
    await expect(retake).toBeEnabled();
    await retake.focus();
    await page.keyboard.press('Enter');
    const menu = screen.row('b.pdf').getByRole('group', { name: 'Retake b.pdf' });
    await menu.waitFor();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toBe('input: Upload');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toBe('input: Take Photo');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toBe('input: Upload');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => focused(page)).toBe('input: Take Photo');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('button: Retake b.pdf');
    expect(await retake.getAttribute('aria-expanded')).toBe('false');
  });
});
