import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  applyRenameRule,
  buildDocKey,
  safeFileName,
  withDocumentExtension,
  type DocKeyParts,
} from '@vita-docs/core';
import { audit } from '../audit.js';
import type { UserRow } from '../auth/sessions.js';
import { assertClientAccess, CLIENT_NOT_FOUND, clientFor, hasDocType } from '../clients/clients.js';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors.js';
import {
  deleteDocumentRows,
  extendPending,
  findDocument,
  findSameUpload,
  listCategory,
  moveDocumentRow,
  reserveDocument,
  toDocItem,
  toStored,
} from '../documents/documents.js';
import { settle, settleArrived } from '../documents/lifecycle.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import { JsonText, userRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { isAllowedUploadType, tooLarge, UNSUPPORTED_TYPE_MESSAGE } from '../storage/filetypes.js';
import { assertDocKey } from '../storage/keys.js';
import { fileGone, StorageError } from '../storage/types.js';

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
    let parts: DocKeyParts;
    try {
      parts = assertDocKey(key);
    } catch {
      throw badRequest('That file key is not valid.');
    }
    await clientFor(db, user, parts.clientId);
    return parts;
  };

  const requireDocType = async (clientId: string, docType: string) => {
    if (!(await hasDocType(db, clientId, docType))) throw badRequest(`Unknown document type “${docType}”.`);
  };

  userRoute(app, 'presignUpload', async ({ user, params, body, request }) => {
    const client = await clientFor(db, user, params.id);
    await requireDocType(client.id, body.docType);
    if (!isAllowedUploadType(body.contentType)) throw new HttpError(415, UNSUPPORTED_TYPE_MESSAGE);
    const maxBytes = services.config.maxUploadBytes;
    if (body.size !== undefined && body.size > maxBytes) throw tooLarge(maxBytes);
    // A retake takes the replaced file's place in the order (only a file of this client and category).
    const replaced = body.replaces ? await findDocument(db, body.replaces) : undefined;
    const inPlace = replaced?.client_id === client.id && replaced.doc_type === body.docType;
    const filename = safeFileName(withDocumentExtension(body.filename.trim(), body.contentType));
    const expiresAt = new Date(Date.now() + PUT_URL_SECONDS * 1000);
    // Never twice: the same bytes under the same name in this category are the same upload (a retry
    // whose answer was lost). Stored → say so, nothing to send; pending → a new URL for that key.
    const same =
      body.sha256 !== undefined && !body.replaces
        ? await findSameUpload(db, { clientId: client.id, docType: body.docType, filename, sha256: body.sha256 })
        : undefined;
    if (same?.state === 'stored') return { url: '', key: same.key, expiresAt: expiresAt.toISOString(), alreadyStored: true as const };
    if (same) await extendPending(db, same.key, expiresAt);
    const key =
      same?.key ??
      (await reserveDocument(db, {
        order: inPlace ? Number(replaced.ord) : undefined,
        clientId: client.id,
        docType: body.docType,
        filename,
        contentType: body.contentType,
        maxBytes,
        expiresAt,
        uploadedBy: user.email,
        declaredSize: body.size,
        declaredSha256: body.sha256,
      }).catch((err: unknown) => {
        // Another request deleted the client between the check above and this insert.
        throw isForeignKeyViolation(err) ? notFound(CLIENT_NOT_FOUND) : err;
      }));
    const signed = await store.presignPut(key, body.contentType, {
      expiresInSeconds: PUT_URL_SECONDS,
      maxBytes,
      ...(body.size !== undefined && { size: body.size }),
      ...(body.sha256 !== undefined && { sha256: body.sha256 }),
    });
    return {
      url: absolute(request, signed.url),
      key,
      expiresAt: signed.expiresAt.toISOString(),
      ...(Object.keys(signed.headers).length > 0 && { headers: signed.headers }),
    };
  });

  userRoute(app, 'completeUpload', async ({ user, body }) => {
    const parts = await authorizeKey(user, body.key);
    const row = await findDocument(db, body.key);
    if (!row || row.client_id !== parts.clientId) throw notFound('That upload was not started, or it was deleted.');
    if (row.state === 'stored') return { ok: true as const, item: toDocItem(toStored(row)) };
    const settled = await settle(services, row);
    if (settled.state === 'refused') throw settled.error;
    if (settled.state === 'waiting') throw new HttpError(409, 'The file has not arrived. Please upload it again.');
    return { ok: true as const, item: toDocItem(settled.document) };
  });

  userRoute(app, 'listDocs', async ({ user, params, query }) => {
    let listing = await listCategory(db, params.id, query.docType);
    assertClientAccess(user, listing?.client);
    if (listing?.pending && (await settleArrived(services, params.id))) {
      listing = await listCategory(db, params.id, query.docType);
    }
    return new JsonText(`{"items":${listing?.itemsJson ?? '[]'}}`);
  });

  /**
   * The document must be listed: a pending (unverified) upload or bytes whose row is gone are not
   * served. An S3 upload that arrived without `complete` is settled first.
   */
  const requireStored = async (key: string): Promise<void> => {
    const row = await findDocument(db, key);
    const stored = row?.state === 'pending' ? (await settle(services, row)).state === 'stored' : row?.state === 'stored';
    if (!stored) throw fileGone();
  };

  userRoute(app, 'presignGet', async ({ user, body, request }) => {
    const parts = await authorizeKey(user, body.key);
    await requireStored(body.key);
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
    await requireStored(body.key);
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
    // Rows first: from here the files are not listed; if removing the bytes fails, the sweeper will.
    await deleteDocumentRows(db, keys);
    await store.delete(keys).catch((err: unknown) => services.log.warn({ err, keys }, 'bytes left for the sweeper'));
    return { ok: true as const, deleted: keys.length };
  });

  userRoute(app, 'renameDoc', async ({ user, body, request }) => {
    const parts = await authorizeKey(user, body.key);
    const requested = applyRenameRule(parts.filename, body.filename);
    if (requested === null) throw badRequest('Please enter a file name');
    const filename = safeFileName(requested);
    if (filename === parts.filename) return { ok: true as const, newKey: body.key, filename };
    await requireStored(body.key);
    const newKey = buildDocKey(parts.clientId, parts.docType, parts.order, filename);
    const taken = () => new HttpError(409, 'Another file in this category already has that name.');
    if (await findDocument(db, newKey)) {
      // Taken — or by this very file, renamed there a moment ago (a second click): then it is gone.
      await requireStored(body.key);
      throw taken();
    }
    await audit(db, {
      actor: user.email,
      action: 'doc.rename',
      clientId: parts.clientId,
      keys: [body.key, newKey],
      ip: request.ip,
    });
    // Bytes copied, then the row moved, then the old bytes removed: a stop at any point leaves the
    // document listed with its bytes; an extra copy has no row and is swept. The copy is made before
    // any database connection is taken: it takes as long as the file is large (a second under load),
    // and holding one of the pool's few connections that long stalled everyone else's requests.
    await store.copy(body.key, newKey).catch(async (err: unknown) => {
      if (!(err instanceof StorageError && err.kind === 'conflict')) throw err;
      // The name's bytes are there already: another rename of this file to this name (a second
      // click) got there first — it is gone if that one finished — or, rarely, another file's.
      await requireStored(body.key);
      throw taken();
    });
    // The row is moved only if the file is still there: another request may have renamed or deleted
    // it while its bytes were copied. Its row is locked for the move, so of two renames one moves it.
    const moved = await db
      .transaction()
      .execute(async (trx) => {
        const locked = await trx
          .selectFrom('documents')
          .select('key')
          .where('key', '=', body.key)
          .where('state', '=', 'stored')
          .forUpdate()
          .executeTakeFirst();
        if (!locked) return false;
        await moveDocumentRow(trx, body.key, newKey, filename);
        return true;
      })
      .catch((err: unknown) => {
        // The copy stays either way: on a unique violation another file's row lists that key (its
        // bytes); otherwise a commit whose answer was lost may list it. Unlisted, it is swept.
        throw isUniqueViolation(err) ? taken() : err;
      });
    if (!moved) {
      // Renamed or deleted by another request while copying: the copy is ours to remove, unless that
      // request renamed the file to this same name (its row lists the same bytes).
      if (!(await findDocument(db, newKey))) await store.delete([newKey]);
      throw fileGone();
    }
    await store.delete([body.key]).catch((err: unknown) => services.log.warn({ err }, 'old bytes left for the sweeper'));
    return { ok: true as const, newKey, filename };
  });
}
