import { createApiClient, KEPT_UPLOADS_LIFETIME_HOURS, readCookie } from '@vita-docs/core';
import {
  browserClock,
  browserConnectivity,
  createIndexedDbJournals,
  createStoredRememberedUser,
  readProgrammeUrl,
} from '@vita-docs/ui';
import type { AppServices } from '@vita-docs/ui';
import { browserPlatform } from './browser-platform';

/** The composition root: the API on this origin under /api, the browser's platform, IndexedDB for queued files. */
export function createBrowserServices(): AppServices {
  const api = createApiClient({
    baseUrl: '/api',
    fetch: window.fetch.bind(window),
    getCookie: (name) => readCookie(document.cookie, name),
  });
  return {
    api,
    platform: browserPlatform,
    clock: browserClock,
    sessionStorage: window.sessionStorage,
    localStorage: window.localStorage,
    // The server's PROGRAMME_URL (a meta tag in the page), else VITE_PROGRAMME_URL at build time.
    config: { programmeUrl: readProgrammeUrl(import.meta.env.VITE_PROGRAMME_URL) },
    // Queued files survive a reload, a crash or a closed tab: kept in IndexedDB, sealed under the
    // person's key from the server, which only their live session gets and the page holds in memory.
    uploadJournals: createIndexedDbJournals({
      crypto: window.crypto,
      journalKey: () => api.journalKey(),
      storage: window.localStorage,
      now: () => Date.now(),
      lifetimeMs: KEPT_UPLOADS_LIFETIME_HOURS * 3_600_000,
    }),
    connectivity: browserConnectivity,
    // A file queued in one tab is neither offered nor resumed by another (a lock per file while queued).
    ...('locks' in navigator && { locks: navigator.locks }),
    // With no connection at the start, the last person signed in here (their screens that work offline).
    rememberedUser: createStoredRememberedUser({
      storage: window.localStorage,
      now: () => Date.now(),
      lifetimeMs: KEPT_UPLOADS_LIFETIME_HOURS * 3_600_000,
    }),
  };
}
