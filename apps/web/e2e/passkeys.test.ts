// Passkey journeys (docs/behaviour.md#passkeys) in Chromium with its virtual authenticator (CDP
// WebAuthn: internal transport, resident keys, user verification on): the dashboard's offer after a
// PIN + code sign-in, `Sign in with a passkey` as the whole sign-in, /account's list and Remove, Not
// now, and the admin removing a user's passkeys.
import { messages, passkeyConfirmSent, passkeyMessages } from '@vita-docs/core';
import type { Page } from '@playwright/test';
import { ApiSession, person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { checkScreen } from './support/screens.js';
import { atPath, seeHeading, signInViaUi } from './support/journeys.js';
import { expect, test } from './support/test.js';

const admin = person('Pia', 'Admin');
const vera = person('Vera', 'Passkey');
const olga = person('Olga', 'Officer');

/** A platform authenticator in this browser profile, as a phone's fingerprint reader is. */
async function addVirtualAuthenticator(visitor: Visitor): Promise<void> {
  const cdp = await visitor.context.newCDPSession(visitor.page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

const offer = (page: Page) => page.getByRole('region', { name: passkeyMessages.offer });

async function logout(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click();
  await atPath(page, '/');
}

test.describe('passkeys', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  test.beforeAll(async ({ startApp }) => {
    app = await startApp({ localhost: true });
    const api = await ApiSession.open(app.server);
    await api.register(admin);
    await api.signIn(admin);
    await api.register(vera);
    await api.approve(vera.email);
    await api.register(olga);
    await api.approve(olga.email, 'officer');
    await api.dispose();
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('PIN + code → Create a passkey → sign out → Sign in with a passkey: no PIN, no code', async () => {
    const visitor = await app.visit();
    const { page } = visitor;
    await addVirtualAuthenticator(visitor);
    await signInViaUi(page, app.server, vera);
    await seeHeading(page, 'Hello, Vera');
    await offer(page).waitFor();
    await checkScreen(page, 'dashboard-passkey-offer');
    await offer(page).getByRole('button', { name: passkeyMessages.create }).click();
    await offer(page).waitFor({ state: 'detached' });
    await logout(page);

    await page.goto('/login');
    const passkeyButton = page.getByRole('button', { name: messages.passkeySignIn });
    // Above the email and PIN form.
    const buttonBox = await passkeyButton.boundingBox();
    const emailBox = await page.getByLabel('Email').boundingBox();
    expect(buttonBox && emailBox && buttonBox.y < emailBox.y).toBe(true);
    await checkScreen(page, 'login-with-passkey');
    const mailsBefore = (await app.server.outbox()).length;
    await passkeyButton.click();
    await atPath(page, '/home');
    await seeHeading(page, 'Hello, Vera');
    expect((await app.server.outbox()).length).toBe(mailsBefore);

    // /account lists it; Remove takes it away, and the passkey no longer signs in.
    await page.getByRole('link', { name: 'Account' }).click();
    await atPath(page, '/account');
    await seeHeading(page, 'Account');
    await page
      .getByRole('article')
      .getByText(/Created .* · Last used /)
      .waitFor();
    await checkScreen(page, 'account');
    await page.getByRole('button', { name: passkeyMessages.remove, exact: true }).click();
    await page.getByText('No passkeys yet.').waitFor();
    await page.getByRole('link', { name: 'Home' }).last().click();
    await atPath(page, '/home');
    await logout(page);
    await page.goto('/login');
    await page.getByRole('button', { name: messages.passkeySignIn }).click();
    expect((await visitor.dialogs.next()).message).toBe(messages.passkeyFailed);
    await atPath(page, '/login');
  });

  test('Not now: the offer is not shown again (asked again after 30 days: the server test counts them)', async () => {
    const visitor = await app.visit();
    const { page } = visitor;
    await addVirtualAuthenticator(visitor);
    await signInViaUi(page, app.server, vera);
    await offer(page).getByRole('button', { name: passkeyMessages.notNow }).click();
    await offer(page).waitFor({ state: 'detached' });
    await page.reload();
    await seeHeading(page, 'Hello, Vera');
    await page.getByRole('link', { name: 'Account' }).waitFor();
    // The dashboard has loaded its sections (the offer loads beside them): still no offer.
    await page.getByRole('button', { name: 'Refresh' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await offer(page).count()).toBe(0);

    // Added from /account instead: `Add a passkey`.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: passkeyMessages.add }).click();
    await page.getByRole('button', { name: passkeyMessages.remove, exact: true }).waitFor();
  });

  test('an admin sees how many passkeys a user has and removes them all', async () => {
    const visitor = await app.visit();
    const { page } = visitor;
    await signInViaUi(page, app.server, admin);
    await page.goto(`/admin/users/${encodeURIComponent(vera.email)}`);
    const passkeys = page.getByRole('region', { name: 'Passkeys' });
    await passkeys.getByText('1 passkey').waitFor();
    await checkScreen(page, 'admin-user-passkeys');
    await passkeys.getByRole('button', { name: 'Remove all passkeys' }).click();
    await passkeys.getByText('No passkeys').waitFor();
    const mail = (await app.server.outbox()).filter((m) => m.to === vera.email).at(-1);
    expect(mail?.subject).toBe('Your VITA Documents passkeys were removed');
  });

  test('with the rule on: an officer enrols after a mailed code, then PIN + code leads to Sign in with a passkey', async () => {
    const api = await ApiSession.open(app.server);
    await api.signIn(admin);
    await api.call('POST', '/admin/passkey-policy', { requireForStaff: true });
    try {
      const visitor = await app.visit();
      const { page } = visitor;
      await addVirtualAuthenticator(visitor);
      // PIN + code of an officer without a passkey: held back on /account until one is made.
      await signInViaUi(page, app.server, olga);
      await atPath(page, '/account');
      // The dashboard it passed through said the same in its panels: wait for Account itself.
      await seeHeading(page, 'Account');
      await page.getByText(passkeyMessages.required).waitFor();
      expect(await page.getByRole('button', { name: passkeyMessages.add }).count()).toBe(0);

      const after = Date.now();
      await page.getByRole('button', { name: passkeyMessages.emailCode }).click();
      await page.getByText(passkeyConfirmSent(olga.email)).waitFor();
      await checkScreen(page, 'account-passkey-confirmation');
      const code = await app.server.latestCode(olga.email, { after });
      await page.getByLabel(passkeyMessages.confirmCode).fill(code);
      await page.getByRole('button', { name: passkeyMessages.create }).click();
      await page.getByRole('button', { name: passkeyMessages.remove, exact: true }).waitFor();
      await page.getByRole('link', { name: 'Home' }).last().click();
      await atPath(page, '/home');
      const added = (await app.server.outbox()).filter((m) => m.to === olga.email).at(-1);
      expect(added?.subject).toBe('A passkey was added to your VITA Documents account');
      await logout(page);

      // PIN + code again: no session, the passkey instead.
      await page.goto('/login');
      const again = Date.now();
      await page.getByLabel('Email').fill(olga.email);
      await page.getByLabel('Password PIN').fill(olga.pin);
      await page.getByRole('button', { name: 'Login' }).click();
      await atPath(page, '/login/verify');
      await page.getByLabel('6-digit code').fill(await app.server.latestCode(olga.email, { after: again }));
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByRole('alert').getByText(messages.passkeySignInRequired).waitFor();
      await checkScreen(page, 'login-passkey-required');
      await page.getByRole('button', { name: messages.passkeySignIn }).click();
      await atPath(page, '/home');
      await seeHeading(page, 'Hello, Olga');
    } finally {
      await api.call('POST', '/admin/passkey-policy', { requireForStaff: false });
      await api.dispose();
    }
  });
});
