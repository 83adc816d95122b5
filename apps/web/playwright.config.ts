import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '@vita-docs/test-server';

// Browser journeys (e2e/): two workers, each with one Chromium (Playwright's worker-scoped `browser`);
// each test file starts its own server on its own copy of the run's migrated template database
// (e2e/support/test.ts). The files run side by side, the tests of a file in order (they build on
// each other's state). No retries: a test that fails once has found a bug or a race to fix.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.test.ts',
  globalSetup: './e2e/support/global-setup.ts',
  workers: 2,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  // Generous on a loaded 2-core machine: waits are for events, so only a real failure takes this long.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  outputDir: 'test-results/playwright',
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
    // A failed test keeps its trace (actions with their logs, network, console) and a screenshot of
    // each open page. Without DOM snapshots: taking one reads the page's blob: images with fetch,
    // which the app's CSP (connect-src 'self') refuses, and the refusal in the console would fail the
    // journey. Without the screencast: every test records its trace and passing ones throw it away,
    // and the frames (encoded by Chromium, written by the worker) took 8-15 % of the journeys' CPU
    // (98-101 against 110-114 CPU-s on five files); the failure's screenshot and its page snapshot
    // (error-context.md) show the screen where it failed.
    trace: { mode: 'retain-on-failure', snapshots: false, screenshots: false },
    screenshot: 'only-on-failure',
  },
});
