/**
 * The desktop renderer (the shared screens plus the scanner inbox) in Chromium, with a bridge backed
 * by main's real handlers, settings, scanner inbox and server transport — over HTTP on a local socket
 * instead of Electron IPC — against the real server (`@vita-docs/test-server`). Skipped where no
 * Chromium is installed.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { axeViolations } from '@vita-docs/test-server/axe';
import JSZip from 'jszip';
import type { ApiClient } from '@vita-docs/core';
import { chromiumLaunchOptions, type TestServer } from '@vita-docs/test-server';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile, removeFolder, tempFolder, testPdf } from '../src/main/inbox/test-support.js';
import { startBridgeServer, type BridgeServer } from './bridge-server.js';
import { EMAIL, PIN, startDeskServer } from './desk-server.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const hasChromium = existsSync(chromiumLaunchOptions().executablePath);

/** A tiny PDF; the title makes each one's bytes (and sha256) its own. */
const pdf = (title: string) =>
  `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n3 0 obj<</Title(${title})>>endobj\ntrailer<</Root 1 0 R/Info 3 0 R>>\n%%EOF\n`;

let server: TestServer;
let api: ApiClient;
let clientId: string;
let harness: BridgeServer;
let browser: Browser;
let page: Page;
let userData: string;
let folder: string;
let dropFolder: string;

beforeAll(async () => {
  if (!hasChromium) return;
  ({ server, api, clientId } = await startDeskServer());

  userData = await tempFolder('vita-user-data-');
  folder = await tempFolder('vita-panel-scans-');
  dropFolder = await tempFolder('vita-panel-drop-');
  // A damaged scan is listed after 3 s here (60 s on a desk).
  harness = await startBridgeServer({ userData, folder, dropFolder, inbox: { damagedAfterMs: 3000 } });
  browser = await chromium.launch(chromiumLaunchOptions());
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  // The screens show failures with window.alert; record them instead of blocking.
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
}, 180_000);

const alerts: string[] = [];

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  await server?.stop({ keepData: false });
  for (const dir of [userData, folder, dropFolder]) if (dir) await removeFolder(dir);
});

const listed = async (docType: string) =>
  (await api.listDocs({ params: { id: clientId }, query: { docType } })).items
    .map((item) => item.filename)
    .sort();

const inboxPanel = () => page.getByRole('region', { name: 'Scanner inbox' });
const scanRow = (name: string) => inboxPanel().getByRole('listitem', { name });

describe.skipIf(!hasChromium)('desktop renderer in Chromium against the real server', () => {
  it('sets up the desk on first run, refusing a bad server address', async () => {
    await page.goto(harness.url);
    await page.getByRole('heading', { name: 'Set up this intake desk' }).waitFor();

    await page.getByLabel('Server address').fill('ftp://nope');
    await page.getByRole('button', { name: 'Browse…' }).click();
    await expect.poll(() => page.getByLabel('Scanner folder').inputValue()).toBe(folder);
    // The form's own check would stop ftp:// in a browser; main's schema must stop it too.
    await page.evaluate("document.querySelector('form').setAttribute('novalidate', '')");
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'https://' }).waitFor();

    await page.getByLabel('Server address').fill(server.url);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`Server: ${new URL(server.url).host}`).waitFor();
  });

  it('lets nobody but a signed-in admin change the settings once the desk is set up', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Desk settings' }).waitFor();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Only an admin can change the desk settings. Sign in as an admin first.' })
      .waitFor();
    expect(await page.getByLabel('Server address').count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: 'Login' }).first().waitFor();
  });

  it('shows the shared screens against the configured server: sign in with the emailed code', async () => {
    await page.getByRole('link', { name: 'Login' }).first().click();
    // The server's host name is on the sign-in screen, before anyone types a PIN.
    await page.getByLabel('Password PIN').waitFor();
    const bar = page.locator('.desk-bar__server');
    expect(await bar.isVisible()).toBe(true);
    expect(await bar.textContent()).toBe(`Server: ${new URL(server.url).host}`);
    const after = Date.now() - 1000;
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password PIN').fill(PIN);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByLabel('6-digit code').fill(await server.latestCode(EMAIL, { after, timeoutMs: 30_000 }));
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/home');
    await page.goto(`${harness.url}/#/clients/${clientId}/docs/W-2`);
    await page.getByRole('heading', { name: 'W-2', level: 1 }).waitFor();
    await inboxPanel().getByText('No scans waiting.').waitFor();
  });

  it('a scan saved into the folder appears, joins the queue, uploads, is listed on the server and moves to uploaded/', async () => {
    await putFile(folder, 'w2-scan.pdf');
    await putFile(folder, 'desk 2/w2-page2.pdf');
    await scanRow('w2-scan.pdf').waitFor({ timeout: 30_000 });
    await scanRow('desk 2/w2-page2.pdf').waitFor({ timeout: 30_000 });
    await copyFile(join(folder, 'w2-scan.pdf'), join(folder, 'again.pdf'));
    await scanRow('again.pdf').getByText('Duplicate of w2-scan.pdf').waitFor({ timeout: 30_000 });

    const violations = await axeViolations(page, ['.scanner-inbox']);
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    // Add all leaves the duplicate in the inbox.
    await inboxPanel().getByRole('button', { name: 'Add all to queue' }).click();
    const queue = page.getByRole('list', { name: 'Queued files' });
    await queue.getByText('w2-scan.pdf').waitFor();
    await queue.getByText('w2-page2.pdf').waitFor();
    await scanRow('w2-scan.pdf').getByText('In queue').waitFor();
    expect(await queue.getByRole('listitem').count()).toBe(2);

    await page.getByRole('button', { name: 'Upload (2)' }).click();
    await scanRow('w2-scan.pdf').waitFor({ state: 'detached', timeout: 30_000 });
    await scanRow('desk 2/w2-page2.pdf').waitFor({ state: 'detached', timeout: 30_000 });
    expect(await listed('W-2')).toEqual(['w2-page2.pdf', 'w2-scan.pdf']);
    await page
      .getByRole('region', { name: 'Uploaded' })
      .getByRole('listitem', { name: 'w2-scan.pdf' })
      .waitFor();
    await expect
      .poll(() => readdir(join(folder, 'uploaded')).then((names) => names.sort()))
      .toEqual(['desk 2', 'w2-scan.pdf']);
    expect(await readdir(join(folder, 'uploaded', 'desk 2'))).toEqual(['w2-page2.pdf']);
    // The duplicate still waits, now flagged against an uploaded scan.
    await scanRow('again.pdf').getByText('Duplicate of w2-scan.pdf (uploaded)').waitFor();
  }, 120_000);

  it('the season archive is saved where the admin chooses, streamed by main (the page cannot follow a link to the server)', async () => {
    await page.goto(`${harness.url}/#/admin/season`);
    await page.getByRole('button', { name: 'Download all documents (ZIP)' }).click();
    const status = page.getByRole('status').filter({ hasText: /^Saved to / });
    await status.waitFor({ timeout: 30_000 });
    const path = (await status.textContent())!.replace(/^Saved to /, '').replace(/\.$/, '');
    expect(path).toBe(join(userData, path.split('/').at(-1)!));
    const zip = await JSZip.loadAsync(await readFile(path));
    const names = Object.keys(zip.files).filter((name) => !zip.files[name]!.dir);
    expect(names.map((name) => name.split('/').slice(1).join('/')).sort()).toEqual([
      'W-2/w2-page2.pdf',
      'W-2/w2-scan.pdf',
    ]);
    await page.goto(`${harness.url}/#/clients/${clientId}/docs/W-2`);
    await page.getByRole('heading', { name: 'W-2', level: 1 }).waitFor();
  }, 60_000);

  it('a failing upload leaves the scan in the inbox with the error, its file untouched', async () => {
    // AVIF bytes named .heic: whole to the desk (an ISO-BMFF image with its header), a type the server refuses.
    await writeFile(
      join(folder, 'not-really.heic'),
      Buffer.from('\0\0\0\x18ftypavif\0\0\0\0mif1avif', 'latin1'),
    );
    await scanRow('not-really.heic').waitFor({ timeout: 30_000 });
    await scanRow('not-really.heic').getByRole('checkbox').check();
    await inboxPanel().getByRole('button', { name: 'Add selected to queue (1)' }).click();
    await page.getByRole('list', { name: 'Queued files' }).getByText('not-really.heic').waitFor();
    await page.getByRole('button', { name: 'Upload (1)' }).click();
    await scanRow('not-really.heic')
      .getByText(/Upload failed/)
      .waitFor({ timeout: 30_000 });
    expect(alerts.some((message) => message.startsWith('Upload failed'))).toBe(true);
    expect(await readdir(folder)).toContain('not-really.heic');
    expect(await listed('W-2')).not.toContain('not-really.heic');
    const violations = await axeViolations(page, ['.scanner-inbox']);
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  }, 120_000);

  it('a dropped folder queues every supported file inside it, recursively', async () => {
    await mkdir(join(dropFolder, 'client box', 'inner'), { recursive: true });
    await writeFile(join(dropFolder, 'client box', 'a.pdf'), pdf('dropped a'));
    await writeFile(join(dropFolder, 'client box', 'inner', 'b.pdf'), pdf('dropped b'));
    await writeFile(join(dropFolder, 'client box', 'notes.txt'), 'not a document');
    // What Chromium hands the page for a dropped folder: a File named after it (Electron's preload
    // turns it into a path; the harness does the same inside its drop folder).
    await page.evaluate(`{
      const data = new DataTransfer();
      data.items.add(new File([], 'client box'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, cancelable: true }));
    }`);
    const queue = page.getByRole('list', { name: 'Queued files' });
    await queue.getByText('a.pdf', { exact: true }).waitFor();
    await queue.getByText('b.pdf', { exact: true }).waitFor();
    expect(await queue.getByText('notes.txt').count()).toBe(0);
  }, 60_000);

  it('files dropped at the desk are kept on its disk: a reload offers them back, scans are not offered, Resume stores each once', async () => {
    // The two dropped files above wait in the queue (not uploaded); the refused scan waits too.
    await expect
      .poll(
        async () =>
          (await readdir(join(userData, 'kept-uploads'), { recursive: true })).filter((n) =>
            n.endsWith('.bin'),
          ).length,
      )
      .toBe(2);
    await page.reload();
    const offer = page.getByRole('region', { name: 'Files waiting to upload' });
    await offer.getByText('You have 2 files waiting to upload.').waitFor({ timeout: 30_000 });
    await offer.getByRole('button', { name: 'Resume' }).click();
    await expect
      .poll(() => listed('W-2'), { timeout: 30_000 })
      .toEqual(['a.pdf', 'b.pdf', 'w2-page2.pdf', 'w2-scan.pdf']);
    await expect
      .poll(
        async () =>
          (await readdir(join(userData, 'kept-uploads'), { recursive: true })).filter((n) =>
            n.endsWith('.bin'),
          ).length,
      )
      .toBe(0);
    // The refused scan is still in the inbox (its ledger keeps it), not in the offer.
    await page.goto(`${harness.url}/#/clients/${clientId}/docs/W-2`);
    await scanRow('not-really.heic').waitFor({ timeout: 30_000 });
  }, 120_000);

  it('the desk bar says what the folder does, lists a damaged scan and a duplicate to dismiss, and a folder gone', async () => {
    const status = page.locator('.desk-bar').getByRole('status');
    await expect
      .poll(() => status.textContent())
      .toMatch(new RegExp(`^Watching ${escape(folder)} · \\d+ scans? waiting · last scan `));
    const notices = page.getByRole('region', { name: 'Scans to look at' });
    // again.pdf repeats w2-scan.pdf, uploaded above.
    await notices
      .getByRole('listitem', { name: 'again.pdf' })
      .getByText('Same file as w2-scan.pdf, uploaded already.')
      .waitFor();
    await writeFile(join(folder, 'cut.pdf'), (await testPdf('cut')).subarray(0, 300));
    const cut = notices.getByRole('listitem', { name: 'cut.pdf' });
    await cut.getByText('This scan could not be read. Scan it again.').waitFor({ timeout: 30_000 });
    const violations = await axeViolations(page, ['.desk-bar', '.desk-notices']);
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await cut.getByRole('button', { name: 'Dismiss' }).click();
    await notices
      .getByRole('listitem', { name: 'again.pdf' })
      .getByRole('button', { name: 'Dismiss' })
      .click();
    await notices.waitFor({ state: 'detached' });
    expect(await readdir(folder)).toEqual(expect.arrayContaining(['cut.pdf', 'again.pdf']));

    await rename(folder, `${folder}-away`);
    await expect
      .poll(() => status.textContent(), { timeout: 30_000 })
      .toBe('The scanner folder is not reachable.');
    await rename(`${folder}-away`, folder);
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^Watching /);
  }, 120_000);

  it('keeps the settings for the next start, and lets the admin signed in above change them', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => page.getByLabel('Server address').inputValue()).toBe(server.url);
    await page.getByLabel('Delete it').check();
    // The mode in use, and an admin forcing Poll (a share the desk cannot recognise).
    await page.getByText('In use: Watch (file-system events)').waitFor();
    await page.getByLabel('Poll every 2 seconds').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`Server: ${new URL(server.url).host}`).waitFor();
    expect(JSON.parse(await readFile(join(userData, 'settings.json'), 'utf8'))).toMatchObject({
      serverUrl: server.url,
      afterUpload: 'delete',
      folderMode: 'poll',
      problemScans: 'list',
    });
    await page.locator('.desk-bar').getByText(`Polling ${folder} every 2 s`, { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByText('In use: Poll').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('shows managed settings read-only, with the file they come from', async () => {
    const managedDir = await tempFolder('vita-panel-managed-');
    const managedFolder = await tempFolder('vita-panel-managed-scans-');
    const managedFile = join(managedDir, 'desk.json');
    await writeFile(managedFile, JSON.stringify({ serverUrl: server.url, watchedFolder: managedFolder }));
    const managed = await startBridgeServer({
      userData: join(managedDir, 'user data'),
      folder: managedFolder,
      managedSettingsFile: managedFile,
    });
    const managedPage = await page.context().newPage();
    try {
      await managedPage.goto(managed.url);
      await managedPage.getByText(`Server: ${new URL(server.url).host}`).waitFor();
      await managedPage.getByRole('button', { name: 'Settings' }).click();
      await managedPage.getByText("These settings are managed by this computer's administrator.").waitFor();
      await managedPage.getByText(managedFile).waitFor();
      await managedPage.getByText(managedFolder).waitFor();
      expect(await managedPage.getByRole('button', { name: 'Save' }).count()).toBe(0);
      expect(await managedPage.getByLabel('Server address').count()).toBe(0);
      await managedPage.getByRole('button', { name: 'Cancel' }).click();
      await managedPage.getByRole('button', { name: 'Settings' }).waitFor();
    } finally {
      await managedPage.close();
      await managed.close();
      await removeFolder(managedDir);
      await removeFolder(managedFolder);
    }
  }, 60_000);
});
