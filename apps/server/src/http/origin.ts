import type { FastifyRequest } from 'fastify';
import type { Config } from '../env.js';

/**
 * Where people open the app, for links in mails: `PUBLIC_URL` when set, else the origin the request
 * came to (behind a proxy, what `TRUST_PROXY` lets it say).
 */
export function appOrigin(config: Pick<Config, 'publicUrl'>, request: FastifyRequest): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}
