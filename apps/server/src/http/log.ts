import type { FastifyServerOptions } from 'fastify';

/** Paths whose query string is a capability (a signed storage URL): logged without it. */
const CAPABILITY_PATHS = '/api/storage/';

/** Paths that name a person by email (the API's user routes): the email is not logged. */
const USER_PATH = /^(\/api\/admin\/users\/)[^/?]+/;

/**
 * The request URL as logged: signed storage URLs lose their query (`?…`), so logs never hold a
 * working link, and a user route loses its email, so logs hold no personal data.
 */
function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  if (query >= 0 && url.startsWith(CAPABILITY_PATHS)) return `${url.slice(0, query)}?[redacted]`;
  return url.replace(USER_PATH, '$1[email]');
}

interface RequestLike {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify logger options with the request serializer that redacts capabilities. */
export function withLogRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === undefined || logger === false || logger === true) return logger === true ? withLogRedaction({}) : logger;
  return {
    ...logger,
    serializers: {
      ...logger.serializers,
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
