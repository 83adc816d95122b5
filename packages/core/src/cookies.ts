/** `@vita-docs/core/cookies`: tough-cookie as a browser keeps cookies (Node code: tests, the kiosk's main process). */
import { Cookie } from 'tough-cookie';

/** The latest date a `Date` can hold. */
const MAX_DATE_MS = 8.64e15;

/**
 * Parses a `Set-Cookie` line and turns Max-Age into the absolute expiry a browser computes on
 * arrival: tough-cookie counts Max-Age from the cookie's last use, so a cookie sent often enough
 * would never expire.
 */
export function withAbsoluteExpiry(line: string): Cookie | undefined {
  const cookie = Cookie.parse(line);
  if (cookie?.maxAge != null && cookie.maxAge !== 'Infinity') {
    const seconds = cookie.maxAge === '-Infinity' ? 0 : cookie.maxAge;
    cookie.expires = new Date(seconds <= 0 ? 0 : Math.min(Date.now() + seconds * 1000, MAX_DATE_MS));
    cookie.maxAge = null;
  }
  return cookie;
}
