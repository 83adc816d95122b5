// Told once, offered only where it works (docs/behaviour.md#passkeys, #session-check): a role change is
// said once on the login page; a server without passkeys (no PUBLIC_URL) offers no `Add a passkey`;
// a passkey made from the dashboard's offer says so.
import { messages, passkeyMessages } from '@vita-docs/core';
import { ApiSession, person, seedPeople } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { DESKTOP } from './support/browser.js';
import { seeHeading, signInViaUi } from './support/journeys.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const dora = person('Dora', 'Offered');

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

test.describe('on a server without passkeys', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let clientId = '';
  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    await (await seedPeople(app.server, admin, [{ person: dora }])).dispose();
    const api = await ApiSession.open(app.server);
    await api.signIn(dora);
    clientId = (await api.createClient('Rosa', 'Diaz')).clientId;
    await api.dispose();
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('a role changed under an open screen is said once, on the login page', async () => {
    const visitor = await app.visit(DESKTOP);
    const { page } = visitor;
    await signInViaUi(page, app.server, dora);
    await seeHeading(page, /^Hello, Dora/);
    const adminApi = await ApiSession.open(app.server);
    await adminApi.signIn(admin);
    await adminApi.call('POST', `/admin/users/${encodeURIComponent(dora.email)}/role`, { role: 'officer' });
    await adminApi.dispose();
    // Her next request, from within the app (no reload: the client's page asks for its documents),
    // ends on the login page.
    await page.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, `/clients/${clientId}/docs`);
    await page.getByRole('alert').getByText(messages.roleChanged).waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    await page.waitForLoadState('networkidle');
    expect(await page.getByText(messages.roleChanged).count()).toBe(1);
    expect(visitor.dialogs.unread()).toEqual([]);
  });

  test('Account offers no Add a passkey, and says why', async () => {
    const visitor = await app.visit(DESKTOP);
    const { page } = visitor;
    await addVirtualAuthenticator(visitor);
    await signInViaUi(page, app.server, dora, '/login?next=/account');
    await seeHeading(page, 'Account');
    await page.getByText(passkeyMessages.notOffered).waitFor();
    expect(await page.getByRole('button', { name: passkeyMessages.add }).count()).toBe(0);
  });
});

test.describe('on a server with passkeys', () => {
  let app: TestApp;
  test.beforeAll(async ({ startApp }) => {
    app = await startApp({ localhost: true });
    await (await seedPeople(app.server, admin, [{ person: dora }])).dispose();
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('Create a passkey from the dashboard offer says Passkey created.', async () => {
    const visitor = await app.visit(DESKTOP);
    const { page } = visitor;
    await addVirtualAuthenticator(visitor);
    await signInViaUi(page, app.server, dora);
    await seeHeading(page, /^Hello, Dora/);
    const offer = page.getByRole('region', { name: passkeyMessages.offer });
    await offer.getByRole('button', { name: passkeyMessages.create }).click();
    await page.getByRole('status').getByText('Passkey created.', { exact: true }).waitFor();
    await offer.getByRole('button', { name: passkeyMessages.create }).waitFor({ state: 'detached' });
  });
});
