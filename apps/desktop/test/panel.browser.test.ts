/**
 * The renderer in Chromium with a bridge backed by main's real handlers, settings and scanner inbox
 * (over HTTP on a local socket instead of Electron IPC): first-run setup, then scans appearing in
 * the inbox panel as a scanner writes them. Skipped where no Chromium is installed.
 */
import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile, removeFolder, tempFolder } from '../src/main/inbox/test-support.js';
import { startBridgeServer, type BridgeServer } from './bridge-server.js';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);

let harness: BridgeServer;
let browser: Browser;
let page: Page;
let userData: string;
let folder: string;

beforeAll(async () => {
  if (!hasChromium) return;
  userData = await tempFolder('vita-user-data-');
  folder = await tempFolder('vita-panel-scans-');
  harness = await startBridgeServer({ userData, folder });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (userData) await removeFolder(userData);
  if (folder) await removeFolder(folder);
});

describe.skipIf(!hasChromium)('scanner inbox panel in Chromium', () => {
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

    await page.getByLabel('Server address').fill('http://127.0.0.1:3000/');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Scanner inbox' }).waitFor();
    await page.getByText(`Watching ${folder}`).waitFor();
    await page.getByText('No scans waiting.').waitFor();
  });

  it('lists scans as they arrive, nested ones and duplicates included', async () => {
    const first = await putFile(folder, 'w2-scan.pdf', 'w2');
    await page.getByText('w2-scan.pdf').waitFor({ timeout: 30_000 });
    await putFile(folder, 'desk 2/1099.jpg', '1099');
    await page.getByText('desk 2/1099.jpg').waitFor({ timeout: 30_000 });
    await copyFile(first, join(folder, 'again.pdf'));
    await page.getByText('Duplicate of w2-scan.pdf').waitFor({ timeout: 30_000 });
    expect(await page.locator('.inbox li').count()).toBe(3);
    await page.screenshot({ path: join(import.meta.dirname, '..', 'test-results', 'inbox-panel.png') });
  });

  it('keeps the settings for the next start', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Scanner inbox' }).waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => page.getByLabel('Server address').inputValue()).toBe('http://127.0.0.1:3000');
  });
});
