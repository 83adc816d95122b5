import type { FastifyInstance } from 'fastify';
import { canManageAllClients, canReassignClients } from '@vita-docs/core/contract';
import { audit } from '../audit.js';
import type { UserRow } from '../auth/sessions.js';
import {
  CLIENT_NOT_FOUND,
  deleteClientRow,
  docPrefix,
  findClient as findClientById,
  toClient,
  type ClientRow,
} from '../clients/clients.js';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors.js';
import { actorOf, userRoute } from '../http/route.js';
import {
  approvedAccounts,
  findClientToMove,
  orphanedClients,
  setClientOwner,
  type ClientLookup,
} from '../reassignment/reassignment.js';
import type { Services } from '../services.js';
import { findUser } from '../users/users.js';

/** The database handle, passed on to the domain modules (routes build no statement). */
type Db = Services['db'];

function requireReassigner(user: UserRow): void {
  if (!canReassignClients(actorOf(user))) throw forbidden();
}

/**
 * Officers look after orphans and their own clients; only admins move a client away from another
 * active volunteer (that would open its documents to the officer).
 */
function requireMayMove(user: UserRow, client: Pick<ClientRow, 'created_by'>): void {
  requireReassigner(user);
  if (!user.is_admin && client.created_by !== null && client.created_by !== user.email) {
    throw forbidden('Officers may reassign orphaned clients and their own; ask an admin for this one.');
  }
}

/** Finds a client by id, or by owner + email as the admin calls identify it. */
async function findClient(db: Db, by: ClientLookup): Promise<ClientRow> {
  const row = await findClientToMove(db, by);
  if (row === 'none') throw notFound(CLIENT_NOT_FOUND);
  if (row === 'several')
    throw badRequest('Several orphaned clients have this email; send the clientId as well.');
  return row;
}

/** Gives a client to an approved account; the old owner is remembered as previous. */
async function reassign(db: Db, actor: UserRow, client: ClientRow, newVolunteerEmail: string, ip: string) {
  const target = await findUser(db, newVolunteerEmail);
  if (!target || !target.approved) throw badRequest('The new volunteer must be an approved account.');
  const row = await setClientOwner(
    db,
    client.id,
    target.email,
    client.created_by ?? client.previous_created_by,
  );
  // Deleted by another request since it was found.
  if (row === 'gone') throw notFound(CLIENT_NOT_FOUND);
  if (row === 'duplicate') throw new HttpError(409, `${target.email} already has a client with this email.`);
  if (row === 'no-account') throw badRequest('The new volunteer must be an approved account.');
  await audit(db, {
    actor: actor.email,
    action: 'client.reassign',
    clientId: client.id,
    ip,
    detail: `${client.created_by ?? `(orphan of ${client.previous_created_by ?? 'unknown'})`} -> ${target.email}`,
  });
  return { ok: true as const, client: toClient(row) };
}

/** What a reassigner picks from: the orphaned clients and the approved accounts. */
function reassignListRoutes(app: FastifyInstance, db: Db): void {
  userRoute(app, 'orphanedClients', async ({ user }) => {
    requireReassigner(user);
    const rows = await orphanedClients(db);
    return { items: rows.map(toClient) };
  });

  userRoute(app, 'volunteers', async ({ user }) => {
    requireReassigner(user);
    const rows = await approvedAccounts(db);
    return {
      items: rows.map((r) => ({
        email: r.email,
        firstName: r.first_name,
        lastName: r.last_name,
        role: r.role,
        isAdmin: r.is_admin,
      })),
    };
  });
}

/** Moving a client: an orphan to a volunteer, or (with its owner's details) any client. */
function moveRoutes(app: FastifyInstance, db: Db): void {
  userRoute(app, 'reassignOrphan', async ({ user, body, request }) => {
    requireReassigner(user);
    const client = await findClientById(db, body.clientId);
    if (!client) throw notFound(CLIENT_NOT_FOUND);
    if (client.created_by !== null)
      throw new HttpError(409, `This client already belongs to ${client.created_by}.`);
    return reassign(db, user, client, body.newVolunteerEmail, request.ip);
  });

  userRoute(app, 'clientMeta', async ({ user, params }) => {
    requireReassigner(user);
    const row = await findClientById(db, params.id);
    if (!row) throw notFound(CLIENT_NOT_FOUND);
    requireMayMove(user, row);
    return { createdBy: row.created_by, clientEmail: row.email };
  });

  userRoute(app, 'reassignClient', async ({ user, body, request }) => {
    requireReassigner(user);
    const client = await findClient(db, {
      clientId: body.clientId,
      owner: body.from,
      clientEmail: body.clientEmail,
    });
    requireMayMove(user, client);
    return reassign(db, user, client, body.newVolunteerEmail, request.ip);
  });
}

/** Deleting a client with its documents (admins). */
function deleteClientRoute(app: FastifyInstance, services: Services): void {
  const { db, store } = services;
  userRoute(app, 'deleteClient', async ({ user, body, request }) => {
    if (!canManageAllClients(actorOf(user))) throw forbidden();
    const client = await findClient(db, {
      clientId: body.clientId,
      owner: body.createdBy,
      clientEmail: body.clientEmail,
    });
    // Recorded before anything goes. The client row next (its documents' rows go with it), then the
    // bytes; if removing them fails, the sweeper does (nothing refers to them any more).
    await audit(db, {
      actor: user.email,
      action: 'client.delete',
      clientId: client.id,
      ip: request.ip,
      detail: `${client.first_name} ${client.last_name} <${client.email}>`,
    });
    await deleteClientRow(db, client.id);
    await store
      .deletePrefix(docPrefix(client.id))
      .catch((err: unknown) => services.log.warn({ err }, 'client files left for the sweeper'));
    return { ok: true as const };
  });
}

/** Officer and admin routes that look after clients: orphans, reassignment, deletion. */
export function reassignRoutes(app: FastifyInstance, services: Services): void {
  reassignListRoutes(app, services.db);
  moveRoutes(app, services.db);
  deleteClientRoute(app, services);
}
