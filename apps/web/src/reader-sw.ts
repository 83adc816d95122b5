/// <reference lib="webworker" />
/**
 * The client's request page's service worker (docs/behaviour.md#offline): it keeps only the
 * document reader's files, so a phone reads documents offline after its first reading without
 * downloading them again; the page itself and everything else load as without it, and the staff
 * app is never cached on a client's phone. Workbox does the caching, as in src/sw.ts.
 *
 * It is registered at the reader's two workers' addresses (src/reader-offline.ts), not at /u: a
 * dedicated worker made from a script's address is controlled by the registration that address
 * falls in, not by its page's, so a worker at /u would see none of the reader's fetches.
 */
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { isReaderFile, READER_CACHE } from './reader-files';

declare const self: ServiceWorkerGlobalScope;

void self.skipWaiting();
clientsClaim();

registerRoute(
  ({ url }) => isReaderFile(url, self.location.origin),
  new CacheFirst({ cacheName: READER_CACHE }),
);

// Whatever else the reader's workers load (the reading worker's own code, named by its content) is
// kept too, the last builds' only. In a browser that also has the staff app's worker, these scopes
// are narrower than its own, so the reader's workers come here even in the staff app: with no
// network, a file not kept here is taken from that worker's precache rather than failing.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/assets/'),
  new CacheFirst({
    cacheName: 'vita-reader-code',
    plugins: [
      new ExpirationPlugin({ maxEntries: 20 }),
      { handlerDidError: async ({ request }) => (await caches.match(request)) ?? undefined },
    ],
  }),
);
