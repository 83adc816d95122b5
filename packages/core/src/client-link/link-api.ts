/**
 * The link session's calls for the client's phone, without the contract's zod schemas: the client page's
 * first download must stay small (≤ 90 KB gzip, docs/architecture.md), and zod with every schema is a
 * third of that. Same paths, methods, CSRF header and `{ error, code }` errors as `createApiClient`
 * (link-api.test.ts holds them to the contract table); answers are trusted as the server's own.
 */
import type { ApiClient } from '../api/client.js';
import { ApiError, isErrorCode } from '../api/errors.js';
import type { FetchLike } from '../ports.js';

export type LinkApi = Pick<
  ApiClient,
  | 'linkOpen'
  | 'linkVerify'
  | 'linkChecklist'
  | 'linkConsent'
  | 'linkPresign'
  | 'linkComplete'
  | 'linkRemove'
  | 'linkMove'
  | 'linkAnswer'
  | 'linkDone'
  | 'linkJournalKey'
>;

/** Method and path (under the API base) of each call: the contract's (checked by the test). */
export const LINK_CALLS = {
  linkOpen: ['POST', '/link/open'],
  linkVerify: ['POST', '/link/verify'],
  linkChecklist: ['GET', '/link/session/checklist'],
  linkConsent: ['POST', '/link/session/consent'],
  linkPresign: ['POST', '/link/session/presign'],
  linkComplete: ['POST', '/link/session/complete'],
  linkRemove: ['POST', '/link/session/remove'],
  linkMove: ['POST', '/link/session/move'],
  linkAnswer: ['POST', '/link/session/answer'],
  linkDone: ['POST', '/link/session/done'],
  linkJournalKey: ['GET', '/link/session/journal-key'],
} as const satisfies Record<keyof LinkApi, readonly ['GET' | 'POST', string]>;

export interface LinkApiOptions {
  baseUrl?: string;
  fetch: FetchLike;
  getCookie: (name: string) => string | undefined;
}

async function failure(response: Response): Promise<ApiError> {
  let message = response.statusText || `Request failed with status ${response.status}`;
  let code;
  try {
    const body = (await response.json()) as { error?: unknown; code?: unknown };
    if (typeof body.error === 'string' && body.error) message = body.error;
    if (isErrorCode(body.code)) code = body.code;
  } catch {
    // Not JSON: the status text says enough.
  }
  return new ApiError('http', response.status, message, code ? { code } : undefined);
}

/** The client page's API: each call sends credentials and, when it changes state, the CSRF header. */
export function createLinkApi({ baseUrl = '/api', fetch, getCookie }: LinkApiOptions): LinkApi {
  const base = baseUrl.replace(/\/+$/, '');
  const csrf = () => getCookie('__Host-csrf_token') ?? getCookie('csrf_token');
  async function send(method: 'GET' | 'POST', path: string, body: unknown): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (method === 'POST') {
      headers['content-type'] = 'application/json';
      // A first visit has no CSRF cookie yet: any API answer sets it.
      if (!csrf())
        await fetch(`${base}/me?t=${Date.now()}`, { credentials: 'include' }).catch(() => undefined);
      const token = csrf();
      if (token) headers['x-csrf-token'] = token;
    }
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        credentials: 'include',
        headers,
        ...(method === 'POST' && { body: JSON.stringify(body ?? {}) }),
      });
    } catch (cause) {
      throw new ApiError('network', 0, cause instanceof Error ? cause.message : 'Network error', { cause });
    }
    if (!response.ok) throw await failure(response);
    return response.json();
  }
  const api = {} as Record<string, (args?: { body?: unknown }) => Promise<unknown>>;
  for (const [name, [method, path]] of Object.entries(LINK_CALLS)) {
    api[name] = (args) => send(method, path, args?.body);
  }
  return api as unknown as LinkApi;
}
