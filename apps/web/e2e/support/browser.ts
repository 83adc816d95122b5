import type { Browser, BrowserContext, Page } from '@playwright/test';

/** Generous on a loaded 2-core machine: waits are for events, so only a real failure takes this long. */
export const WAIT_MS = 30_000;

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** How a profile treats the app's service worker (src/sw.ts). */
export interface ProfileOptions {
  /**
   * `block` unless told: the journeys hold what the app does with the server and the browser's own
   * offline switch; the app shell's own journey (uploads-kept.test.ts) lets the worker run.
   */
  serviceWorkers?: 'allow' | 'block';
}

/** A fresh browser profile (own cookies and storage) at `baseURL`, phone-sized by default. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = PHONE,
  { serviceWorkers = 'block' }: ProfileOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport, serviceWorkers });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  const page = await context.newPage();
  return { context, page };
}
