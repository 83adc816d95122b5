import type { FastifyInstance } from 'fastify';
import {
  canManageAllClients,
  categoryName,
  FIXED_CATEGORIES,
  isFixedCategory,
} from '@vita-docs/core/contract';
import { audit } from '../audit.js';
import { randomToken } from '../auth/crypto.js';
import { hashPin } from '../auth/passwords.js';
import {
  assertClientAccess,
  CLIENT_NOT_FOUND,
  clientDocTypes,
  clientFor,
  deleteDocTypeRows,
  docPrefix,
  findCustomDocType,
  insertClient,
  insertDocType,
  listClientRows,
  markSubmitted,
  toClient,
  unmarkSubmitted,
} from '../clients/clients.js';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors.js';
import { actorOf, userRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { categoryStatus } from '../documents/documents.js';
import { settleArrived } from '../documents/lifecycle.js';
import { submissionStatus } from '../retention.js';

/** The client routes: the clients themselves and their document categories ({@link categoryRoutes}). */
export function clientRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  userRoute(app, 'createClient', async ({ user, body, request }) => {
    const pinHash = body.pin ? await hashPin(body.pin) : null;
    const row = await insertClient(db, {
      id: randomToken(12),
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      phone: body.phone,
      pinHash,
      createdBy: user.email,
    });
    if (row === 'duplicate') throw new HttpError(409, 'You already have a client with this email.');
    await audit(db, { actor: user.email, action: 'client.create', clientId: row.id, ip: request.ip });
    return { ok: true as const, client: toClient(row) };
  });

  userRoute(app, 'listClients', async ({ user }) => {
    const rows = await listClientRows(db, user.email);
    return { items: rows.map(toClient) };
  });

  userRoute(app, 'listAllClients', async ({ user }) => {
    if (!canManageAllClients(actorOf(user))) throw forbidden();
    const rows = await listClientRows(db);
    return { items: rows.map(toClient) };
  });

  submissionRoutes(app, services);
  categoryRoutes(app, services);
}

/**
 * Marking a client submitted, undoing it, and where it stands with the retention rule
 * (docs/behaviour.md#retention). The client's volunteer and admins, like its documents.
 */
function submissionRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  userRoute(app, 'submitClient', async ({ user, params, request }) => {
    const client = await clientFor(db, user, params.id);
    const submittedAt = await markSubmitted(db, client.id, user.email);
    // Deleted by another request since it was found.
    if (!submittedAt) throw notFound(CLIENT_NOT_FOUND);
    await audit(db, { actor: user.email, action: 'client.submit', clientId: client.id, ip: request.ip });
    return { ok: true as const, submittedAt: submittedAt.toISOString() };
  });

  userRoute(app, 'submission', async ({ user, params }) => {
    const client = await clientFor(db, user, params.id);
    return submissionStatus(db, client, new Date());
  });

  userRoute(app, 'unsubmitClient', async ({ user, params, request }) => {
    const client = await clientFor(db, user, params.id);
    // Until the rule deleted the documents under this submission: after that there is nothing to keep.
    const row = await unmarkSubmitted(db, client.id);
    if (!row) {
      throw new HttpError(
        409,
        client.submitted_at
          ? 'The documents were already deleted under this submission.'
          : 'This client is not submitted.',
      );
    }
    await audit(db, { actor: user.email, action: 'client.unsubmit', clientId: client.id, ip: request.ip });
    return submissionStatus(db, row, new Date());
  });
}

/** A client's categories: the list, which have files, adding and deleting custom ones. */
function categoryRoutes(app: FastifyInstance, services: Services): void {
  const { db, store } = services;

  userRoute(app, 'docTypes', async ({ user, params }) => {
    const client = await clientFor(db, user, params.id);
    return { types: await clientDocTypes(db, client.id) };
  });

  userRoute(app, 'docStatus', async ({ user, params }) => {
    let status = await categoryStatus(db, params.id);
    assertClientAccess(user, status?.client);
    if (status?.pending && (await settleArrived(services, params.id)))
      status = await categoryStatus(db, params.id);
    const withFiles = new Set(status?.withFiles);
    return Object.fromEntries(
      [...FIXED_CATEGORIES, ...(status?.custom ?? [])].map((t) => [t, withFiles.has(t)]),
    );
  });

  userRoute(app, 'addDocType', async ({ user, params, body, request }) => {
    const client = await clientFor(db, user, params.id);
    const name = categoryName(body.template, body.note);
    const existing = await clientDocTypes(db, client.id);
    const duplicate = badRequest(`“${name}” already exists for this client.`);
    if (existing.includes(name)) throw duplicate;
    const added = await insertDocType(db, client.id, name);
    if (added === 'duplicate') throw duplicate;
    // Another request deleted the client between the check above and this insert.
    if (added === 'gone') throw notFound(CLIENT_NOT_FOUND);
    await audit(db, {
      actor: user.email,
      action: 'doctype.add',
      clientId: client.id,
      ip: request.ip,
      detail: name,
    });
    return { ok: true as const, docType: name };
  });

  userRoute(app, 'deleteDocType', async ({ user, params, query, request }) => {
    const client = await clientFor(db, user, params.id);
    if (isFixedCategory(query.docType))
      throw badRequest('The five standard document types cannot be deleted.');
    const name = await findCustomDocType(db, client.id, query.docType);
    if (name === undefined) throw notFound('Document type not found.');
    await audit(db, {
      actor: user.email,
      action: 'doctype.delete',
      clientId: client.id,
      ip: request.ip,
      detail: name,
    });
    // Rows first, in one transaction: the category and its documents go together. Then the bytes; if
    // that fails, the sweeper removes them (nothing refers to them any more).
    await deleteDocTypeRows(db, client.id, name);
    await store
      .deletePrefix(docPrefix(client.id, name))
      .catch((err: unknown) => services.log.warn({ err }, 'category files left for the sweeper'));
    return { ok: true as const };
  });
}
