import type { FastifyServerOptions } from 'fastify';

/** Paths that name a person by email (the API's user routes): the email is not logged. */
const USER_PATH = /^(\/api\/admin\/users\/)[^/?]+/;

/**
 * The request URL as logged: never its query, which is a capability on signed storage URLs (so logs
 * never hold a working link) and personal data on others (`/api/admin/audit?actor=<email>`, a
 * category's note with a client's name in `include=` or `docType=`); `?[redacted]` says there was
 * one. A user route loses its email too, so logs hold no personal data.
 */
function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  const path = query >= 0 ? `${url.slice(0, query)}?[redacted]` : url;
  return path.replace(USER_PATH, '$1[email]');
}

/** A quoted string holding a path separator: the file path an error message names (`open '/…/123_W-2 Jane.pdf'`). */
const QUOTED_PATH = /(['"`])[^'"`\n]*[/\\][^'"`\n]*\1/g;
const scrub = (text: unknown): string =>
  typeof text === 'string' ? text.replace(QUOTED_PATH, "'[path]'") : '';

/**
 * Errors as logged: their kind, code and message, and their stack, with any quoted path (which holds
 * a file name, so perhaps a person's name) replaced; properties naming files or keys are left out.
 */
function serializeError(error: unknown): {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
} {
  if (!(error instanceof Error)) return { type: typeof error, message: scrub(String(error)), stack: '' };
  const { code, statusCode, $metadata } = error as Error & {
    code?: unknown;
    statusCode?: unknown;
    $metadata?: { httpStatusCode?: unknown };
  };
  // An AWS SDK error names S3's error code as its type, but an answer without a body (a HEAD's, or a
  // proxy's 500) only as `UnknownError`: the HTTP status S3 answered is what tells them apart.
  const httpStatusCode = $metadata?.httpStatusCode;
  return {
    type: error.name,
    ...(typeof code === 'string' && { code }),
    ...(typeof statusCode === 'number' && { statusCode }),
    ...(typeof httpStatusCode === 'number' && { httpStatusCode }),
    message: scrub(error.message),
    stack: scrub(error.stack),
    ...(error.cause !== undefined && { cause: serializeError(error.cause) }),
  };
}

interface RequestLike {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify logger options with the serializers that keep capabilities and file names out of the log. */
export function withLogRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === undefined || logger === false || logger === true)
    return logger === true ? withLogRedaction({}) : logger;
  return {
    ...logger,
    serializers: {
      ...logger.serializers,
      err: serializeError,
      req: (req: RequestLike) => ({
        method: req.method,
        url: loggedUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}
