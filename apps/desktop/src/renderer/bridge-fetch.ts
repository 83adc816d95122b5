/**
 * The renderer's API transport: a `fetch` (and the CSRF `getCookie`) for `createApiClient` that
 * sends every request through the bridge to main, which holds the session cookies. The page never
 * sees the session and cannot talk to any other address.
 */
import type { ApiRequest, DesktopBridge } from '../shared/bridge.js';

/** The two ports `createApiClient` needs. */
export interface BridgeTransport {
  fetch(input: string, init?: RequestInit): Promise<Response>;
  getCookie(name: string): string | undefined;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
type Method = (typeof METHODS)[number];
const isMethod = (value: string): value is Method => (METHODS as readonly string[]).includes(value);

/** Statuses whose responses cannot have a body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Creates the transport over `bridge.apiFetch`. `csrfCookie` is the name the server uses (`csrf_token`). */
export function createBridgeTransport(
  bridge: Pick<DesktopBridge, 'apiFetch'>,
  csrfCookie: string,
): BridgeTransport {
  // Main returns the current token with each answer; the client reads it synchronously from here.
  let csrfToken: string | undefined;
  return {
    async fetch(input, init = {}) {
      const method = (init.method ?? 'GET').toUpperCase();
      if (!isMethod(method)) throw new TypeError(`Unsupported method ${method}`);
      const request: ApiRequest = {
        url: input,
        method,
        headers: [...new Headers(init.headers)],
        credentials: init.credentials === 'omit' ? 'omit' : 'include',
      };
      const body = await bodyOf(init.body);
      if (body !== undefined) request.body = body;
      init.signal?.throwIfAborted();
      const answer = await bridge.apiFetch(request);
      if (answer.csrfToken !== undefined) csrfToken = answer.csrfToken;
      const bytes = NULL_BODY_STATUSES.has(answer.status) ? null : new Uint8Array(answer.body);
      return new Response(bytes, {
        status: answer.status,
        statusText: answer.statusText,
        headers: answer.headers,
      });
    },
    getCookie: (name) => (name === csrfCookie ? csrfToken : undefined),
  };
}

/** JSON text or bytes: the bodies the API client and the direct upload send. */
async function bodyOf(body: RequestInit['body']): Promise<string | Uint8Array<ArrayBuffer> | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Blob) return new Uint8Array(await body.arrayBuffer());
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  // A copy: the view may share its buffer with other data (or be a SharedArrayBuffer).
  if (ArrayBuffer.isView(body))
    return Uint8Array.from(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
  throw new TypeError('Only text, bytes and Blob bodies can go through the desktop bridge.');
}
