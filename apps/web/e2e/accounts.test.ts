// Account journeys (docs/behaviour.md#accounts and docs/behaviour.md#sign-in): first visit and
// registration, approval with the officer question, two-step login with the emailed code, the
// dashboard, logout, unknown paths and ?next.
import { messages } from '@vita-docs/core';
import type { Page } from '@playwright/test';
import { ApiSession, person } from './support/api.js';
import type { Person } from './support/api.js';
import type { TestApp } from './support/app.js';
import { checkScreen } from './support/screens.js';
import {
  atPath,
  layoutShiftSoFar,
  recordLayoutShifts,
  seeHeading,
  signInViaUi,
  submitCredentials,
} from './support/journeys.js';
import { expect, test } from './support/test.js';

const admin = person('Ada', 'Admin');
const vera = person('Vera', 'Volunteer');
const olga = person('Olga', 'Officer');

test.describe('accounts', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('first visit: the landing page, then Register leads to the pending page', async () => {
    const { page } = await app.visit();
    await page.goto('/');
    await seeHeading(page, messages.landingTagline);
    await page.getByRole('banner').getByText('VITA Documents').waitFor();
    expect(await page.getByRole('banner').getByRole('link', { name: 'Home' }).getAttribute('href')).toBe(
      '/home',
    );
    expect(await page.getByRole('link', { name: /programme.s website/ }).getAttribute('href')).toMatch(
      /^https:\/\//,
    );
    await page.getByRole('link', { name: 'Login' }).waitFor();
    await checkScreen(page, 'landing');

    // The first account of a fresh installation becomes its approved admin; the page says so.
    await page.getByRole('link', { name: 'Register' }).click();
    await seeHeading(page, 'New Volunteer Account');
    await checkScreen(page, 'register');
    await fillRegistration(page, admin);
    await atPath(page, '/register/pending');
    await page.getByText(/first account of this installation/).waitFor();
    await checkScreen(page, 'register-pending-first-admin');

    await page.goto('/register');
    await fillRegistration(page, vera);
    await atPath(page, '/register/pending');
    await seeHeading(page, 'Thank you for registering');
    await page
      .getByText('Your application is pending approval. Please wait for an admin to accept your account.')
      .waitFor();
    await checkScreen(page, 'register-pending');
  });

  test('a volunteer still pending cannot log in: the server says why in an alert', async () => {
    const { page, dialogs } = await app.visit();
    await page.goto('/login');
    await submitCredentials(page, vera);
    expect((await dialogs.next()).message).toMatch(/waiting for approval/);
    await atPath(page, '/login');
  });

  test('the admin approves, answering the Officer question both ways', async () => {
    const outside = await ApiSession.open(app.server);
    await outside.register(olga);
    await outside.dispose();

    const { page, dialogs } = await app.visit();
    await page.goto('/login');
    await seeHeading(page, 'Login');
    await page.getByRole('link', { name: 'Forgot Password' }).waitFor();
    await checkScreen(page, 'login');
    const after = Date.now();
    await submitCredentials(page, admin);
    await atPath(page, '/login/verify');
    const codeField = page.getByLabel('6-digit code');
    expect(await codeField.getAttribute('inputmode')).toBe('numeric');
    expect(await codeField.getAttribute('maxlength')).toBe('6');
    await checkScreen(page, 'login-verify');
    await codeField.fill(await app.server.latestCode(admin.email, { after }));
    await page.getByRole('button', { name: 'Submit' }).click();
    await atPath(page, '/home');
    await seeHeading(page, 'Hello, Ada Admin');

    const pending = page.getByRole('region', { name: 'Pending Approvals' });
    const allUsers = page.getByRole('region', { name: 'All Users' });
    await pending.getByRole('article', { name: 'Vera Volunteer' }).waitFor();
    await pending.getByRole('article', { name: 'Olga Officer' }).getByText(olga.email).waitFor();
    await page.getByRole('region', { name: 'Orphaned Clients (Needs Reassignment)' }).waitFor();
    await page.getByRole('region', { name: 'All Clients' }).waitFor();
    await allUsers.getByRole('article', { name: 'Olga Officer' }).getByText('Status: Pending').waitFor();
    await checkScreen(page, 'home-admin');

    // Cancel means Volunteer.
    dialogs.answerNextConfirm(false);
    await pending
      .getByRole('article', { name: 'Vera Volunteer' })
      .getByRole('button', { name: 'Approve' })
      .click();
    expect(await dialogs.next()).toEqual({
      type: 'confirm',
      message: 'Make Vera Volunteer an Officer? Choose Cancel to make them a Volunteer.',
    });
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.roleSetToVolunteer });
    await pending.getByRole('article', { name: 'Vera Volunteer' }).waitFor({ state: 'detached' });
    const veraCard = allUsers.getByRole('article', { name: 'Vera Volunteer' });
    await veraCard.getByText('Status: Approved').waitFor();
    await veraCard.getByText('Volunteer', { exact: true }).waitFor();

    // OK means Officer.
    dialogs.answerNextConfirm(true);
    await pending
      .getByRole('article', { name: 'Olga Officer' })
      .getByRole('button', { name: 'Approve' })
      .click();
    expect((await dialogs.next()).message).toBe(
      'Make Olga Officer an Officer? Choose Cancel to make them a Volunteer.',
    );
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.roleUpdated });
    await pending.getByText('No accounts are waiting for approval.').waitFor();
    const olgaCard = allUsers.getByRole('article', { name: 'Olga Officer' });
    await olgaCard.getByText('Status: Approved').waitFor();
    await olgaCard.getByText('Officer', { exact: true }).waitFor();
    // Admins cannot be deleted: their card has Open only.
    const adaCard = allUsers.getByRole('article', { name: 'Ada Admin' });
    await adaCard.getByText('Admin', { exact: true }).waitFor();
    expect(await adaCard.getByRole('button', { name: 'Delete User' }).count()).toBe(0);
    expect(await olgaCard.getByRole('button', { name: 'Delete User' }).count()).toBe(1);
    expect(dialogs.unread()).toEqual([]);

    // Coming back to the dashboard: it fills in without anything on screen jumping.
    await recordLayoutShifts(page);
    await page.goto('/home');
    await allUsers.getByRole('article', { name: 'Olga Officer' }).waitFor();
    await page.getByRole('region', { name: 'All Clients' }).getByText('No clients yet.').waitFor();
    expect(await layoutShiftSoFar(page)).toBeLessThan(0.01);
  });

  test('keyboard only: Tab reaches every control with a visible focus ring, Enter submits', async () => {
    const { page } = await app.visit({ width: 1280, height: 800 });
    await page.goto('/');
    await seeHeading(page, messages.landingTagline);
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return { text: el.textContent?.trim() ?? '', outline: getComputedStyle(el).outlineStyle };
      });
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      const { text, outline } = await focused();
      order.push(text);
      expect(outline, `focus ring on "${text}"`).not.toBe('none');
    }
    expect(order).toEqual(['Skip to content', 'Home', 'Login', 'Register', 'Visit the programme’s website']);

    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await atPath(page, '/login');
    // Focus moves to the new page's heading, so the next Tab lands in the form.
    await headingHasFocus(page, 'Login');
    await page.keyboard.press('Tab');
    await page.keyboard.type(vera.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(vera.pin);
    const after = Date.now();
    await page.keyboard.press('Enter');
    await atPath(page, '/login/verify');
    // The code field itself has focus: the code is the one thing to type there.
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'code');
    await page.keyboard.type(await app.server.latestCode(vera.email, { after }));
    await page.keyboard.press('Enter');
    await atPath(page, '/home');
    await seeHeading(page, 'Hello, Vera');
  });

  test('the approved volunteer logs in with the emailed code, sees the dashboard, and logs out', async () => {
    const { page, dialogs } = await app.visit();
    await signInViaUi(page, app.server, vera);
    await atPath(page, '/home');
    await seeHeading(page, 'Hello, Vera');
    for (const name of ['Refresh', 'Logout']) await page.getByRole('button', { name }).waitFor();
    expect(await page.getByRole('link', { name: 'Add New Client' }).getAttribute('href')).toBe(
      '/clients/new',
    );
    expect(await page.getByRole('link', { name: 'Enter Existing Client' }).getAttribute('href')).toBe(
      '/clients',
    );
    expect(await page.getByRole('region').count()).toBe(0);
    await checkScreen(page, 'home-volunteer');

    // A session exists: the landing page sends the person on to /home.
    await page.goto('/');
    await atPath(page, '/home');
    await seeHeading(page, 'Hello, Vera');

    await page.getByRole('button', { name: 'Refresh' }).click();
    await seeHeading(page, 'Hello, Vera');
    await page.getByRole('button', { name: 'Logout' }).click();
    await atPath(page, '/');
    await seeHeading(page, messages.landingTagline);

    await page.goto('/home');
    await seeHeading(page, messages.notSignedIn);
    for (const name of ['Go to Landing', 'Login', 'Register'])
      await page.getByRole('main').getByRole('link', { name }).waitFor();
    await checkScreen(page, 'home-not-signed-in');
    await page.getByRole('link', { name: 'Go to Landing' }).click();
    await atPath(page, '/');
    expect(dialogs.unread()).toEqual([]);
  });

  test('any path the app does not know goes to /', async () => {
    const { page } = await app.visit();
    for (const path of ['/nowhere', '/register/pending/more', '/clients/abc', '/admin', '/HOME/x']) {
      await page.goto(path);
      await atPath(page, '/');
      await seeHeading(page, messages.landingTagline);
    }
  });

  test('signed out, /clients/new goes to /login?next=/clients/new, and back there after login', async () => {
    const { page } = await app.visit();
    await page.goto('/clients/new');
    await atPath(page, '/login?next=/clients/new');
    const after = Date.now();
    await submitCredentials(page, vera);
    await atPath(page, '/login/verify?next=/clients/new');
    await page.getByLabel('6-digit code').fill(await app.server.latestCode(vera.email, { after }));
    await page.getByRole('button', { name: 'Submit' }).click();
    await atPath(page, '/clients/new');
    await seeHeading(page, 'Create New Client');
  });
});

async function headingHasFocus(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (t) => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === t,
    text,
  );
}

async function fillRegistration(page: Page, who: Person): Promise<void> {
  await page.getByLabel('First name').fill(who.firstName);
  await page.getByLabel('Last name').fill(who.lastName);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password PIN').fill(who.pin);
  await page.getByRole('button', { name: 'Submit' }).click();
}
