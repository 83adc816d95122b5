import type { AddressInfo } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../env.js';

/**
 * Where people open the app, for links in mails: `PUBLIC_URL` when set, else the origin the request
 * came to (behind a proxy, what `TRUST_PROXY` lets it say).
 */
export function appOrigin(config: Pick<Config, 'publicUrl'>, request: FastifyRequest): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * `PUBLIC_URL`, else the address this server listens on (`HOST`, `localhost` for every interface, and
 * its port): what the start-up line tells people to open. Never a request's `Host` header, which whoever
 * sends the request (or a proxy passing it on) chooses.
 */
export function serverOrigin(
  config: Pick<Config, 'publicUrl' | 'host' | 'port'>,
  server: { address(): AddressInfo | string | null },
): string {
  if (config.publicUrl) return config.publicUrl;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
