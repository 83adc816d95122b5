import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpoints, type EndpointName, type Endpoints } from '@vita-docs/core/contract';
import type { z } from 'zod/mini';
import type { UserRow } from '../auth/sessions.js';
import { signedOutError } from './errors.js';

type Out<T> = T extends z.ZodMiniType ? z.output<T> : undefined;
type In<T> = T extends z.ZodMiniType ? z.input<T> : never;

/** What a handler receives: the parsed, typed request parts. */
export interface RouteContext<N extends EndpointName, U> {
  request: FastifyRequest;
  reply: FastifyReply;
  params: Out<Endpoints[N] extends { params: infer P } ? P : undefined>;
  query: Out<Endpoints[N] extends { query: infer Q } ? Q : undefined>;
  body: Out<Endpoints[N] extends { body: infer B } ? B : undefined>;
  user: U;
}

/** A JSON handler returns the response body; a binary one (response: null) writes to the reply. */
type Result<N extends EndpointName> = Endpoints[N]['response'] extends z.ZodMiniType
  ? In<Endpoints[N]['response']>
  : FastifyReply;

/**
 * An answer already written as JSON in the contract's shape (by PostgreSQL, for the busiest reads):
 * sent as it is, without the contract's check. Its producer's test holds it to the contract.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The endpoints allowed to answer with {@link JsonText}: the category list (documents.ts `LIST_CATEGORY`). */
const JSON_TEXT_ENDPOINTS: ReadonlySet<EndpointName> = new Set(['listDocs']);

/** Registered endpoint names, so tests can check every contract entry has a route. */
const registeredEndpoints = new Set<EndpointName>();

function register<N extends EndpointName, U>(
  app: FastifyInstance,
  name: N,
  getUser: (request: FastifyRequest) => U,
  handler: (ctx: RouteContext<N, U>) => Promise<Result<N> | JsonText>,
): void {
  const def: Endpoints[EndpointName] = endpoints[name];
  registeredEndpoints.add(name);
  app.route({
    method: def.method,
    url: `/api${def.path}`,
    handler: async (request, reply) => {
      const user = getUser(request);
      const ctx = {
        request,
        reply,
        params: 'params' in def && def.params ? def.params.parse(request.params) : undefined,
        query: 'query' in def && def.query ? def.query.parse(request.query ?? {}) : undefined,
        body: 'body' in def && def.body ? def.body.parse(request.body ?? {}) : undefined,
        user,
      } as RouteContext<N, U>;
      const result = await handler(ctx);
      if (result instanceof JsonText) {
        // Only answers whose producer is held to the contract by a test may skip its check.
        if (!JSON_TEXT_ENDPOINTS.has(name)) throw new Error(`${name} may not answer with JsonText`);
        return reply.type('application/json; charset=utf-8').send(result.text);
      }
      if (def.response === null) return result;
      // Parsing the output strips anything not in the contract (a stray pin_hash never leaks).
      return def.response.parse(result);
    },
  });
}

/** A route anyone may call. */
export function publicRoute<N extends EndpointName>(
  app: FastifyInstance,
  name: N,
  handler: (ctx: RouteContext<N, UserRow | null>) => Promise<Result<N>>,
): void {
  register(app, name, (request) => request.auth.user, handler);
}

/** A route for signed-in (approved) users; 401 otherwise. Role checks happen in the handler. */
export function userRoute<N extends EndpointName>(
  app: FastifyInstance,
  name: N,
  handler: (ctx: RouteContext<N, UserRow>) => Promise<Result<N> | JsonText>,
): void {
  register(
    app,
    name,
    (request) => {
      if (!request.auth.user) throw signedOutError(request.auth.endedReason);
      return request.auth.user;
    },
    handler,
  );
}

/** The current user's permission facts, as core's rules expect them. */
export function actorOf(user: UserRow) {
  return { email: user.email, role: user.role, isAdmin: user.is_admin, approved: user.approved };
}
