/**
 * Registers the reader's service worker (src/reader-sw.ts) from the client's request page in a
 * production build, so the reader's files are kept on the client's phone after its first reading.
 */

/**
 * Where it is registered: the addresses of the reader's two workers (tesseract.js's under /ocr/, and
 * the reading worker the build names `assets/reading-worker-<hash>.js`). A worker's fetches go to the
 * registration its own address falls in, so these, not /u, are what must be covered; the page itself
 * stays uncontrolled and loads as without a service worker.
 */
const READER_SCOPES = ['/ocr/', '/assets/reading-worker'];

export function registerReaderOffline(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    // Without it the page still reads online; nothing to tell the client.
    for (const scope of READER_SCOPES)
      navigator.serviceWorker.register('/reader-sw.js', { scope }).catch(() => undefined);
  });
}
