import { errorCodeForStatus, messages, type ErrorCode } from '@vita-docs/core/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
// zod's core error class: what zod/mini's parse throws (it has no ZodError of its own).
import { $ZodError as ZodError } from 'zod/v4/core';
import '../zod-english.js';
import { isDependencyUnavailable, isForeignKeyViolation } from '../db/errors.js';
import { StorageError, storageErrorStatus } from '../storage/types.js';

/** An error whose message is meant for the person using the app; `code` for programs (else its status's). */
export class HttpError extends Error {
  readonly code: ErrorCode;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? errorCodeForStatus(statusCode);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Please sign in.') => new HttpError(401, message);
/** The 401 of a signed-in route: says why when someone else ended the session (a role change). */
export const signedOutError = (reason: 'role_changed' | undefined) =>
  reason === 'role_changed'
    ? new HttpError(401, messages.roleChanged, {}, 'role_changed')
    : unauthorized(messages.pleaseSignIn);
export const forbidden = (message = 'You do not have permission to do that.') => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, { 'retry-after': String(Math.max(1, retryAfterSeconds)) });

/** What zod's own (English, developer-facing) messages begin with; our schemas word theirs for people. */
const ZOD_DEFAULT = /^(Invalid|Too big|Too small)\b/;

/** The kinds of value a field may have to be, as a person would say it. */
const KIND_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

const isSafeIntegerBound = (bound: number | bigint) => Math.abs(Number(bound)) === Number.MAX_SAFE_INTEGER;

/** Zod's default message for a field, said in plain words: "limit must be at most 1000." */
function plainWords(issue: ZodError['issues'][number]): string {
  const field = issue.path.map(String).join('.') || 'The value';
  if (issue.code === 'invalid_type')
    return `${field} must be ${KIND_WORDS[issue.expected] ?? 'something else'}.`;
  if (issue.code === 'too_big') {
    if (issue.origin === 'string') return `${field} is too long (at most ${issue.maximum} characters).`;
    if (issue.origin === 'array') return `${field} has too many items (at most ${issue.maximum}).`;
    // The bound of z.number().int(): the number is not a usable whole number at all.
    if (isSafeIntegerBound(issue.maximum)) return `${field} must be a whole number.`;
    return `${field} must be ${issue.inclusive === false ? 'less than' : 'at most'} ${issue.maximum}.`;
  }
  if (issue.code === 'too_small') {
    if (issue.origin === 'string') return `${field} is too short (at least ${issue.minimum} characters).`;
    if (issue.origin === 'array')
      return `${field} needs at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}.`;
    if (isSafeIntegerBound(issue.minimum)) return `${field} must be a whole number.`;
    return `${field} must be ${issue.inclusive === false ? 'more than' : 'at least'} ${issue.minimum}.`;
  }
  return `${field} is not valid.`;
}

/** A zod failure as one sentence: the first problem, which our schemas phrase for people. */
function zodMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  if (issue.path.length === 0 && issue.code === 'invalid_type')
    return 'The request body must be a JSON object.';
  if (issue.code === 'unrecognized_keys') return issue.message;
  // A schema's own words are kept; zod's defaults ("Invalid input: expected number, received NaN")
  // mean nothing to the person reading them.
  return ZOD_DEFAULT.test(issue.message) ? plainWords(issue) : issue.message;
}

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON (Content-Type: application/json).',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
  // A QUERY request must say what its body is.
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: 'Send the request body as JSON (Content-Type: application/json).',
};

/** The answer while the database cannot be reached: the request may be tried again shortly. */
export const DATABASE_UNAVAILABLE = 'Service temporarily unavailable, try again';

/** The message for one of Fastify's own 4xx errors: ours where we have one, else its own. */
export function frameworkMessage(err: FastifyError): string {
  return FASTIFY_MESSAGES[err.code] ?? err.message;
}

/**
 * Gives every error answer its machine `code` beside the words (`{ error, code }`): the one an error
 * chose, else the one its status means. Installed on the root, so it covers every route.
 */
export function installErrorCodes(app: FastifyInstance): void {
  app.addHook('preSerialization', async (_request, reply, payload: unknown) => {
    if (reply.statusCode < 400 || typeof payload !== 'object' || payload === null) return payload;
    if (!('error' in payload) || 'code' in payload) return payload;
    return { ...payload, code: errorCodeForStatus(reply.statusCode) };
  });
}

/** Every failure becomes `{ error, code }` JSON with a fitting status; stack traces stay in the log. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError | ZodError | StorageError, request, reply) => {
    // An error answer is JSON, whatever the route meant to send (a ZIP whose first file failed).
    reply.removeHeader('content-type').removeHeader('content-disposition');
    if (err instanceof HttpError) {
      void reply.headers(err.headers).code(err.statusCode).send({ error: err.message, code: err.code });
      return;
    }
    if (err instanceof StorageError) {
      if (err.kind === 'failed') {
        request.log.error({ err }, 'storage failed');
        void reply
          .code(500)
          .send({ error: 'The file store could not complete the request. Please try again.' });
      } else if (err.kind === 'unavailable') {
        // Its cause says what the store answered (S3's status code and error code, or the errno).
        request.log.error({ err }, 'file store unavailable or refused the server');
        void reply.code(503).header('retry-after', '5').send({ error: err.message, code: err.code });
      } else {
        void reply.code(storageErrorStatus(err.kind)).send({ error: err.message, code: err.code });
      }
      return;
    }
    if (err instanceof ZodError) {
      void reply.code(400).send({ error: zodMessage(err) });
      return;
    }
    // A row this request refers to was deleted by another request after it was checked: the
    // database refused the write, and the person can simply try again.
    if (isForeignKeyViolation(err)) {
      request.log.warn({ err }, 'a row the request refers to was deleted meanwhile');
      void reply.code(409).send({
        error: 'Something this request refers to was deleted a moment ago. Reload the page and try again.',
      });
      return;
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      void reply.code(status).send({ error: frameworkMessage(err) });
      return;
    }
    if (isDependencyUnavailable(err)) {
      // One line, not a stack per request: while the database is away every request comes here.
      request.log.warn(
        { code: 'code' in err ? err.code : undefined, message: err.message },
        'database or file store unavailable',
      );
      void reply.code(503).header('retry-after', '5').send({ error: DATABASE_UNAVAILABLE });
      return;
    }
    request.log.error({ err }, 'request failed');
    void reply.code(500).send({ error: 'Something went wrong on the server. Please try again.' });
  });
}
