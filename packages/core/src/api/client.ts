/**
 * The typed HTTP client: one method per entry of the `endpoints` table, generated from it, so a
 * new endpoint gets its method (and its types) without touching this file.
 */
import type { z } from 'zod/mini';
import { messages } from '../domain/messages.js';
import type { FetchLike } from '../ports.js';
import {
  CSRF_HEADER,
  fillPath,
  isStateChanging,
  readCsrfToken,
  SESSION_CHECK_ROUTE,
} from './endpoint-def.js';
import type { EndpointDef } from './endpoint-def.js';
import { ENDPOINT_NAMES } from './endpoint-names.js';
import type { EndpointName, Endpoints } from './endpoints.js';
import { ApiError, isErrorCode, type ErrorCode } from './errors.js';
import type * as SessionContract from './session-contract.js';

let sessionContract: Promise<typeof SessionContract> | undefined;

/**
 * The session check's schema and the error body (with zod's core): not in the web app's first
 * download, since the landing, login and sign-up screens show before any answer. Fetched beside the
 * first request; a failed fetch is tried again on the next call.
 */
function loadSessionContract(): Promise<typeof SessionContract> {
  sessionContract ??= import('./session-contract.js').catch((error: unknown) => {
    sessionContract = undefined;
    throw error;
  });
  return sessionContract;
}

/**
 * A request (or a code) that could not be sent: said in the product's words, since the browser's own
 * (`Failed to fetch`) would reach the screens as is; the browser's error stays as the cause.
 */
function networkError(cause: unknown): ApiError {
  return new ApiError('network', 0, messages.needsConnection, { cause });
}

let contract: Promise<Endpoints> | undefined;

/**
 * The contract's table with every schema: fetched on the first call other than the session check,
 * and started as soon as that check has answered (what the person does next needs it). The session
 * check needs only its own small part of the contract (above), so the first answer waits for less.
 * A failed fetch is tried again on the next call.
 */
function loadContract(): Promise<Endpoints> {
  contract ??= import('./endpoints.js').then(
    (module) => module.endpoints,
    (error: unknown) => {
      contract = undefined;
      throw error;
    },
  );
  return contract;
}

/** One call's method and path, and its response schema once that is at hand (`null`: binary). */
interface Call {
  method: EndpointDef['method'];
  path: string;
  response: () => Promise<z.ZodMiniType | null>;
}

/**
 * The session check's call, at once: it needs no table, and its schema is fetched only once its
 * request has gone (see `send`), awaited when the answer is in. The request comes first because
 * the screens' first work (React's first commit) runs in the same task as the check is asked.
 */
function sessionCall(): Call {
  let schema: Promise<z.ZodMiniType> | undefined;
  return {
    ...SESSION_CHECK_ROUTE,
    response: () =>
      (schema ??= loadSessionContract().then(
        (module) => module.sessionCheck.response,
        (cause: unknown) => Promise.reject(networkError(cause)),
      )),
  };
}

/** Any call but the session check, after fetching the table. A failed fetch is a network error. */
async function callOf(name: string): Promise<Call> {
  let table: Endpoints;
  try {
    table = await loadContract();
  } catch (cause) {
    throw networkError(cause);
  }
  const found = (table as Record<string, EndpointDef | undefined>)[name];
  if (!found) throw new Error(`No call ${name} in the contract`);
  return { method: found.method, path: found.path, response: () => Promise.resolve(found.response) };
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The path parameters, query and body of one endpoint, each present only when the endpoint has it. */
export type EndpointArgs<E extends EndpointDef> = Simplify<
  (E extends { params: infer P extends z.ZodMiniType } ? { params: z.input<P> } : unknown) &
    (E extends { query: infer Q extends z.ZodMiniType }
      ? object extends z.input<Q>
        ? { query?: z.input<Q> }
        : { query: z.input<Q> }
      : unknown) &
    (E extends { body: infer B extends z.ZodMiniType } ? { body: z.input<B> } : unknown)
>;

/** What an endpoint resolves to: its parsed response, or the raw `Response` for binary ones. */
export type EndpointResult<E extends EndpointDef> = E['response'] extends z.ZodMiniType
  ? z.output<E['response']>
  : Response;

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** One client method: the arguments object may be left out when nothing in it is required. */
export type EndpointMethod<E extends EndpointDef> =
  object extends EndpointArgs<E>
    ? (args?: EndpointArgs<E>, options?: CallOptions) => Promise<EndpointResult<E>>
    : (args: EndpointArgs<E>, options?: CallOptions) => Promise<EndpointResult<E>>;

/** The client: one method per call of the contract (docs/behaviour.md#api). */
export type ApiClient = { [K in EndpointName]: EndpointMethod<Endpoints[K]> };

/** How to reach the API. */
export interface ApiClientOptions {
  /** The API base: `/api` on the same origin by default; the desktop app passes a full URL. */
  baseUrl?: string;
  fetch: FetchLike;
  /**
   * Reads a cookie readable by the page (the CSRF token). In a browser pass
   * `(name) => readCookie(document.cookie, name)`; without it no CSRF header is sent.
   */
  getCookie?: (name: string) => string | undefined;
  /** The time for the cache-busting parameter of `GET /me`; `Date.now` by default. */
  clock?: { now(): number };
}

interface RawArgs {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/**
 * Creates the API client. Every call sends credentials; JSON bodies go with a JSON content type;
 * state-changing calls carry `x-csrf-token` from the `csrf_token` cookie. When that cookie is not
 * there yet (a fresh visit straight to a form), one `GET /me` fetches it first.
 * Responses are parsed with the shared zod schemas; failures raise {@link ApiError}.
 *
 * @example
 * ```ts
 * import { createApiClient, isApiError } from '@vita-docs/core';
 *
 * const api = createApiClient({ baseUrl: 'https://vita.example.org/api' });
 * try {
 *   const clients = await api.listClients();
 *   const docs = await api.listDocs({ params: { id: clients.items[0].clientId }, query: { docType: 'W-2' } });
 * } catch (error) {
 *   // Branch on the code, show the message: `Please sign in.`
 *   if (isApiError(error) && error.code === 'not_signed_in') showLogin(error.message);
 * }
 * ```
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = (options.baseUrl ?? '/api').replace(/\/+$/, '');
  const { fetch, getCookie } = options;
  const now = () => (options.clock ? options.clock.now() : Date.now());

  async function send(name: string, args: RawArgs, callOptions?: CallOptions): Promise<unknown> {
    const session = name === 'me';
    const def = session ? sessionCall() : await callOf(name);
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(args.query ?? {})) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        search.set(name, String(value));
      }
    }
    // GET /me must never be answered from a cache: it decides who is signed in.
    if (session) search.set('t', String(now()));
    const query = search.toString();
    const url = `${base}${fillPath(def.path, args.params)}${query ? `?${query}` : ''}`;

    const headers: Record<string, string> = { accept: 'application/json' };
    const init: RequestInit = { method: def.method, credentials: 'include', headers };
    if (callOptions?.signal) init.signal = callOptions.signal;
    if (def.method === 'POST') {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(args.body ?? {});
    }
    if (isStateChanging(def.method) && getCookie) {
      const token = readCsrfToken(getCookie) ?? (await primeCsrf());
      if (token) headers[CSRF_HEADER] = token;
    }

    // Called here, before anything is awaited: the request goes now.
    const answer = (async () => fetch(url, init))();
    // The response's schema is fetched while the answer comes (the session check's, not before it).
    const schemaOnItsWay = def.response();
    // Awaited once the answer is in; until then (or if the request fails first) nothing is unhandled.
    void schemaOnItsWay.catch(() => undefined);
    let response: Response;
    try {
      response = await answer;
    } catch (cause) {
      if (callOptions?.signal?.aborted) throw cause;
      throw networkError(cause);
    }
    if (!response.ok) throw await httpError(response);
    const schema = await schemaOnItsWay;
    if (schema === null) return response;

    let json: unknown;
    try {
      json = await response.json();
    } catch (cause) {
      throw new ApiError('response', response.status, 'The server sent an unreadable response.', { cause });
    }
    if (session) void loadContract().catch(() => undefined);
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ApiError('response', response.status, 'The server sent an unexpected response.', {
        cause: parsed.error,
      });
    }
    return parsed.data;
  }

  async function primeCsrf(): Promise<string | undefined> {
    try {
      // Any answer sets the cookie, a 401 included, so the result itself does not matter.
      await fetch(`${base}${SESSION_CHECK_ROUTE.path}?t=${now()}`, { credentials: 'include' });
    } catch {
      // The real call will report the network problem.
    }
    return getCookie && readCsrfToken(getCookie);
  }

  // One method per name of the contract, at once; each finds its definition when called (loadContract).
  const client: Record<string, (args?: RawArgs, callOptions?: CallOptions) => Promise<unknown>> = {};
  for (const name of ENDPOINT_NAMES) client[name] = (args = {}, callOptions) => send(name, args, callOptions);
  return client as unknown as ApiClient;
}

/** The {@link ApiError} for a non-OK response: the server's `error` field, or else the status text. */
export async function httpError(response: Response): Promise<ApiError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // The status still says enough.
  }
  let message = response.statusText || `Request failed with status ${response.status}`;
  let code: ErrorCode | undefined;
  try {
    // Without the schema's chunk (the connection dropped) the status text says enough.
    const { ErrorBody } = await loadSessionContract();
    const body = ErrorBody.safeParse(JSON.parse(text));
    if (body.success && body.data.error) message = body.data.error;
    // A code this version does not know yet falls back to the one its status means.
    if (body.success && isErrorCode(body.data.code)) code = body.data.code;
  } catch {
    // Not JSON, or no schema to read it with: keep the status text.
  }
  return new ApiError('http', response.status, message, code ? { code } : undefined);
}

export { readCookie } from './read-cookie.js';
