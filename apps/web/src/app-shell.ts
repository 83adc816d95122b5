/**
 * Registers the app shell's service worker (src/sw.ts) in a production build, so the app opens with
 * no connection. Only this entry does: the client's request page and the kiosk never register it.
 */
export function registerAppShell(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    // Without it the app still works online; nothing to tell the person.
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}
