/**
 * What one call of the contract is, and the HTTP rules every call follows. Apart from the table
 * (endpoints.ts) and its schemas, so the web app's first download has the client without them.
 */
import type { z } from 'zod/mini';

/** One call of the contract. `response: null` marks a binary (non-JSON) response. */
export interface EndpointDef {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the API base; `:name` segments are path parameters. */
  path: string;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  response: z.ZodMiniType | null;
}

export const def = <const T extends EndpointDef>(d: T): T => d;

/**
 * The session check's method and path (`GET /me`, the table's `me`), apart from its schema: the web
 * app sends the first screen's question at once while the schema, and zod with it, load beside it.
 */
export const SESSION_CHECK_ROUTE = { method: 'GET', path: '/me' } as const;

/** The path with its `:name` segments filled in, each value URL-encoded. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** Methods that change state: they carry the CSRF header. */
export function isStateChanging(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

/** Name of the cookie holding the CSRF token and of the header that must echo it. */
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
/**
 * The CSRF cookie's name when the server sets it `Secure` (over https): the `__Host-` prefix makes
 * the browser refuse it unless it is Secure, set by this very host and for the whole site.
 */
const SECURE_CSRF_COOKIE = `__Host-${CSRF_COOKIE}`;

/** The CSRF token, under whichever of its two names the server set it. */
export function readCsrfToken(getCookie: (name: string) => string | undefined): string | undefined {
  return getCookie(SECURE_CSRF_COOKIE) ?? getCookie(CSRF_COOKIE);
}
