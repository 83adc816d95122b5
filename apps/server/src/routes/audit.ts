import type { FastifyInstance } from 'fastify';
import { canManageAllUsers, searchFold } from '@vita-docs/core/contract';
import type { Db } from '../db/database.js';
import { forbidden } from '../http/errors.js';
import { actorOf, userRoute } from '../http/route.js';
import type { Services } from '../services.js';

/**
 * The ids a client search means: the text itself (an id, maybe of a deleted client) and every client
 * whose name contains it, compared without case or accents. The names are folded here rather than in
 * SQL because PostgreSQL's accent folding (`unaccent`) is an extension the embedded server may lack;
 * a programme has hundreds or a few thousand clients, one narrow read.
 */
async function clientIdsFor(db: Db, text: string): Promise<string[]> {
  const wanted = searchFold(text);
  const rows = await db.selectFrom('clients').select(['id', 'first_name', 'last_name']).execute();
  const named = rows.filter((r) => searchFold(`${r.first_name} ${r.last_name}`).includes(wanted));
  return [text, ...named.map((r) => r.id)];
}

/** The admin's audit log, filtered and paged by id, each entry with its client's name beside the id. */
export function auditRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  userRoute(app, 'audit', async ({ user, query }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    // One more than asked: whether a next page exists, without counting.
    let q = db
      .selectFrom('audit_log')
      .leftJoin('clients', 'clients.id', 'audit_log.client_id')
      .selectAll('audit_log')
      .select(['clients.first_name', 'clients.last_name'])
      .orderBy('audit_log.id', 'desc')
      .limit(query.limit + 1);
    if (query.clientId) q = q.where('audit_log.client_id', '=', query.clientId);
    if (query.client) q = q.where('audit_log.client_id', 'in', await clientIdsFor(db, query.client));
    if (query.actor) q = q.where('audit_log.actor', '=', query.actor);
    if (query.action) q = q.where('audit_log.action', '=', query.action);
    if (query.from) q = q.where('audit_log.at', '>=', new Date(query.from));
    if (query.to) q = q.where('audit_log.at', '<', new Date(query.to));
    if (query.before) q = q.where('audit_log.id', '<', query.before);
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
        clientName: r.first_name === null ? null : `${r.first_name} ${r.last_name ?? ''}`.trim(),
        keys: r.keys,
        ip: r.ip,
        detail: r.detail,
      })),
    };
  });
}
