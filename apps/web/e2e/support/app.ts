import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { freePort, startTestServer } from '@vita-docs/test-server';
import type { TestServer } from '@vita-docs/test-server';
import { newPage, PHONE } from './browser.js';
import type { ProfileOptions } from './browser.js';
import { DialogLog } from './dialogs.js';

const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

/** One person at one browser: a page, the dialogs it showed, and any script error it raised. */
export interface Visitor {
  page: Page;
  context: BrowserContext;
  dialogs: DialogLog;
  /**
   * Uncaught script errors and console errors (a CSP violation, a React warning);
   * {@link TestApp.stop} fails the test file if any happened.
   */
  errors: string[];
  close(): Promise<void>;
}

/** The real server (fresh database, dev outbox) serving the built web app, visited with the worker's Chromium. */
export interface TestApp {
  server: TestServer;
  browser: Browser;
  /** A new browser profile on the app; phone-sized unless told otherwise. */
  visit(viewport?: { width: number; height: number }, options?: ProfileOptions): Promise<Visitor>;
  /** Stops the server and drops its database; closes the profiles it opened (the browser is the worker's). */
  stop(): Promise<void>;
}

/** How {@link startApp} sets the server up. */
export interface AppOptions {
  /**
   * Serve the app at `http://localhost:<port>` with that as `PUBLIC_URL` (passkeys need a domain as
   * relying party id, and a browser refuses an IP address for it; localhost is a secure context).
   */
  localhost?: boolean;
}

/**
 * A copy of the built app for one worker's servers: a rebuild of dist/ while the journeys run
 * (another package's test, a developer) would otherwise swap the hashed chunks under the open pages.
 */
export async function copyWebDist(): Promise<{ dir: string; remove(): Promise<void> }> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(
      'apps/web/dist is missing: run `pnpm --filter @vita-docs/web build` first (`npm test` does).',
    );
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vita-web-'));
  await cp(webDist, dir, { recursive: true });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Starts a server on a fresh copy of the template database, serving `webCopy`; pages open in `browser`. */
export async function startApp(
  browser: Browser,
  webCopy: string,
  options: AppOptions = {},
): Promise<TestApp> {
  const port = options.localhost ? await freePort() : undefined;
  const publicUrl = port ? `http://localhost:${port}` : undefined;
  const server = await startTestServer({
    env: { WEB_DIST: webCopy, ...(publicUrl && { PUBLIC_URL: publicUrl }) },
    port,
  });
  const visitors: Visitor[] = [];
  return {
    server,
    browser,
    async visit(viewport = PHONE, options = {}) {
      const { context, page } = await newPage(browser, publicUrl ?? server.url, viewport, options);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.stack ?? error.message));
      page.on('console', (message) => {
        // Chromium logs every 4xx answer (401 from GET /api/me when signed out, a refused action);
        // those are expected and asserted by the tests through what the page shows.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
          errors.push(`console: ${message.text()}`);
        }
      });
      const visitor: Visitor = {
        page,
        context,
        dialogs: new DialogLog(page),
        errors,
        close: () => context.close(),
      };
      visitors.push(visitor);
      return visitor;
    },
    async stop() {
      const errors = visitors.flatMap((v) => v.errors);
      await Promise.all(visitors.map((v) => v.close()));
      await server.stop({ keepData: false });
      if (errors.length) throw new Error(`Errors in the page:\n${errors.join('\n')}`);
    },
  };
}
