import type { FastifyInstance } from 'fastify';
import { canManageAllUsers } from '@vita-docs/core/contract';
import { readAuditLog } from '../audit.js';
import { forbidden } from '../http/errors.js';
import { actorOf, userRoute } from '../http/route.js';
import type { Services } from '../services.js';

/** The admin's audit log, filtered and paged by id, each entry with its client's name beside the id. */
export function auditRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  userRoute(app, 'audit', async ({ user, query }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    // One more than asked: whether a next page exists, without counting.
    const found = await readAuditLog(db, { ...query, limit: query.limit + 1 });
    const rows = found.slice(0, query.limit);
    const last = rows.at(-1);
    return {
      next: found.length > query.limit && last ? last.id : null,
      items: rows.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        actor: r.actor,
        action: r.action,
        clientId: r.client_id,
        clientName: r.first_name === null ? null : `${r.first_name} ${r.last_name ?? ''}`.trim(),
        keys: r.keys,
        ip: r.ip,
        detail: r.detail,
      })),
    };
  });
}
