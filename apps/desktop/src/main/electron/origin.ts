/** Which URLs belong to the app. Every navigation and IPC check goes through here. */

/** The custom scheme the packaged renderer is served from: `app://vita/…`. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'vita';

/** The renderer's origin: the app scheme, or the dev server's origin while developing. */
export function appOrigin(devUrl: string | undefined): string {
  return devUrl ? new URL(devUrl).origin : `${APP_SCHEME}://${APP_HOST}`;
}

/**
 * True when `url` is on the app's own origin (anything unparsable is not). Scheme and host are
 * compared rather than `URL.origin`: Node's URL gives every custom scheme the origin "null", so
 * comparing origins would match any `app:`-like URL or none at all.
 */
export function isAppUrl(url: string, origin: string): boolean {
  try {
    const candidate = new URL(url);
    const own = new URL(origin);
    return (
      candidate.protocol === own.protocol &&
      candidate.host === own.host &&
      !candidate.username &&
      !candidate.password
    );
  } catch {
    return false;
  }
}

/**
 * True when `url` may be handed to the system browser: an https URL whose origin is on the
 * allow-list (empty by default: a kiosk opens nothing outside itself).
 */
export function isAllowedExternal(url: string, allowed: readonly string[]): boolean {
  try {
    const candidate = new URL(url);
    return (
      candidate.protocol === 'https:' &&
      !candidate.username &&
      !candidate.password &&
      allowed.includes(candidate.origin)
    );
  } catch {
    return false;
  }
}
