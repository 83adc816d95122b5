import type { FastifyInstance } from 'fastify';
import { userRoute } from '../http/route.js';
import type { Services } from '../services.js';

/**
 * The server settings a client needs before it acts (docs/behaviour.md#server-settings): only the
 * largest upload, so the upload queue can refuse a file over it without sending a byte. Signed-in
 * callers only: nobody else uploads, and the answer (parsed through the contract) holds nothing else.
 */
export function configRoutes(app: FastifyInstance, services: Services): void {
  userRoute(app, 'config', async () => ({ maxUploadBytes: services.config.maxUploadBytes }));
}
