import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../db/errors.js';
import { StorageError, storageErrorStatus } from '../storage/types.js';

/** An error whose message is meant for the person using the app. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Please sign in.') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do that.') => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, { 'retry-after': String(Math.max(1, retryAfterSeconds)) });

/** A zod failure as one sentence: the first problem, which our schemas phrase for people. */
function zodMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  if (issue.path.length === 0 && issue.code === 'invalid_type') return 'The request body must be a JSON object.';
  if (issue.code === 'unrecognized_keys') return issue.message;
  return issue.message.startsWith('Invalid input') && issue.path.length > 0
    ? `${issue.path.join('.')}: ${issue.message}`
    : issue.message;
}

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON (Content-Type: application/json).',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
};

/** The answer while the database cannot be reached: the request may be tried again shortly. */
export const DATABASE_UNAVAILABLE = 'Service temporarily unavailable, try again';

/** Every failure becomes `{ error }` JSON with a fitting status; stack traces stay in the log. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError | ZodError | StorageError, request, reply) => {
    if (err instanceof HttpError) {
      void reply.headers(err.headers).code(err.statusCode).send({ error: err.message });
      return;
    }
    if (err instanceof StorageError) {
      if (err.kind === 'failed') {
        request.log.error({ err }, 'storage failed');
        void reply.code(500).send({ error: 'The file store could not complete the request. Please try again.' });
      } else {
        void reply.code(storageErrorStatus(err.kind)).send({ error: err.message });
      }
      return;
    }
    if (err instanceof ZodError) {
      void reply.code(400).send({ error: zodMessage(err) });
      return;
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      void reply.code(status).send({ error: FASTIFY_MESSAGES[err.code] ?? err.message });
      return;
    }
    if (isDatabaseUnavailable(err)) {
      // One line, not a stack per request: while the database is away every request comes here.
      request.log.warn({ code: 'code' in err ? err.code : undefined, message: err.message }, 'database unavailable');
      void reply.code(503).header('retry-after', '5').send({ error: DATABASE_UNAVAILABLE });
      return;
    }
    request.log.error({ err }, 'request failed');
    void reply.code(500).send({ error: 'Something went wrong on the server. Please try again.' });
  });
}
