import type { FastifyInstance } from 'fastify';
import { userRoute } from '../http/route.js';
import { sealingPair } from '../auth/journal-keys.js';
import type { Services } from '../services.js';

/**
 * The signed-in person's journal key (auth/journal-keys.ts): only to their live session, and never
 * cached, so the key that seals what a device keeps is on that device only while a page holds it.
 */
export function journalKeyRoutes(app: FastifyInstance, services: Services): void {
  userRoute(app, 'journalKey', async ({ user, reply }) => {
    // Every /api answer is no-store already; this one is said here too, since it must never be cached.
    void reply.header('cache-control', 'no-store');
    const issued = await services.journalKeys.issue(user.email);
    return {
      keyId: issued.keyId,
      key: issued.key.toString('base64'),
      ...sealingPair(issued.key),
      expiresAt: issued.expiresAt.toISOString(),
      email: user.email,
    };
  });
}
