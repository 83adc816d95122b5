import type { FastifyRequest } from 'fastify';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Headers a proxy adds when it relays a request: any of them means the caller is somewhere else. */
const FORWARDING =
  /^(forwarded|via|x-real-ip|x-forwarded-.+|x-client-ip|x-cluster-client-ip|true-client-ip|cf-connecting-ip|fastly-client-ip|x-original-forwarded-for)$/;

/**
 * The names a browser on this machine uses for it. A page of another site whose name was made to
 * resolve to 127.0.0.1 (DNS rebinding) reaches us from loopback, but its browser sends that site's
 * name as `Host`; so does a client of a plain TCP relay, unless it forges the header on purpose.
 */
const LOCAL_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** True for a request made on this machine directly, by its name for itself, not relayed by a proxy running here. */
export function isDirectLocal(request: FastifyRequest): boolean {
  if (!LOOPBACK.has(request.socket.remoteAddress ?? '')) return false;
  if (!LOCAL_HOST.test(request.headers.host ?? '')) return false;
  return !Object.keys(request.headers).some((name) => FORWARDING.test(name));
}
