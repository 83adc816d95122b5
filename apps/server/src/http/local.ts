import type { FastifyRequest } from 'fastify';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Headers a proxy adds when it relays a request: any of them means the caller is somewhere else. */
const FORWARDING = /^(forwarded|via|x-real-ip|x-forwarded-.+|x-client-ip|x-cluster-client-ip|true-client-ip|cf-connecting-ip|fastly-client-ip|x-original-forwarded-for)$/;

/** True for a request made on this machine directly, not relayed by a proxy running here. */
export function isDirectLocal(request: FastifyRequest): boolean {
  if (!LOOPBACK.has(request.socket.remoteAddress ?? '')) return false;
  return !Object.keys(request.headers).some((name) => FORWARDING.test(name));
}
