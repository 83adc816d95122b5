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

/**
 * From now on every request that leaves for another origin than the page's is refused (as with no
 * network) and recorded: what the device does after the page loaded must need nothing from outside.
 */
export async function cutOutside(page: Page): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const outside: string[] = [];
  await page.context().route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin || url.startsWith('blob:') || url.startsWith('data:'))
      return route.continue();
    outside.push(url);
    return route.abort('internetdisconnected');
  });
  return outside;
}
