import type { FetchLike } from '../ports.js';

/** A `fetch` that keeps cookies like a browser would for one origin, for Node tests and scripts. */
export interface CookieJarFetch {
  fetch: FetchLike;
  /** The current value of a cookie (pass it to `createApiClient({ getCookie })`). */
  getCookie: (name: string) => string | undefined;
  /** Every cookie currently held. */
  cookies: () => Record<string, string>;
  clear: () => void;
}

/**
 * Wraps `fetch` with a cookie jar: `Set-Cookie` answers are stored (expired or emptied ones
 * removed) and sent back on later requests to the same origin. Attributes other than expiry
 * are ignored — enough for tests against one server.
 */
export function createCookieJarFetch(baseFetch: FetchLike): CookieJarFetch {
  const jar = new Map<string, Map<string, string>>();
  const originOf = (url: string) => new URL(url).origin;

  const fetch: FetchLike = async (input, init = {}) => {
    const origin = originOf(input);
    const cookies = jar.get(origin);
    const headers = new Headers(init.headers);
    if (cookies?.size && init.credentials !== 'omit') {
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    }
    const response = await baseFetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) store(origin, line);
    return response;
  };

  function store(origin: string, line: string): void {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attributes.some((attribute) => {
      const [key = '', val = ''] = attribute.split('=').map((s) => s.trim());
      if (key.toLowerCase() === 'max-age') return Number(val) <= 0;
      if (key.toLowerCase() === 'expires') return Date.parse(val) <= Date.now();
      return false;
    });
    const cookies = jar.get(origin) ?? new Map<string, string>();
    jar.set(origin, cookies);
    if (expired || value === '') cookies.delete(name);
    else cookies.set(name, value);
  }

  const all = () => {
    const out: Record<string, string> = {};
    for (const cookies of jar.values()) for (const [name, value] of cookies) out[name] = value;
    return out;
  };
  return {
    fetch,
    getCookie: (name) => {
      const value = all()[name];
      if (value === undefined) return undefined;
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    },
    cookies: all,
    clear: () => jar.clear(),
  };
}
