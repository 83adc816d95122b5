/**
 * Host services every page needs, the same in a browser tab (apps/web) and in the desktop kiosk's
 * page (apps/desktop): the clock, the connection and the programme link.
 */
import type { Clock, Connectivity } from '@vita-docs/core';

/** Where the landing page's programme link points when nothing else is set: the IRS page on free tax preparation. */
export const DEFAULT_PROGRAMME_URL =
  'https://www.irs.gov/individuals/free-tax-return-preparation-for-qualifying-taxpayers';

/**
 * The programme's website for the landing page (docs/behaviour.md#landing-screen): the page's
 * `vita-programme-url` meta tag (the server writes its PROGRAMME_URL into the web app's page), else
 * `fallback` (a build-time setting), else {@link DEFAULT_PROGRAMME_URL}. The kiosk's own page has no
 * such tag, so it gets the default.
 */
export function readProgrammeUrl(
  fallback?: string,
  page: Pick<ParentNode, 'querySelector'> = document,
): string {
  return (
    page.querySelector<HTMLMetaElement>('meta[name="vita-programme-url"]')?.content ||
    fallback ||
    DEFAULT_PROGRAMME_URL
  );
}

/** Wall-clock time and the window's timers: core's `Clock` port for a page. */
export const browserClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => window.setTimeout(callback, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
};

/**
 * Core's `Connectivity` port for a page: `navigator.onLine` and the window's `online` event. A page
 * that is online may still not reach the server; the upload queue learns that from its requests.
 */
export const browserConnectivity: Connectivity = {
  online: () => navigator.onLine,
  onOnline(listener) {
    window.addEventListener('online', listener);
    return () => window.removeEventListener('online', listener);
  },
};
