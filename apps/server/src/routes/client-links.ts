/**
 * The volunteer's side of requesting documents from a client (docs/behaviour.md#requesting-documents-from-a-client):
 * create (and mail) a request link, see what came back, revoke it, and the dashboard's `New from clients`.
 * Who may: the documents' rule ({@link clientFor}), the client's volunteer and admins. A link's status
 * shows the client's uploads, notes and email, and creating one mails the client: an officer, who may
 * reassign a client but not read its documents, reaches none of it.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { linkSchemas } from '@vita-docs/core/contract';
import { clientLinkText } from '@vita-docs/core/contract';
import type { z } from 'zod/mini';

type CreateLink = z.output<typeof linkSchemas.CreateLinkRequest>;
import { audit } from '../audit.js';
import { randomToken } from '../auth/crypto.js';
import type { UserRow } from '../auth/sessions.js';
import { clientFor, hasDocType } from '../clients/clients.js';
import {
  claimLinkRequest,
  closeOpenLink,
  doneUnseen,
  insertLink,
  linkStatus,
  markDoneLinksSeen,
} from '../client-links/links.js';
import { badRequest } from '../http/errors.js';
import { serverOrigin } from '../http/origin.js';
import { userRoute } from '../http/route.js';
import type { Services } from '../services.js';

const NO_WAY_TO_PROVE = "Add the client's email or a client PIN first.";

/**
 * Where the link points: PUBLIC_URL, else the address this server listens on — never the request's
 * `Host`, which would let whoever sends (or forwards) the request mail the client a link to another site.
 */
function linkOrigin(services: Services, request: FastifyRequest): string {
  if (!services.config.publicUrl)
    services.log.warn(
      'A client request link points at this server’s own address: set PUBLIC_URL to the address clients open.',
    );
  return serverOrigin(services.config, request.server.server);
}

/** Creates (and mails) a request link; a request still open is replaced. */
async function createLink(
  services: Services,
  user: UserRow,
  clientId: string,
  body: CreateLink,
  request: FastifyRequest,
) {
  const { db } = services;
  const client = await clientFor(db, user, clientId);
  if (!client.email && client.pin_hash === null) throw badRequest(NO_WAY_TO_PROVE);
  const categories = [...new Set(body.categories)];
  for (const name of categories)
    if (!(await hasDocType(db, client.id, name))) throw badRequest(`Unknown document type “${name}”.`);
  // Counted once the request is known to be valid: a typo uses up nothing.
  await claimLinkRequest(db, user.email, client.id);
  // 256 random bits in the fragment; only the hash is kept.
  const token = randomToken(32);
  const id = randomUUID();
  const expiresAt = new Date(Date.now() + body.days * 24 * 3600_000);
  await insertLink(
    db,
    {
      id,
      token,
      clientId: client.id,
      createdBy: user.email,
      categories,
      message: body.message?.trim() || null,
      language: body.language,
      expiresAt,
    },
    { ip: request.ip, detail: `${categories.length} categories, ${body.days} days, ${body.language}` },
  );
  const url = `${linkOrigin(services, request)}/u#${token}`;
  let emailSent = false;
  if (client.email) {
    const lang = body.language;
    const message = body.message?.trim();
    emailSent = await services.mailer.send({
      to: client.email,
      subject: clientLinkText(lang, 'mailSubject'),
      text:
        clientLinkText(lang, 'mailBody', { firstName: client.first_name, days: body.days, url }) +
        (message ? `\n${clientLinkText(lang, 'mailMessage', { message })}` : ''),
    });
    if (emailSent)
      await audit(db, { actor: user.email, action: 'link.send', clientId: client.id, ip: request.ip });
  }
  return {
    ok: true as const,
    url,
    expiresAt: expiresAt.toISOString(),
    days: body.days,
    emailedTo: client.email || null,
    emailSent,
  };
}

export function clientLinkRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  userRoute(app, 'createClientLink', ({ user, params, body, request }) =>
    createLink(services, user, params.id, body, request),
  );

  userRoute(app, 'clientLinkStatus', async ({ user, params }) => {
    const client = await clientFor(db, user, params.id);
    // The owner has now seen what came back: it leaves the dashboard's `New from clients`.
    if (client.created_by === user.email) await markDoneLinksSeen(db, client.id);
    return linkStatus(db, client.id);
  });

  userRoute(app, 'revokeClientLink', async ({ user, params, request }) => {
    const client = await clientFor(db, user, params.id);
    const closed = await closeOpenLink(db, client.id, 'revoked');
    if (closed)
      await audit(db, { actor: user.email, action: 'link.revoke', clientId: client.id, ip: request.ip });
    return { ok: true as const };
  });

  userRoute(app, 'newFromClients', async ({ user }) => {
    const rows = await doneUnseen(db, user.email);
    return {
      items: rows.map((r) => ({
        clientId: r.id,
        firstName: r.first_name,
        lastName: r.last_name,
        doneAt: (r.closed_at ?? new Date()).toISOString(),
      })),
    };
  });
}
