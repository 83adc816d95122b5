/**
 * The part of the contract every answer may need: the session check (`GET /me`, whose answer is
 * parsed like every other) and the error body. The client loads it (and zod's core with it) beside
 * the first request rather than before the first screen, and the rest of the table and its schemas
 * on the first call that needs them (client.ts), so the web app's first download stays small.
 */
import { z } from 'zod/mini';
import { ROLES } from '../domain/roles.js';
import { def, SESSION_CHECK_ROUTE } from './endpoint-def.js';

/** ISO-8601 timestamp on the wire. */
export const Timestamp = z.string();

/** Every failure's body: words for people, and (from servers that send it) a code for programs. */
export const ErrorBody = z.object({ error: z.string(), code: z.optional(z.string()) });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const User = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
  isAdmin: z.boolean(),
  approved: z.boolean(),
  createdAt: Timestamp,
  /** Present (true) for an account a season close suspended: a returning volunteer waiting for approval. */
  suspended: z.optional(z.literal(true)),
});
export type User = z.infer<typeof User>;

export const MeResponse = z.object({ user: User });
export type MeResponse = z.infer<typeof MeResponse>;

/** `GET /me`: the contract table's `me`. */
export const sessionCheck = def({
  method: SESSION_CHECK_ROUTE.method,
  path: SESSION_CHECK_ROUTE.path,
  response: MeResponse,
});
