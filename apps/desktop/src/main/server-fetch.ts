/**
 * The desk's only way to the network: a `fetch` bound to the configured server that keeps the
 * session cookies in the main process (never in the renderer) and refuses every other address
 * except the presigned upload/download URLs the server itself handed out. The Electron renderer
 * reaches it through IPC (`relay`); the headless intake uses `fetch` directly.
 */
import type { ApiRequest, ApiResponse } from '../shared/bridge.js';

/** The `fetch` subset the API client uses. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** How to reach the server. */
export interface ServerFetchOptions {
  /** The server address as configured (the API is under `<serverUrl>/api`). */
  serverUrl: string;
  fetch?: FetchLike;
  now?: () => number;
}

/** The cookie-keeping transport for one server. */
export interface ServerFetch {
  readonly origin: string;
  /** For `createApiClient({ fetch })`. */
  fetch: FetchLike;
  /** For `createApiClient({ getCookie })`: the page-readable CSRF token lives here. */
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
const DROPPED_REQUEST_HEADERS = new Set(['cookie', 'host', 'origin', 'referer', 'connection', 'content-length']);

/** Creates the transport for `serverUrl`. */
export function createServerFetch(options: ServerFetchOptions): ServerFetch {
  const origin = new URL(options.serverUrl).origin;
  const baseFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const cookies = new Map<string, { value: string; expiresAt: number | null }>();
  const presigned = new Map<string, number>();

  const liveCookie = (name: string): string | undefined => {
    const cookie = cookies.get(name);
    if (!cookie) return undefined;
    if (cookie.expiresAt !== null && cookie.expiresAt <= now()) {
      cookies.delete(name);
      return undefined;
    }
    return cookie.value;
  };

  const storeCookie = (line: string): void => {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    let expiresAt: number | null = null;
    for (const attribute of attributes) {
      const [key = '', val = ''] = attribute.split('=').map((s) => s.trim());
      if (key.toLowerCase() === 'max-age') expiresAt = now() + Number(val) * 1000;
      else if (key.toLowerCase() === 'expires' && expiresAt === null) expiresAt = Date.parse(val);
    }
    if (value === '' || (expiresAt !== null && !(expiresAt > now()))) cookies.delete(name);
    else cookies.set(name, { value, expiresAt });
  };

  const isPresigned = (url: string): boolean => {
    const expiry = presigned.get(url);
    return expiry !== undefined && expiry > now();
  };

  /** Remembers `url` answers of the presign calls, so the direct PUT/GET to them is allowed. */
  const rememberPresigned = async (path: string, response: Response): Promise<void> => {
    if (!/\/docs\/presign/.test(path) || !response.ok) return;
    try {
      const body = (await response.clone().json()) as { url?: unknown };
      if (typeof body.url !== 'string') return;
      if (presigned.size >= MAX_PRESIGNED) presigned.delete(presigned.keys().next().value ?? '');
      presigned.set(body.url, now() + PRESIGNED_TTL_MS);
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
      const jar = [...cookies.keys()].flatMap((name) => {
        const value = liveCookie(name);
        return value === undefined ? [] : [`${name}=${value}`];
      });
      if (jar.length) headers.set('cookie', jar.join('; '));
    }
    // A redirect must not carry the session elsewhere: hand it back instead of following it.
    const response = await baseFetch(url.href, { ...init, headers, redirect: 'manual' });
    if (sameServer) {
      for (const line of response.headers.getSetCookie()) storeCookie(line);
      await rememberPresigned(url.pathname, response);
    }
    return response;
  };

  const getCookie = (name: string): string | undefined => {
    const value = liveCookie(name);
    if (value === undefined) return undefined;
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };

  const relay = async (request: ApiRequest, csrfCookie: string): Promise<ApiResponse> => {
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
    const csrfToken = getCookie(csrfCookie);
    if (csrfToken !== undefined) answer.csrfToken = csrfToken;
    return answer;
  };

  return {
    origin,
    fetch,
    getCookie,
    relay,
    clear() {
      cookies.clear();
      presigned.clear();
    },
  };
}
