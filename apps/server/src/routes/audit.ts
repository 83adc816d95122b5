import type { FastifyInstance } from 'fastify';
import { canManageAllUsers } from '@vita-docs/core';
import { forbidden } from '../http/errors.js';
import { actorOf, userRoute } from '../http/route.js';
import type { Services } from '../services.js';

/** The admin's audit log, filtered and paged by id. */
export function auditRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  userRoute(app, 'audit', async ({ user, query }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    // One more than asked: whether a next page exists, without counting.
    let q = db
      .selectFrom('audit_log')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(query.limit + 1);
    if (query.clientId) q = q.where('client_id', '=', query.clientId);
    if (query.actor) q = q.where('actor', '=', query.actor);
    if (query.action) q = q.where('action', '=', query.action);
    if (query.from) q = q.where('at', '>=', new Date(query.from));
    if (query.to) q = q.where('at', '<', new Date(query.to));
    if (query.before) q = q.where('id', '<', query.before);
    const found = await q.execute();
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
        keys: r.keys,
        ip: r.ip,
        detail: r.detail,
      })),
    };
  });
}
