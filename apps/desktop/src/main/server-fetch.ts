/**
 * The desk's only way to the network: a `fetch` bound to the configured server that keeps the
 * session cookies in the main process (never in the renderer) and refuses every other address
 * except the presigned upload/download URLs the server itself handed out. The Electron renderer
 * reaches it through IPC (`relay`); the headless intake uses `fetch` directly.
 */
import { withAbsoluteExpiry } from '@vita-docs/core/cookies';
import { CookieJar } from 'tough-cookie';
import type { ApiRequest, ApiResponse } from '../shared/bridge.js';

/** The `fetch` subset the API client uses. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** How to reach the server. */
export interface ServerFetchOptions {
  /** The server address as configured (the API is under `<serverUrl>/api`). */
  serverUrl: string;
  fetch?: FetchLike;
}

/** The cookie-keeping transport for one server. */
export interface ServerFetch {
  readonly origin: string;
  /** The API's root, ending in `/api/`. */
  readonly apiUrl: string;
  /** For `createApiClient({ fetch })`. */
  fetch: FetchLike;
  /**
   * For `createApiClient({ getCookie })`: what a page would read from `document.cookie` at the API,
   * so the CSRF token but never an HttpOnly cookie such as the session.
   */
  getCookie: (name: string) => string | undefined;
  /** Runs a request the renderer serialised over IPC and serialises the answer. */
  relay(request: ApiRequest, csrfCookie: string): Promise<ApiResponse>;
  /** Forgets the session (the desk changed servers). */
  clear(): void;
}

/** Presigned URLs stay usable for minutes; remembering them longer would only widen the allow-list. */
const PRESIGNED_TTL_MS = 15 * 60_000;
const MAX_PRESIGNED = 500;

/** Headers the renderer may not set: main owns cookies and the browser-only ones mean nothing here. */
const DROPPED_REQUEST_HEADERS = new Set([
  'cookie',
  'host',
  'origin',
  'referer',
  'connection',
  'content-length',
]);

/**
 * The journal key's path (`GET /api/me/journal-key`), however spelled. Only main asks for it (the
 * desk's kept uploads are sealed under it and opened in main); the page shows server content and
 * has no use for it, so the relay refuses it.
 */
const JOURNAL_KEY_PATH = /\/api\/me\/journal-key$/i;
const isJournalKey = (url: string): boolean => {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return true; // not a URL the server would take either
  }
  return JOURNAL_KEY_PATH.test(path.replace(/\/{2,}/g, '/').replace(/\/+$/, ''));
};
const mainOnly = (): ApiResponse => ({
  status: 403,
  statusText: 'Forbidden',
  headers: [['content-type', 'application/json']],
  body: new TextEncoder().encode(JSON.stringify({ error: 'Only the kiosk itself asks for this.' })),
});

/** Creates the transport for `serverUrl`. */
export function createServerFetch(options: ServerFetchOptions): ServerFetch {
  const origin = new URL(options.serverUrl).origin;
  const apiUrl = `${options.serverUrl.replace(/\/+$/, '')}/api/`;
  const baseFetch = options.fetch ?? globalThis.fetch;
  // tough-cookie applies Domain, Path, expiry, Secure and HttpOnly. A Secure cookie travels over
  // https only, or over plain http to this machine itself (localhost, loopback addresses): that
  // traffic never leaves the kiosk, and browsers treat such pages as secure too.
  const jar = new CookieJar(undefined, { allowSecureOnLocal: true });
  const presigned = new Map<string, number>();

  const isPresigned = (url: string): boolean => {
    const expiry = presigned.get(url);
    return expiry !== undefined && expiry > Date.now();
  };

  /** Remembers `url` answers of the presign calls, so the direct PUT/GET to them is allowed. */
  const rememberPresigned = async (path: string, response: Response): Promise<void> => {
    if (!/\/docs\/presign/.test(path) || !response.ok) return;
    try {
      const body = (await response.clone().json()) as { url?: unknown };
      if (typeof body.url !== 'string') return;
      if (presigned.size >= MAX_PRESIGNED) presigned.delete(presigned.keys().next().value ?? '');
      presigned.set(body.url, Date.now() + PRESIGNED_TTL_MS);
    } catch {
      // Not JSON: nothing to remember.
    }
  };

  const fetch: FetchLike = async (input, init = {}) => {
    const url = new URL(input);
    const sameServer = url.origin === origin;
    if (!sameServer && !isPresigned(url.href)) {
      throw new TypeError(`The kiosk only talks to its server (${origin}), not ${url.origin}.`);
    }
    const headers = new Headers(init.headers);
    headers.delete('cookie');
    if (sameServer && init.credentials !== 'omit') {
      const cookie = jar.getCookieStringSync(url.href);
      if (cookie) headers.set('cookie', cookie);
    }
    // A redirect must not carry the session elsewhere: hand it back instead of following it.
    const response = await baseFetch(url.href, { ...init, headers, redirect: 'manual' });
    if (sameServer) {
      for (const line of response.headers.getSetCookie()) {
        const cookie = withAbsoluteExpiry(line);
        // Refused cookies (a Secure one over plain http, another host's domain) are dropped silently.
        if (cookie) jar.setCookieSync(cookie, url.href, { ignoreError: true });
      }
      await rememberPresigned(url.pathname, response);
    }
    return response;
  };

  const getCookie = (name: string): string | undefined => {
    const value = jar.getCookiesSync(apiUrl, { http: false }).find((cookie) => cookie.key === name)?.value;
    if (value === undefined) return undefined;
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };

  const relay = async (request: ApiRequest, csrfCookie: string): Promise<ApiResponse> => {
    if (isJournalKey(request.url)) return mainOnly();
    const headers = request.headers.filter(([name]) => !DROPPED_REQUEST_HEADERS.has(name.toLowerCase()));
    const init: RequestInit = { method: request.method, headers, credentials: request.credentials };
    if (request.body !== undefined) init.body = request.body;
    const response = await fetch(request.url, init);
    const answer: ApiResponse = {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers].filter(([name]) => name.toLowerCase() !== 'set-cookie'),
      body: new Uint8Array(await response.arrayBuffer()),
    };
    // Over https the server names it with the `__Host-` prefix.
    const csrfToken = getCookie(`__Host-${csrfCookie}`) ?? getCookie(csrfCookie);
    if (csrfToken !== undefined) answer.csrfToken = csrfToken;
    return answer;
  };

  return {
    origin,
    apiUrl,
    fetch,
    getCookie,
    relay,
    clear() {
      jar.removeAllCookiesSync();
      presigned.clear();
    },
  };
}
