const LAST_RELOAD_KEY = 'vita.reloadedForNewBuild';

/**
 * A deploy replaces the hashed files of the build, so a page opened before it can no longer fetch its
 * lazily loaded screens. Vite reports that as `vite:preloadError`; load the new build instead of
 * failing — at most once a minute, so a server that is really down does not cause a reload loop.
 * Never while the browser is offline: the file is missing for want of a connection, and a reload
 * would swap the screen (and what the person was doing) for the browser's error page.
 */
export function reloadOnNewBuild(): void {
  window.addEventListener('vite:preloadError', () => {
    if (!navigator.onLine) return;
    const last = Number(window.sessionStorage.getItem(LAST_RELOAD_KEY) ?? 0);
    if (Date.now() - last < 60_000) return;
    window.sessionStorage.setItem(LAST_RELOAD_KEY, String(Date.now()));
    window.location.reload();
  });
}
