import type { FastifyInstance } from 'fastify';
import { forbidden } from '../http/errors.js';
import { publicRoute } from '../http/route.js';
import type { Services } from '../services.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The development outbox: only mounted while mail goes to the outbox (no SMTP configured), and only
 * answered on this machine — it holds sign-in and reset codes. A request relayed by a proxy (which
 * adds X-Forwarded-For) is not local, whatever socket it arrives on.
 */
export function devRoutes(app: FastifyInstance, services: Services): void {
  publicRoute(app, 'devOutbox', async ({ request }) => {
    const local = LOOPBACK.has(request.socket.remoteAddress ?? '') && request.headers['x-forwarded-for'] === undefined;
    if (!local) throw forbidden('The development outbox is only available on the server machine.');
    const rows = await services.db.selectFrom('dev_outbox').selectAll().orderBy('id', 'asc').execute();
    return rows.map((r) => ({ to: r.recipient, subject: r.subject, text: r.body, sentAt: r.sent_at.toISOString() }));
  });
}
