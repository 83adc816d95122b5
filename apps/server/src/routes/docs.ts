import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  applyRenameRule,
  buildDocKey,
  keyOrder,
  parseDocKey,
  safeFileName,
  withDocumentExtension,
  type DocKeyParts,
} from '@vita-docs/core';
import { audit } from '../audit.js';
import type { UserRow } from '../auth/sessions.js';
import { clientDocTypes, clientFor, docPrefix } from '../clients/clients.js';
import { badRequest, HttpError } from '../http/errors.js';
import { userRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { isAllowedUploadType, UNSUPPORTED_TYPE_MESSAGE } from '../storage/filetypes.js';

/** Upload URLs live long enough for a slow phone connection; view/download URLs only seconds. */
const PUT_URL_SECONDS = 15 * 60;
const GET_URL_SECONDS = 60;

/**
 * Presigned URLs of the local store may be path-only; every answer is made absolute here, so no client
 * (the desktop kiosk's `app://` page, the headless intake) has to resolve one itself.
 */
function absolute(request: FastifyRequest, url: string): string {
  return url.startsWith('/') ? `${request.protocol}://${request.host}${url}` : url;
}

export function docRoutes(app: FastifyInstance, services: Services): void {
  const { db, store } = services;

  /** Parses a key and checks the caller may reach its client: 400 malformed, 404/403 otherwise. */
  const authorizeKey = async (user: UserRow, key: string): Promise<DocKeyParts> => {
    const parts = parseDocKey(key);
    if (!parts) throw badRequest('That file key is not valid.');
    await clientFor(db, user, parts.clientId);
    return parts;
  };

  const requireDocType = async (clientId: string, docType: string) => {
    if (!(await clientDocTypes(db, clientId)).includes(docType)) throw badRequest(`Unknown document type “${docType}”.`);
  };

  userRoute(app, 'presignUpload', async ({ user, params, body, request }) => {
    const client = await clientFor(db, user, params.id);
    await requireDocType(client.id, body.docType);
    if (!isAllowedUploadType(body.contentType)) throw new HttpError(415, UNSUPPORTED_TYPE_MESSAGE);
    const filename = safeFileName(withDocumentExtension(body.filename.trim(), body.contentType));
    // The numeric prefix orders files; bump it on the rare same-millisecond, same-name upload.
    let order = Date.now();
    let key = buildDocKey(client.id, body.docType, order, filename);
    while (await store.head(key)) key = buildDocKey(client.id, body.docType, ++order, filename);
    const signed = await store.presignPut(key, body.contentType, {
      expiresInSeconds: PUT_URL_SECONDS,
      maxBytes: services.config.maxUploadBytes,
    });
    return { url: absolute(request, signed.url), key, expiresAt: signed.expiresAt.toISOString() };
  });

  userRoute(app, 'listDocs', async ({ user, params, query }) => {
    const client = await clientFor(db, user, params.id);
    const objects = await store.list(docPrefix(client.id, query.docType));
    const items = objects
      .map((o) => ({ o, parts: parseDocKey(o.key) }))
      .filter((x): x is { o: (typeof objects)[number]; parts: DocKeyParts } => x.parts !== null)
      .sort((a, b) => keyOrder(a.o.key) - keyOrder(b.o.key))
      .map(({ o, parts }) => ({
        key: o.key,
        filename: parts.filename,
        size: o.size,
        docType: parts.docType,
        contentType: o.contentType,
        lastModified: o.lastModified.toISOString(),
      }));
    return { items };
  });

  userRoute(app, 'presignGet', async ({ user, body, request }) => {
    const parts = await authorizeKey(user, body.key);
    const signed = await store.presignGet(body.key, {
      expiresInSeconds: GET_URL_SECONDS,
      disposition: 'attachment',
      downloadName: body.downloadAs?.trim() ? safeFileName(body.downloadAs) : parts.filename,
    });
    await audit(db, { actor: user.email, action: 'doc.download', clientId: parts.clientId, keys: [body.key], ip: request.ip });
    return { url: absolute(request, signed.url), expiresAt: signed.expiresAt.toISOString() };
  });

  userRoute(app, 'presignView', async ({ user, body, request }) => {
    const parts = await authorizeKey(user, body.key);
    const signed = await store.presignGet(body.key, {
      expiresInSeconds: GET_URL_SECONDS,
      disposition: 'inline',
      downloadName: parts.filename,
    });
    await audit(db, { actor: user.email, action: 'doc.view', clientId: parts.clientId, keys: [body.key], ip: request.ip });
    return { url: absolute(request, signed.url), expiresAt: signed.expiresAt.toISOString() };
  });

  userRoute(app, 'deleteDocs', async ({ user, body, request }) => {
    // Every key is checked before anything is deleted: one foreign key refuses the whole request.
    const parsed = [];
    for (const key of new Set(body.keys)) parsed.push({ key, parts: await authorizeKey(user, key) });
    const keys = parsed.map((p) => p.key);
    // Recorded before the files go: a delete never happens unaudited.
    for (const clientId of new Set(parsed.map((p) => p.parts.clientId))) {
      const own = parsed.filter((p) => p.parts.clientId === clientId).map((p) => p.key);
      await audit(db, { actor: user.email, action: 'doc.delete', clientId, keys: own, ip: request.ip });
    }
    await store.delete(keys);
    return { ok: true as const, deleted: keys.length };
  });

  userRoute(app, 'renameDoc', async ({ user, body, request }) => {
    const parts = await authorizeKey(user, body.key);
    const requested = applyRenameRule(parts.filename, body.filename);
    if (requested === null) throw badRequest('Please enter a file name');
    const filename = safeFileName(requested);
    if (filename === parts.filename) return { ok: true as const, newKey: body.key, filename };
    const newKey = buildDocKey(parts.clientId, parts.docType, parts.order, filename);
    if (await store.head(newKey)) throw new HttpError(409, 'Another file in this category already has that name.');
    await audit(db, {
      actor: user.email,
      action: 'doc.rename',
      clientId: parts.clientId,
      keys: [body.key, newKey],
      ip: request.ip,
    });
    // Copy, then delete: a failure in between leaves both names, never neither.
    await store.copy(body.key, newKey);
    await store.delete([body.key]);
    return { ok: true as const, newKey, filename };
  });
}
