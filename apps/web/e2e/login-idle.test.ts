// The login page paints first and asks the server whether it offers passkeys only after that, at the
// browser's first idle moment (docs/behaviour.md#login-screen): the question never competes with the
// form a phone shows first (Lighthouse's mobile score, docs/benchmarks.md).
import type { TestApp } from './support/app.js';
import { seeHeading } from './support/journeys.js';
import { expect, test } from './support/test.js';

type Held = Window & { releaseIdle?: () => void };

test.describe('the login page', () => {
  let app: TestApp;
  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('asks for the passkey status at the first idle moment, after its form has painted', async () => {
    const { page } = await app.visit();
    // The browser's idle moments held back until the test lets them come.
    await page.addInitScript(() => {
      const held: (() => void)[] = [];
      window.requestIdleCallback = (callback) => {
        held.push(() => callback({ didTimeout: false, timeRemaining: () => 50 }));
        return held.length;
      };
      window.cancelIdleCallback = () => undefined;
      (window as Held).releaseIdle = () => held.splice(0).forEach((run) => run());
    });
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/passkey/status')) asked.push(request.url());
    });
    await page.goto('/login');
    await seeHeading(page, 'Login');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    // The session check has answered and nothing else is under way: the page had its chance to ask.
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual([]);
    expect(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length)).toBe(1);

    const answered = page.waitForResponse((response) => response.url().includes('/api/auth/passkey/status'));
    await page.evaluate(() => (window as Held).releaseIdle?.());
    expect((await answered).status()).toBe(200);
    expect(asked).toHaveLength(1);
  });
});
