// The emailed codes (docs/behaviour.md#resend-cooldown): Resend code with its 30 s countdown, a wrong
// code, and the forgot-password journey to a new Password PIN.
import { messages } from '@vita-docs/core';
import type { Page } from '@playwright/test';
import { person, seedPeople } from './support/api.js';
import type { TestApp } from './support/app.js';
import { checkScreen } from './support/screens.js';
import { atPath, seeHeading, signInViaUi, submitCredentials } from './support/journeys.js';
import { expect, test } from './support/test.js';

const admin = person('Ann', 'Admin');
const vic = person('Vic', 'Volunteer');
const rosa = person('Rosa', 'Reset');

/** Records every text the Resend button shows from now on (a countdown label lives one second). */
async function recordResendLabels(page: Page): Promise<() => Promise<string[]>> {
  const button = page.getByRole('button', { name: /^Resend/ });
  await button.evaluate((el) => {
    const labels: string[] = [el.textContent ?? ''];
    (window as unknown as { resendLabels: string[] }).resendLabels = labels;
    new MutationObserver(() => {
      const text = el.textContent ?? '';
      if (labels.at(-1) !== text) labels.push(text);
    }).observe(el, { childList: true, characterData: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { resendLabels: string[] }).resendLabels);
}

test.describe('codes', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    const session = await seedPeople(app.server, admin, [{ person: vic }, { person: rosa }]);
    await session.dispose();
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('Resend code counts down from 30 s and is disabled meanwhile; the new code signs in', async () => {
    const { page, context, dialogs } = await app.visit();
    // The page's clock runs normally but can jump ahead, so the end of the cooldown needs no 30 s wait.
    await context.clock.install();
    await page.goto('/login');
    await submitCredentials(page, vic);
    await atPath(page, '/login/verify');
    const labels = await recordResendLabels(page);

    const resentAfter = Date.now();
    await page.getByRole('button', { name: 'Resend code' }).click();
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.resendSucceeded });
    await page.getByRole('button', { name: 'Resend in 29s' }).waitFor();
    expect((await labels()).slice(0, 3)).toEqual(['Resend code', 'Resend in 30s', 'Resend in 29s']);
    expect(await page.getByRole('button', { name: 'Resend in 29s' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Resend in 28s' }).waitFor();

    await page.clock.fastForward(30_000);
    const resend = page.getByRole('button', { name: 'Resend code' });
    await resend.waitFor();
    expect(await resend.isEnabled()).toBe(true);
    // The server keeps its own 30 s per browser; the page's clock jumped, the server's did not.
    await resend.click();
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.resendFailed });
    expect(await resend.isEnabled()).toBe(true);

    await page
      .getByLabel('6-digit code')
      .fill(await app.server.latestCode(vic.email, { after: resentAfter }));
    await page.getByRole('button', { name: 'Submit' }).click();
    await atPath(page, '/home');
    await seeHeading(page, 'Hello, Vic');
  });

  test('a wrong code shows the server’s message and keeps the person on the code page', async () => {
    const { page, dialogs } = await app.visit();
    await page.goto('/login');
    await submitCredentials(page, admin);
    await atPath(page, '/login/verify');
    await page.getByLabel('6-digit code').fill('000000');
    await page.getByRole('button', { name: 'Submit' }).click();
    expect((await dialogs.next()).message).toMatch(/not valid or has expired/);
    await atPath(page, '/login/verify');
    expect(await page.getByRole('button', { name: 'Submit' }).isEnabled()).toBe(true);
  });

  test('/login/verify without an email from /login starts over at /login', async () => {
    const { page } = await app.visit();
    await page.goto('/login/verify');
    await atPath(page, '/login');
    await page.goto('/forgot/verify');
    await atPath(page, '/forgot');
    await page.goto('/forgot/reset');
    await atPath(page, '/forgot');
  });

  test('forgot password: code, new PIN, then login with the new PIN', async () => {
    const { page, dialogs } = await app.visit();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password' }).click();
    await atPath(page, '/forgot');
    await seeHeading(page, 'Forgot Password');
    await checkScreen(page, 'forgot');

    const sentAfter = Date.now();
    await page.getByLabel('Email').fill(rosa.email);
    await page.getByRole('button', { name: 'Send Code' }).click();
    await atPath(page, '/forgot/verify');
    const codeField = page.getByLabel('6-digit code');
    expect(await codeField.getAttribute('inputmode')).toBe('numeric');
    expect(await codeField.getAttribute('maxlength')).toBe('6');
    await checkScreen(page, 'forgot-verify');

    // Resend here has its own countdown.
    await page.getByRole('button', { name: 'Resend code' }).click();
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.resendSucceeded });
    await page.getByRole('button', { name: /^Resend in \d+s$/ }).waitFor();
    expect(await page.getByRole('button', { name: /^Resend in \d+s$/ }).isDisabled()).toBe(true);

    await codeField.fill(await latestAfterResend(app, rosa.email, sentAfter));
    await page.getByRole('button', { name: 'Submit' }).click();
    await atPath(page, '/forgot/reset');
    await seeHeading(page, 'Set a new password');
    await checkScreen(page, 'forgot-reset');

    // The server refuses two different entries, and says so.
    await page.getByLabel('New Password', { exact: true }).fill('a brand new pin');
    await page.getByLabel('Confirm New Password').fill('a different pin');
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await dialogs.next()).message).toMatch(/do not match/);

    await page.getByLabel('New Password', { exact: true }).fill('a brand new pin');
    await page.getByLabel('Confirm New Password').fill('a brand new pin');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.resetSucceeded });
    await atPath(page, '/login');

    // The old PIN is refused, the new one works.
    await submitCredentials(page, rosa);
    expect((await dialogs.next()).message).toMatch(/incorrect/);
    await signInViaUi(page, app.server, { ...rosa, pin: 'a brand new pin' });
    await atPath(page, '/home');
    await seeHeading(page, 'Hello, Rosa');
  });
});

/** The code of the newest mail: after a resend, two mails went out and only the newest counts. */
async function latestAfterResend(app: TestApp, email: string, after: number): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mails = (await app.server.outbox()).filter((m) => m.to === email && Date.parse(m.sentAt) >= after);
    if (mails.length >= 2) return app.server.latestCode(email, { after });
    if (Date.now() > deadline) throw new Error(`expected two code mails to ${email}, saw ${mails.length}`);
    // The forgot mails go out in the background (the server answers first), so poll the outbox.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
