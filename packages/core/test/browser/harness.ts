/**
 * Real Chromium for the converter tests and the benchmark: the test page is bundled with Vite like an
 * app would bundle core, served on localhost with in-memory fixtures, and driven with playwright-core.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { chromiumLaunchOptions } from '@vita-docs/test-server';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

export interface BrowserHarness {
  page: Page;
  /** Files the page can fetch at `/fixtures/<name>`. */
  fixtures: Map<string, Uint8Array>;
  close(): Promise<void>;
}

/** Bundles the page, serves it, opens it in Chromium and waits until it is ready. */
export async function startBrowserHarness(): Promise<BrowserHarness> {
  const outDir = await mkdtemp(join(tmpdir(), 'vita-core-page-'));
  await build({
    root: join(import.meta.dirname, '..', 'browser-page'),
    configFile: false,
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, minify: false, target: 'es2022' },
    worker: { format: 'es' },
  });

  const fixtures = new Map<string, Uint8Array>();
  const server = createServer((request, response) => {
    void (async () => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
      if (path.startsWith('/fixtures/')) {
        const bytes = fixtures.get(path.slice('/fixtures/'.length));
        response.writeHead(bytes ? 200 : 404, { 'content-type': 'application/octet-stream' });
        response.end(bytes);
        return;
      }
      const file = normalize(join(outDir, path === '/' ? 'index.html' : path));
      try {
        if (!file.startsWith(outDir)) throw new Error('outside');
        const body = await readFile(file);
        response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        response.end(body);
      } catch {
        response.writeHead(404).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  let browser: Browser | undefined;
  try {
    browser = await chromium.launch(chromiumLaunchOptions());
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${port}/`);
    await page
      .waitForFunction(() => document.title === 'ready', undefined, { timeout: 20_000 })
      .catch(() => {
        throw new Error(`The test page did not start: ${errors.join('; ') || 'no error reported'}`);
      });
    const opened = browser;
    return {
      page,
      fixtures,
      async close() {
        await opened.close();
        await new Promise((resolve) => server.close(resolve));
        await rm(outDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close();
    server.close();
    await rm(outDir, { recursive: true, force: true });
    throw error;
  }
}
