// What each role sees and may do (docs/behaviour.md#roles-and-permissions): the officer's dashboard
// and the Reassign modal, the admin user page for each kind of account, and the admin's optimistic
// deletes.
import { messages, roleChangeConfirm } from '@vita-docs/core';
import type { Page } from '@playwright/test';
import { ApiSession, person, seedPeople } from './support/api.js';
import type { TestApp } from './support/app.js';
import { checkScreen } from './support/screens.js';
import { atPath, seeHeading, signIn } from './support/journeys.js';
import { expect, test } from './support/test.js';

const admin = person('Ana', 'Admin');
const olga = person('Olga', 'Officer');
const vera = person('Vera', 'Volunteer');
const wendy = person('Wendy', 'Gone');
const paul = person('Paul', 'Pending');
const pia = person('Pia', 'Pending');
const dan = person('Dan', 'Delete');
const dora = person('Dora', 'Kept');

const region = (page: Page, name: string) => page.getByRole('region', { name });
const card = (page: Page, section: string, name: string) =>
  region(page, section).getByRole('article', { name });

test.describe('roles', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let orphanId: string;

  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    const adminApi = await seedPeople(app.server, admin, [
      { person: olga, role: 'officer' },
      { person: vera },
      { person: wendy },
      { person: dan },
      { person: dora },
      { person: paul, approved: false },
      { person: pia, approved: false },
    ]);
    // Wendy's client becomes an orphan when her account is deleted; Vera's client is the admin's to delete.
    for (const [owner, first] of [
      [wendy, 'Carl'],
      [vera, 'Cleo'],
    ] as const) {
      const api = await ApiSession.open(app.server);
      await api.signIn(owner);
      const client = await api.createClient(first, 'Client');
      if (first === 'Carl') orphanId = client.clientId;
      await api.dispose();
    }
    await adminApi.deleteUser(wendy.email);
    await adminApi.dispose();
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('an officer sees Pending Approvals and Orphaned Clients, but not All Users or All Clients', async () => {
    const { page, dialogs } = await app.visit();
    await signIn(page, app.server, olga);
    await seeHeading(page, 'Hello, Olga Officer');
    await card(page, 'Pending Approvals', 'Paul Pending').waitFor();
    const orphan = card(page, 'Orphaned Clients (Needs Reassignment)', 'Carl Client');
    await orphan.getByText(`Client ID: ${orphanId}`).waitFor();
    await orphan.getByText(`Previous volunteer: ${wendy.email}`).waitFor();
    expect(await region(page, 'All Users').count()).toBe(0);
    expect(await region(page, 'All Clients').count()).toBe(0);
    // Officers may only set Volunteer: no Set Role.
    const paulCard = card(page, 'Pending Approvals', 'Paul Pending');
    expect(await paulCard.getByRole('button', { name: 'Set Role' }).count()).toBe(0);
    await checkScreen(page, 'home-officer');

    await paulCard.getByRole('button', { name: 'Set Volunteer' }).click();
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.roleSetToVolunteer });
    // An officer's Approve asks nothing: the account stays Volunteer.
    await paulCard.getByRole('button', { name: 'Approve' }).click();
    await paulCard.waitFor({ state: 'detached' });
    expect(dialogs.unread()).toEqual([]);
  });

  test('the Reassign modal: No closes it, Yes, Reassign waits for a choice, then the orphan has a volunteer', async () => {
    const { page, dialogs } = await app.visit();
    await signIn(page, app.server, olga);
    const orphan = card(page, 'Orphaned Clients (Needs Reassignment)', 'Carl Client');
    await orphan.getByRole('button', { name: 'Reassign' }).click();
    const modal = page.getByRole('dialog', { name: 'Reassign Client' });
    const picker = modal.getByLabel('New Volunteer');
    await picker.waitFor();
    const yes = modal.getByRole('button', { name: 'Yes, Reassign' });
    expect(await yes.isDisabled()).toBe(true);
    await checkScreen(page, 'reassign-modal');
    await modal.getByRole('button', { name: 'No' }).click();
    await modal.waitFor({ state: 'detached' });
    await orphan.waitFor();

    await orphan.getByRole('button', { name: 'Reassign' }).click();
    await picker.selectOption(vera.email);
    expect(await yes.isEnabled()).toBe(true);
    await yes.click();
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.clientReassigned });
    await modal.waitFor({ state: 'detached' });
    await region(page, 'Orphaned Clients (Needs Reassignment)')
      .getByText('No clients need reassignment.')
      .waitFor();
  });

  test('the admin user page shows each kind of account with the right actions', async () => {
    const { page, dialogs } = await app.visit(/* desktop */ { width: 1280, height: 800 });
    await signIn(page, app.server, admin);
    await seeHeading(page, 'Hello, Ana Admin');

    // Open from the All Users card: the email is URL-encoded in the path.
    await card(page, 'All Users', 'Vera Volunteer').getByRole('link', { name: 'Open' }).click();
    await atPath(page, '/admin/users/vera.volunteer%40example.org');
    await seeHeading(page, 'User • Vera Volunteer');
    await expectFacts(page, vera.email, 'Approved', 'Volunteer');
    await expectButtons(page, ['Make Officer']);
    await checkScreen(page, 'admin-user');
    // A role change asks first, naming the person and the role; Cancel changes nothing.
    dialogs.answerNextConfirm(false);
    await page.getByRole('button', { name: 'Make Officer' }).click();
    expect(await dialogs.next()).toEqual({
      type: 'confirm',
      message: roleChangeConfirm(vera, 'officer'),
    });
    await expectFacts(page, vera.email, 'Approved', 'Volunteer');
    await page.getByRole('button', { name: 'Make Officer' }).click();
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: roleChangeConfirm(vera, 'officer') });
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.roleUpdated });
    await expectFacts(page, vera.email, 'Approved', 'Officer');
    // Make Officer is not offered to an officer.
    await expectButtons(page, ['Set Volunteer']);
    await page.getByRole('button', { name: 'Set Volunteer' }).click();
    expect(await dialogs.next()).toEqual({
      type: 'confirm',
      message: 'Set Vera Volunteer to Volunteer? They will be signed out and must sign in again.',
    });
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.roleSetToVolunteer });
    await expectFacts(page, vera.email, 'Approved', 'Volunteer');

    await page.goto(`/admin/users/${encodeURIComponent(admin.email)}`);
    await seeHeading(page, 'User • Ana Admin');
    await expectFacts(page, admin.email, 'Approved', 'Admin');
    await expectButtons(page, []);

    await page.goto(`/admin/users/${encodeURIComponent(olga.email)}`);
    await expectFacts(page, olga.email, 'Approved', 'Officer');
    await expectButtons(page, ['Set Volunteer']);

    // Approving here asks Officer or Volunteer, like the dashboard.
    await page.goto(`/admin/users/${encodeURIComponent(pia.email)}`);
    await expectFacts(page, pia.email, 'Pending approval', 'Volunteer');
    await expectButtons(page, ['Approve', 'Make Officer']);
    await checkScreen(page, 'admin-user-pending');
    dialogs.answerNextConfirm(true);
    await page.getByRole('button', { name: 'Approve' }).click();
    expect((await dialogs.next()).message).toBe(
      'Make Pia Pending an Officer? Choose Cancel to make them a Volunteer.',
    );
    expect(await dialogs.next()).toEqual({ type: 'alert', message: messages.roleUpdated });
    await expectFacts(page, pia.email, 'Approved', 'Officer');

    await page.goto(`/admin/users/${encodeURIComponent('nobody@example.org')}`);
    await seeHeading(page, messages.userNotFound);
    await checkScreen(page, 'admin-user-not-found');
    await page.getByRole('link', { name: 'Back' }).click();
    await atPath(page, '/home');
  });

  test('the person whose role changed is told so on the login page at their next request', async () => {
    const { page } = await app.visit();
    await signIn(page, app.server, dora);
    await seeHeading(page, /^Hello, Dora/);
    // Her dashboard's own loads (its lists, the passkey offer) end first: one landing after the
    // change would be her next request, told why and dropping the cookie before the reload below.
    await page.waitForLoadState('networkidle');
    const adminApi = await ApiSession.open(app.server);
    await adminApi.signIn(admin);
    await adminApi.call('POST', `/admin/users/${encodeURIComponent(dora.email)}/role`, { role: 'officer' });
    await adminApi.dispose();
    // Her next request ends on the login page, saying why.
    await page.reload();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('alert').getByText(messages.roleChanged).waitFor();
    await checkScreen(page, 'login-role-changed');
    await signIn(page, app.server, dora);
    await seeHeading(page, /^Hello, Dora/);
    expect(await page.getByText(messages.roleChanged).count()).toBe(0);
  });

  test('non-admins are sent to /home; signed-out visitors are asked to sign in', async () => {
    const { page } = await app.visit();
    await page.goto(`/admin/users/${encodeURIComponent(vera.email)}`);
    await seeHeading(page, messages.pleaseSignIn);
    await checkScreen(page, 'admin-user-signed-out');

    await signIn(page, app.server, olga);
    await page.goto(`/admin/users/${encodeURIComponent(vera.email)}`);
    await atPath(page, '/home');
    await seeHeading(page, 'Hello, Olga Officer');
  });

  test('the admin deletes a user and a client: gone at once, back with an alert when the server refuses', async () => {
    const { page, dialogs } = await app.visit({ width: 1280, height: 800 });
    await signIn(page, app.server, admin);
    const danCard = card(page, 'All Users', 'Dan Delete');
    await danCard.getByRole('button', { name: 'Delete User' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete User?' });
    await confirm.getByText(/will not delete the clients they created/).waitFor();
    await checkScreen(page, 'delete-user-modal');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await danCard.waitFor();

    // Hold the server's answer: the card must already be gone while the call is still running.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/users/dan.delete%40example.org', async (route) => {
      await held;
      await route.continue();
    });
    await danCard.getByRole('button', { name: 'Delete User' }).click();
    await confirm.getByRole('button', { name: 'Delete User' }).click();
    await danCard.waitFor({ state: 'detached' });
    release();
    await page.unrouteAll({ behavior: 'wait' });

    // A refused delete puts the card back (the list reloads) and says why.
    await page.route('**/api/admin/users/dora.kept%40example.org', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Server error' }),
      }),
    );
    const doraCard = card(page, 'All Users', 'Dora Kept');
    await doraCard.getByRole('button', { name: 'Delete User' }).click();
    await page
      .getByRole('dialog', { name: 'Delete User?' })
      .getByRole('button', { name: 'Delete User' })
      .click();
    expect(await dialogs.next()).toEqual({ type: 'alert', message: 'Delete failed: Server error' });
    await doraCard.waitFor();
    await page.unrouteAll({ behavior: 'wait' });

    const cleo = card(page, 'All Clients', 'Cleo Client');
    await cleo.getByText(`Created by: ${vera.email}`).waitFor();
    // All Clients has a search box: names without regard to case or accents, ids, emails.
    const search = region(page, 'All Clients').getByLabel('Search clients');
    await search.fill('CLÉO');
    await card(page, 'All Clients', 'Carl Client').waitFor({ state: 'detached' });
    await cleo.waitFor();
    await search.fill(orphanId);
    await card(page, 'All Clients', 'Carl Client').waitFor();
    expect(await cleo.count()).toBe(0);
    await search.fill('');
    await cleo.waitFor();
    await cleo.getByRole('button', { name: 'Delete Client' }).click();
    const clientConfirm = page.getByRole('dialog', { name: 'Delete Client?' });
    await clientConfirm.getByText(/also removes all files for the client/).waitFor();
    await checkScreen(page, 'delete-client-modal');
    await clientConfirm.getByRole('button', { name: 'Delete Client' }).click();
    await cleo.waitFor({ state: 'detached' });

    // After a reload from the server, both stay gone.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await card(page, 'All Users', 'Dora Kept').waitFor();
    expect(await card(page, 'All Users', 'Dan Delete').count()).toBe(0);
    expect(await card(page, 'All Clients', 'Cleo Client').count()).toBe(0);
    expect(dialogs.unread()).toEqual([]);
  });
});

async function expectFacts(page: Page, email: string, status: string, role: string): Promise<void> {
  const facts = page.locator('dl');
  await facts.getByText(status, { exact: true }).waitFor();
  await facts.getByText(role, { exact: true }).waitFor();
  expect(await facts.innerText()).toBe(`Email\n${email}\nStatus\n${status}\nRole\n${role}`);
}

async function expectButtons(page: Page, names: string[]): Promise<void> {
  await page.getByRole('link', { name: 'Back' }).waitFor();
  const shown = await page.getByRole('main').getByRole('button').allInnerTexts();
  expect(shown).toEqual(names);
}
