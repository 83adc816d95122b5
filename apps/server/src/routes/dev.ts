import type { FastifyInstance } from 'fastify';
import { forbidden } from '../http/errors.js';
import { publicRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { isDirectLocal } from '../http/local.js';
import { outboxMails } from '../mail/mailer.js';

/**
 * The development outbox: only mounted while mail goes to the outbox (no SMTP configured, and not
 * turned off with DEV_OUTBOX=false), and only answered to a caller on this machine itself — it holds
 * sign-in and reset codes. A request relayed by a proxy on this machine carries a forwarding header
 * of some kind, and is refused whatever socket it arrives on.
 */
export function devRoutes(app: FastifyInstance, services: Services): void {
  publicRoute(app, 'devOutbox', async ({ request }) => {
    if (!isDirectLocal(request))
      throw forbidden('The development outbox is only available on the server machine.');
    const rows = await outboxMails(services.db);
    return rows.map((r) => ({
      to: r.recipient,
      subject: r.subject,
      text: r.body,
      sentAt: r.sent_at.toISOString(),
    }));
  });
}
