// Revoking a client's request link (docs/behaviour.md#requesting-documents-from-a-client): asked first,
// since the client loses the link at once, and said once done.
import { messages } from '@vita-docs/core';
import { person } from './support/api.js';
import type { TestApp, Visitor } from './support/app.js';
import { DESKTOP } from './support/browser.js';
import { seeHeading, signIn } from './support/journeys.js';
import { startWithClient } from './support/seed.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Revoke');

test.describe('a volunteer revokes a request link', () => {
  let app: TestApp;
  let vis: Visitor;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    ({ app, clientId } = await startWithClient(startApp, admin, vera, 'Rosa', async (api, id) => {
      await api.call('POST', `/clients/${id}/link`, {
        categories: ['Banking Info'],
        days: 7,
        language: 'en',
      });
    }));
    vis = await app.visit(DESKTOP);
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('Revoke link asks first; Cancel keeps the link, OK says Link revoked.', async () => {
    const { page, dialogs } = vis;
    await signIn(page, app.server, vera, `/clients/${clientId}/docs`);
    await seeHeading(page, 'Client Documents');
    const panel = page.getByRole('region', { name: 'Request documents from client' });
    const revoke = panel.getByRole('button', { name: 'Revoke link' });

    dialogs.answerNextConfirm(false);
    await revoke.click();
    expect(await dialogs.next()).toEqual({
      type: 'confirm',
      message: 'Revoke this link? The client will no longer be able to use it.',
    });
    await panel.getByText(/^Request sent .*, not opened yet, 0 files back\.$/).waitFor();
    expect(await revoke.isVisible()).toBe(true);

    await revoke.click();
    expect(await dialogs.next()).toEqual({ type: 'confirm', message: messages.revokeLinkConfirm });
    await panel.getByRole('status').getByText('Link revoked.', { exact: true }).waitFor();
    await revoke.waitFor({ state: 'detached' });
    expect(dialogs.unread()).toEqual([]);
  });
});
