/// <reference lib="webworker" />
/**
 * The app shell's service worker (docs/behaviour.md#offline): the built app's own files are
 * precached so the app opens with no connection; app pages come from the network first, and the
 * last one seen only when there is none. Nothing else is touched: API answers, documents,
 * thumbnails and the storage's presigned URLs never pass through here or into a cache.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { isReaderFile, READER_CACHE } from './reader-files';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

// A new build takes over at once: its files replace the old ones and the next navigation loads it
// (a page still running the old build reloads when a file it needs is gone: reload-on-new-build.ts).
void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

/** A top-level page of the staff app (not the API's, not the client's document-request page). */
const isAppPage = (request: Request, url: URL) =>
  request.mode === 'navigate' &&
  request.destination === 'document' &&
  url.origin === self.location.origin &&
  !url.pathname.startsWith('/api/') &&
  url.pathname !== '/u';

/**
 * The page as kept: without the first paint the server put in it for its own address (the landing's),
 * since the page kept is opened offline at any address.
 */
async function withoutFirstPaint({ response }: { response: Response }): Promise<Response | null> {
  if (!response.ok) return null;
  const html = (await response.clone().text()).replace(
    /<div id="root">[\s\S]*<\/div>(\s*<\/body>)/,
    '<div id="root"></div>$1',
  );
  const headers = new Headers(response.headers);
  // The body is now this text, as it is: neither its old length nor its transfer encoding applies.
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(html, { status: response.status, headers });
}

// The page as the server sends it (with its run-time settings) is kept under one key, so whichever
// app address is opened offline gets the last page seen.
registerRoute(
  ({ request, url }) => isAppPage(request, url),
  new NetworkFirst({
    cacheName: 'vita-app-page',
    networkTimeoutSeconds: 5,
    plugins: [{ cacheKeyWillBeUsed: async () => '/', cacheWillUpdate: withoutFirstPaint }],
  }),
);

// The document reader's files (src/reader-files.ts; the precache leaves them out): fetched the first
// time a document is read, then kept, so reading works offline.
registerRoute(
  ({ url }) => isReaderFile(url, self.location.origin),
  new CacheFirst({ cacheName: READER_CACHE }),
);
