import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/** `203.0.113.7:4711` and `[2001:db8::1]:4711`, as some proxies write them: the address without its port. */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed?.[1]) return bracketed[1];
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return v4?.[1] ?? entry;
}

/**
 * Keeps only IP addresses in X-Forwarded-For. Behind a trusted proxy, the first entry it does not
 * vouch for becomes `request.ip`, and whatever a client wrote there (kilobytes of text) would become
 * the key of its rate limit, its session's and its audit entries' address. Text that is not an
 * address is dropped; when nothing is left, the address of the proxy that relayed the request is
 * used. The header itself stays, so a relayed request is still known as relayed (see local.ts).
 */
export function installForwardedForCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const headers = request.raw.headers;
    const value = headers['x-forwarded-for'];
    if (value === undefined) return;
    const forwarded = Array.isArray(value) ? value.join(',') : value;
    const entries = forwarded.split(',').map((entry) => entry.trim());
    const addresses = entries.map(withoutPort).filter((entry) => net.isIP(entry) !== 0);
    if (addresses.length === entries.length && addresses.every((address, i) => address === entries[i]))
      return;
    headers['x-forwarded-for'] =
      addresses.length > 0 ? addresses.join(', ') : (request.socket.remoteAddress ?? '');
  });
}
