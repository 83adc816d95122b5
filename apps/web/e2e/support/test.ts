// The journeys' `test`: Playwright's, with the worker's way to start the app. Playwright's own
// `browser` fixture is already one Chromium per worker (launched with playwright.config.ts's
// launchOptions); each test file still starts its own server on its own copy of the migrated
// template database in `test.beforeAll`, because the tests of a file build on that fresh database
// (the first account registered becomes its admin) and a server cannot change database while running.
import { test as base } from '@playwright/test';
import { copyWebDist, startApp } from './app.js';
import type { AppOptions, TestApp } from './app.js';

export { expect } from '@playwright/test';

interface WorkerFixtures {
  /** Starts the real server (fresh database, dev outbox) on the worker's copy of dist/, in the worker's Chromium. */
  startApp: (options?: AppOptions) => Promise<TestApp>;
}

export const test = base.extend<object, WorkerFixtures>({
  startApp: [
    async ({ browser }, provide) => {
      const web = await copyWebDist();
      await provide((options) => startApp(browser, web.dir, options));
      await web.remove();
    },
    { scope: 'worker' },
  ],
});
