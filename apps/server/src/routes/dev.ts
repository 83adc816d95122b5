import type { FastifyInstance } from 'fastify';
import { publicRoute } from '../http/route.js';
import type { Services } from '../services.js';

/** The development outbox: only mounted while mail goes to the outbox (no SMTP configured). */
export function devRoutes(app: FastifyInstance, services: Services): void {
  publicRoute(app, 'devOutbox', async () => {
    const rows = await services.db.selectFrom('dev_outbox').selectAll().orderBy('id', 'asc').execute();
    return rows.map((r) => ({ to: r.recipient, subject: r.subject, text: r.body, sentAt: r.sent_at.toISOString() }));
  });
}
