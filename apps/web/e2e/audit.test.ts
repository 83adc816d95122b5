// The admin's audit and settings screens (docs/behaviour.md#audit-screen,
// docs/behaviour.md#settings-screen): reached from the dashboard; the audit log filtered by who,
// client, action and day, paged with Load more, exported as CSV — every row from GET /api/admin/audit;
// the retention rule set and recorded.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import {
  documentsDeletedOnText,
  markSubmittedConfirm,
  retentionReachText,
  submittedOnText,
} from '@vita-docs/core';
import { ApiSession, person, seedPeople } from './support/api.js';
import type { TestApp } from './support/app.js';
import { DESKTOP } from './support/browser.js';
import type { DialogLog } from './support/dialogs.js';
import { categoryScreen, expectFiles, pdfFixture } from './support/documents.js';
import { checkScreen } from './support/screens.js';
import { seeHeading, signIn } from './support/journeys.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const DAY = 86_400_000;
const vera = person('Vera', 'Audit');

test.describe('the audit screen', () => {
  test.describe.configure({ mode: 'serial' });
  let app: TestApp;
  let page: Page;
  let dialogs: DialogLog;
  let clientId = '';

  test.beforeAll(async ({ startApp }) => {
    app = await startApp();
    const adminApi = await seedPeople(app.server, admin, [{ person: vera }]);
    const api = await ApiSession.open(app.server);
    await api.signIn(vera);
    // A client whose name a spreadsheet would run as a formula, deleted by the admin (the audit
    // entry's detail names it).
    const { client: evil } = await api.call<{ client: { clientId: string } }>('POST', '/clients/new', {
      firstName: '=SUM(1,2)',
      lastName: 'Evil',
      email: 'evil@client.example.org',
      phone: '555-0100',
    });
    await adminApi.call('POST', '/admin/clients/delete', {
      clientId: evil.clientId,
      createdBy: vera.email.toLowerCase(),
      clientEmail: 'evil@client.example.org',
    });
    await adminApi.dispose();
    // A client, and 60 entries more: a document type added and deleted again and again.
    clientId = (await api.createClient('Dora', 'Client')).clientId;
    for (let i = 0; i < 30; i++) {
      const { docType } = await api.call<{ docType: string }>('POST', `/clients/${clientId}/docs/types`, {
        template: 'W-2',
        note: `copy ${i}`,
      });
      await api.call('DELETE', `/clients/${clientId}/docs/types?docType=${encodeURIComponent(docType)}`);
    }
    await api.dispose();
    ({ page, dialogs } = await app.visit(DESKTOP));
    await signIn(page, app.server, admin);
    await seeHeading(page, /^Hello, Amy/);
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('the admin’s dashboard shows the programme overview', async () => {
    const overview = page.getByRole('region', { name: 'Programme overview' });
    await overview.getByText('Clients this season').waitFor();
    // Dora (no files yet: all five categories missing); the deleted client is gone.
    expect(await overview.locator('dd').allTextContents()).toEqual(['1', '0']);
    await overview.getByRole('img', { name: 'Documents uploaded per day, last 30 days: none.' }).waitFor();
    const row = overview.getByRole('row', { name: new RegExp(vera.email.toLowerCase().replace('.', '\\.')) });
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      `Vera Audit (${vera.email.toLowerCase()})`,
      '1',
      '0',
      '5',
    ]);
    await checkScreen(page, 'dashboard-admin-overview');
  });

  test('is linked from the admin’s dashboard and lists the newest entries first', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    await seeHeading(page, 'Audit log');
    const rows = page.getByRole('region', { name: 'Audit entries' }).getByRole('row');
    await rows.nth(1).waitFor();
    const actions = await rows.locator('td:nth-child(3)').allTextContents();
    // The newest: the last document type deleted, after the one added just before.
    expect(actions.slice(0, 2)).toEqual(['Deleted a document type', 'Added a document type']);
    await checkScreen(page, 'audit-log');
  });

  test('filters by who and by action, and pages with Load more', async () => {
    const form = page.getByRole('form', { name: 'Filter the audit log' });
    await form.getByLabel('User email').fill(vera.email);
    await form.getByRole('button', { name: 'Apply' }).click();
    const table = page.getByRole('region', { name: 'Audit entries' });
    await expect
      .poll(async () => new Set(await table.locator('td:nth-child(2)').allTextContents()))
      .toEqual(new Set([vera.email.toLowerCase()]));

    await form.getByLabel('Action').selectOption({ label: 'Created a client' });
    // One field finds the client by name (any case, any accents) or by id; its name shows beside the id.
    for (const text of ['dora client', 'Dóra', clientId]) {
      await form.getByLabel('Client name or ID').fill(text);
      await form.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
      await expect
        .poll(() => table.locator('td:nth-child(4)').allTextContents())
        .toEqual([`Dora Client ${clientId}`]);
    }
    // Emails and ids are never broken mid-word.
    expect(
      await table
        .locator('td:nth-child(2), td:nth-child(4) .audit-table__id')
        .evaluateAll((cells) => cells.every((c) => getComputedStyle(c).whiteSpace === 'nowrap')),
    ).toBe(true);

    await form.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThan(50);
    const ids = await table
      .locator('time')
      .evaluateAll((times) => times.map((t) => Date.parse(t.getAttribute('datetime') ?? '')));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  test('a day with nothing in it says so', async () => {
    const form = page.getByRole('form', { name: 'Filter the audit log' });
    await form.getByLabel('From').fill('2020-01-01');
    await form.getByLabel('To').fill('2020-01-31');
    await form.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No entries match.').waitFor();
    await form.getByRole('button', { name: 'Clear' }).click();
  });

  test('exports the filtered entries as CSV, with formulas escaped', async () => {
    const form = page.getByRole('form', { name: 'Filter the audit log' });
    const exportCsv = async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = await readFile(await download.path(), 'utf8');
      // A UTF-8 byte order mark first, so Excel reads the names right.
      expect(text.charCodeAt(0)).toBe(0xfeff);
      return text.slice(1).trimEnd().split('\r\n');
    };
    await form.getByLabel('User email').fill(vera.email);
    await form.getByRole('button', { name: 'Apply' }).click();
    const byVera = await exportCsv();
    expect(byVera[0]).toBe('Time,Who,Action,Action code,Client,Client name,Files,IP,Detail');
    expect(byVera.slice(1).every((line) => line.includes(`,${vera.email.toLowerCase()},`))).toBe(true);
    expect(byVera.filter((line) => line.includes(',doctype.add,'))).toHaveLength(30);

    await form.getByLabel('User email').fill('');
    await form.getByLabel('Action').selectOption({ label: 'Deleted a client' });
    await form.getByRole('button', { name: 'Apply' }).click();
    const deletes = await exportCsv();
    expect(deletes).toHaveLength(2);
    // The client's name opens in a spreadsheet as text, not as a formula.
    expect(deletes[1]).toMatch(/,"'=SUM\(1,2\) Evil <[^>]+>"$/);
    await form.getByRole('button', { name: 'Clear' }).click();
  });

  test('Settings sets the retention rule, which the audit log records', async () => {
    await page.goto('/home');
    await page.getByRole('link', { name: 'Settings' }).click();
    await seeHeading(page, 'Settings');
    const form = page.getByRole('form', { name: 'Retention' });
    const on = form.getByLabel('Delete a client’s documents after the client was submitted');
    const days = form.getByLabel('Days after submission');
    expect(await on.isChecked()).toBe(false);
    expect(await days.isDisabled()).toBe(true);
    await on.check();
    await days.fill('30');
    await checkScreen(page, 'settings');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('status').getByText('Saved.').waitFor();
    const res = await page.request.get('/api/admin/retention');
    expect(await res.json()).toEqual({ days: 30, clients: 0, nextDeletionOn: null });
    await page.getByText(retentionReachText(0, null)).waitFor();

    // The passkey rule is saved as it is ticked, and put back here so the next sign-ins need none.
    const passkeys = page.getByRole('form', { name: 'Passkeys' });
    const rule = passkeys.getByLabel('Require passkeys for admins and officers');
    await rule.check();
    await passkeys.getByRole('status').getByText('Saved.').waitFor();
    expect(await (await page.request.get('/api/admin/passkey-policy')).json()).toEqual({
      requireForStaff: true,
    });
    await rule.uncheck();
    await expect
      .poll(async () => (await page.request.get('/api/admin/passkey-policy')).json())
      .toEqual({
        requireForStaff: false,
      });
    await page.reload();
    await seeHeading(page, 'Settings');
    expect(await page.getByLabel('Days after submission').inputValue()).toBe('30');
    await page.goto('/admin/audit');
    await page
      .getByRole('region', { name: 'Audit entries' })
      .getByText('Changed the retention rule')
      .first()
      .waitFor();
  });

  test('a client marked as submitted shows when its documents go, and can be undone; Settings counts it', async () => {
    await page.goto(`/clients/${clientId}/docs/Banking%20Info`);
    const screen = categoryScreen(page);
    await screen.uploadFiles.setInputFiles([await pdfFixture('statement.pdf')]);
    await screen.queued('statement.pdf').getByText('Not uploaded yet').waitFor();
    await screen.uploadButton.click();
    await expectFiles(page, ['statement.pdf']);

    await page.goto(`/clients/${clientId}/docs`);
    const line = page.getByRole('region', { name: 'Submission' });
    const mark = line.getByRole('button', { name: 'Mark as submitted' });
    // The confirm says what it means; Cancel changes nothing.
    dialogs.answerNextConfirm(false);
    await mark.click();
    expect(await dialogs.next()).toEqual({
      type: 'confirm',
      message: markSubmittedConfirm('Dora Client', 30),
    });
    await mark.click();
    expect((await dialogs.next()).message).toBe(markSubmittedConfirm('Dora Client', 30));
    const now = Date.now();
    await line.getByText(submittedOnText(new Date(now).toISOString())).waitFor();
    const deleteOn = new Date(now - (now % DAY) + 30 * DAY).toISOString();
    await line.getByText(documentsDeletedOnText(deleteOn)).waitFor();
    await checkScreen(page, 'client-docs-submitted');

    await page.goto('/admin/settings');
    await page.getByText(retentionReachText(1, deleteOn)).waitFor();

    await page.goto(`/clients/${clientId}/docs`);
    await line.getByRole('button', { name: 'Undo submitted' }).click();
    await mark.waitFor();
    expect(await line.getByText(/^Submitted on/).count()).toBe(0);
    await page.goto('/admin/settings');
    await page.getByText(retentionReachText(0, null)).waitFor();
  });

  test('is for admins only: a volunteer is sent home', async () => {
    const visitor = await app.visit(DESKTOP);
    await signIn(visitor.page, app.server, vera);
    await seeHeading(visitor.page, /^Hello, Vera/);
    expect(await visitor.page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    expect(await visitor.page.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await visitor.page.goto('/admin/audit');
    await seeHeading(visitor.page, /^Hello, Vera/);
    await visitor.close();
  });
});
