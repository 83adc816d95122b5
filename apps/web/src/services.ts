import { createApiClient, readCookie } from '@vita-docs/core';
import type { AppServices } from '@vita-docs/ui';
import { browserClock, browserPlatform } from './browser-platform';

/**
 * Where the landing page's programme link points: the server's PROGRAMME_URL (it adds a
 * `vita-programme-url` meta tag to the page), else VITE_PROGRAMME_URL at build time, else this.
 */
const DEFAULT_PROGRAMME_URL =
  'https://www.irs.gov/individuals/free-tax-return-preparation-for-qualifying-taxpayers';

/** The composition root: the API on this origin under /api, and the browser's platform. */
export function createBrowserServices(): AppServices {
  return {
    api: createApiClient({
      baseUrl: '/api',
      fetch: window.fetch.bind(window),
      getCookie: (name) => readCookie(document.cookie, name),
    }),
    platform: browserPlatform,
    clock: browserClock,
    sessionStorage: window.sessionStorage,
    localStorage: window.localStorage,
    config: {
      programmeUrl:
        document.querySelector<HTMLMetaElement>('meta[name="vita-programme-url"]')?.content ||
        import.meta.env.VITE_PROGRAMME_URL ||
        DEFAULT_PROGRAMME_URL,
    },
  };
}
