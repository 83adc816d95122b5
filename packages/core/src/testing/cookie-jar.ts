import { CookieJar } from 'tough-cookie';
import { withAbsoluteExpiry } from '../cookies.js';
import type { FetchLike } from '../ports.js';

/** A `fetch` that keeps cookies the way a browser does, for Node tests and scripts. */
export interface CookieJarFetch {
  fetch: FetchLike;
  /**
   * What a script on the page reads from `document.cookie`, decoded; HttpOnly cookies stay hidden.
   * Pass it to `createApiClient({ getCookie })`.
   */
  getCookie: (name: string) => string | undefined;
  /** Every cookie a request to the page carries, HttpOnly ones included, by name. */
  cookies: () => Record<string, string>;
  /** The `Cookie` header a request to the page carries (empty when none). */
  cookieHeader: () => string;
  /** The tough-cookie jar, to open another page of the same browser (`options.jar`). */
  jar: CookieJar;
}

/** Where the page is, and optionally whose cookies it shares. */
export interface CookieJarFetchOptions {
  /** The page `getCookie`, `cookies` and `cookieHeader` read for (usually the server's address). */
  pageUrl: string;
  /** Another `CookieJarFetch`'s jar: the same browser. Cookies belong to a host, not a port. */
  jar?: CookieJar;
}

/**
 * Wraps `fetch` with a tough-cookie jar: `Set-Cookie` answers are stored and sent back on later
 * requests the way a browser does (domain, path, expiry, Secure, HttpOnly), except with
 * `credentials: 'omit'`.
 */
export function createCookieJarFetch(baseFetch: FetchLike, options: CookieJarFetchOptions): CookieJarFetch {
  const jar = options.jar ?? new CookieJar();
  const { pageUrl } = options;

  const fetch: FetchLike = async (input, init = {}) => {
    const withCookies = init.credentials !== 'omit';
    const headers = new Headers(init.headers);
    const cookie = withCookies ? jar.getCookieStringSync(input) : '';
    if (cookie) headers.set('cookie', cookie);
    const response = await baseFetch(input, { ...init, headers });
    if (withCookies) {
      for (const line of response.headers.getSetCookie()) {
        const parsed = withAbsoluteExpiry(line);
        if (parsed) jar.setCookieSync(parsed, input, { ignoreError: true });
      }
    }
    return response;
  };

  const cookies = () => Object.fromEntries(jar.getCookiesSync(pageUrl).map((c) => [c.key, c.value]));
  return {
    fetch,
    getCookie: (name) => {
      const value = jar.getCookiesSync(pageUrl, { http: false }).find((c) => c.key === name)?.value;
      if (value === undefined) return undefined;
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    },
    cookies,
    cookieHeader: () => jar.getCookieStringSync(pageUrl),
    jar,
  };
}
