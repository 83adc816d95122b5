import { createApiClient, readCookie } from '@vita-docs/core';
import { browserClock, readProgrammeUrl } from '@vita-docs/ui';
import type { AppServices } from '@vita-docs/ui';
import { browserPlatform } from './browser-platform';

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
    // The server's PROGRAMME_URL (a meta tag in the page), else VITE_PROGRAMME_URL at build time.
    config: { programmeUrl: readProgrammeUrl(import.meta.env.VITE_PROGRAMME_URL) },
  };
}
