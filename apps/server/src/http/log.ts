import type { FastifyServerOptions } from 'fastify';

/** Paths whose query string is a capability (a signed storage URL): logged without it. */
const CAPABILITY_PATHS = '/api/storage/';

/** The request URL as logged: signed storage URLs lose their query (`?…`), so logs never hold a working link. */
function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  return query >= 0 && url.startsWith(CAPABILITY_PATHS) ? `${url.slice(0, query)}?[redacted]` : url;
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
