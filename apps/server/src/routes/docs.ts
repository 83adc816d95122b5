import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  applyRenameRule,
  buildDocKey,
  documentFileName,
  messages,
  type DocKeyParts,
} from '@vita-docs/core/contract';
import { audit } from '../audit.js';
import type { UserRow } from '../auth/sessions.js';
import {
  assertClientAccess,
  CLIENT_NOT_FOUND,
  clientFor,
  ensureMoveTarget,
  hasDocType,
} from '../clients/clients.js';
import {
  deleteDocumentRows,
  findDocument,
  listCategory,
  reserveStaffUpload,
  toDocItem,
  toStored,
} from '../documents/documents.js';
import { refusalOf, settle, settleArrived } from '../documents/lifecycle.js';
import { presignUpload } from '../documents/presign.js';
import { moveDocument } from '../documents/rename.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import { JsonText, userRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { assertDocKey, documentRef } from '../storage/keys.js';
import { fileGone, LINK_SECONDS } from '../storage/types.js';

/** The database handle, passed on to the domain modules (routes build no statement). */
type Db = Services['db'];

const GET_URL_SECONDS = LINK_SECONDS.GET;
const NO_NAME = messages.renameEmpty;

/** Where this request was sent, for making a path-only URL absolute. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** A signed URL made absolute (a local store's may be path-only). */
function absolute(request: FastifyRequest, url: string): string {
  return url.startsWith('/') ? `${originOf(request)}${url}` : url;
}

/** Parses a key and checks the caller may reach its client: 400 malformed, 404/403 otherwise. */
async function authorizeKey(db: Db, user: UserRow, key: string): Promise<DocKeyParts> {
  let parts: DocKeyParts;
  try {
    parts = assertDocKey(key);
  } catch {
    throw badRequest('That file key is not valid.');
  }
  await clientFor(db, user, parts.clientId);
  return parts;
}

/**
 * The document must be listed: a pending (unverified) upload or bytes whose row is gone are not
 * served. An S3 upload that arrived without `complete` is settled first. Returns its stored type.
 */
async function requireStored(services: Services, key: string): Promise<{ contentType: string }> {
  const row = await findDocument(services.db, key);
  if (row?.state === 'pending') {
    const settled = await settle(services, row);
    if (settled.state === 'stored') return { contentType: settled.document.contentType };
  } else if (row?.state === 'stored') {
    return { contentType: row.content_type };
  }
  throw fileGone();
}

/**
 * What a `complete` with no upload of its client's to settle answers: the refusal when the bytes were
 * refused after they arrived (a list or the sweeper settled them first), else "not started".
 */
async function noUpload(db: Db, key: string, clientId: string, row: unknown): Promise<Error> {
  const refusal = row ? undefined : await refusalOf(db, key, { clientId });
  return refusal ?? notFound('That upload was not started, or it was deleted.');
}

/** The document routes: uploads ({@link uploadRoutes}) and the stored files ({@link storedFileRoutes}). */
export function docRoutes(app: FastifyInstance, services: Services): void {
  uploadRoutes(app, services);
  storedFileRoutes(app, services);
}

/** Presigning an upload, completing it, and the category's list (which settles arrived uploads). */
function uploadRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  userRoute(app, 'presignUpload', async ({ user, params, body, request }) => {
    const client = await clientFor(db, user, params.id);
    if (!(await hasDocType(db, client.id, body.docType)))
      throw badRequest(`Unknown document type “${body.docType}”.`);
    // A retake takes the replaced file's place in the order (only a file of this client and category).
    const replaced = body.replaces ? await findDocument(db, body.replaces) : undefined;
    const inPlace = replaced?.client_id === client.id && replaced.doc_type === body.docType;
    return presignUpload(
      services,
      {
        clientId: client.id,
        docType: body.docType,
        filename: body.filename,
        contentType: body.contentType,
        size: body.size,
        sha256: body.sha256,
        uploadedBy: user.email,
        sameAs: body.replaces ? undefined : 'staff',
        order: inPlace ? Number(replaced.ord) : undefined,
      },
      (reservation) =>
        reserveStaffUpload(db, reservation).then((key) => {
          // Another request deleted the client between the check above and this insert.
          if (key === undefined) throw notFound(CLIENT_NOT_FOUND);
          return key;
        }),
      originOf(request),
    );
  });

  userRoute(app, 'completeUpload', async ({ user, body, request }) => {
    const parts = await authorizeKey(db, user, body.key);
    const row = await findDocument(db, body.key);
    if (!row || row.client_id !== parts.clientId || row.state === 'claimed')
      throw await noUpload(db, body.key, parts.clientId, row);
    if (row.state === 'stored') return { ok: true as const, item: toDocItem(toStored(row)) };
    const settled = await settle(services, row, { ip: request.ip });
    if (settled.state === 'refused') throw settled.error;
    if (settled.state === 'waiting')
      throw new HttpError(409, 'The file has not arrived. Please upload it again.');
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
}

/** Links to view or download a stored file, deleting files, renaming one ({@link moveRoute}: moving one). */
function storedFileRoutes(app: FastifyInstance, services: Services): void {
  const { db, store } = services;

  /**
   * A view (`inline`) or download (`attachment`) link, audited first: the link carries that entry,
   * and each fetch of it is audited under it.
   */
  const signedLink = async (
    user: UserRow,
    key: string,
    request: FastifyRequest,
    disposition: 'inline' | 'attachment',
    downloadAs?: string,
  ) => {
    const parts = await authorizeKey(db, user, key);
    const { contentType } = await requireStored(services, key);
    const wanted = downloadAs?.trim() ? documentFileName(downloadAs, contentType) : null;
    const action = disposition === 'inline' ? 'doc.view' : 'doc.download';
    const issuedUnder = await audit(db, {
      actor: user.email,
      action,
      clientId: parts.clientId,
      keys: [key],
      ip: request.ip,
    });
    const signed = await store.presignGet(key, {
      expiresInSeconds: GET_URL_SECONDS,
      disposition,
      downloadName: wanted ?? documentFileName(parts.filename, contentType) ?? parts.filename,
      issuedUnder,
    });
    return { url: absolute(request, signed.url), expiresAt: signed.expiresAt.toISOString() };
  };

  userRoute(app, 'presignGet', ({ user, body, request }) =>
    signedLink(user, body.key, request, 'attachment', body.downloadAs),
  );
  userRoute(app, 'presignView', ({ user, body, request }) => signedLink(user, body.key, request, 'inline'));

  userRoute(app, 'deleteDocs', async ({ user, body, request }) => {
    // Every key is checked before anything is deleted: one foreign key refuses the whole request.
    const parsed = [];
    for (const key of new Set(body.keys)) parsed.push({ key, parts: await authorizeKey(db, user, key) });
    const keys = parsed.map((p) => p.key);
    // Recorded before the files go: a delete never happens unaudited.
    for (const clientId of new Set(parsed.map((p) => p.parts.clientId))) {
      const own = parsed.filter((p) => p.parts.clientId === clientId).map((p) => p.key);
      await audit(db, { actor: user.email, action: 'doc.delete', clientId, keys: own, ip: request.ip });
    }
    // Rows first: from here the files are not listed; if removing the bytes fails, the sweeper will.
    // A key a rename holds is the rename's: its bytes are not this request's to remove.
    const deleted = await deleteDocumentRows(db, keys, { keepClaims: true });
    await store
      .delete(deleted)
      .catch((err: unknown) =>
        services.log.warn({ err, documents: deleted.map(documentRef) }, 'bytes left for the sweeper'),
      );
    return { ok: true as const, deleted: keys.length };
  });

  userRoute(app, 'renameDoc', async ({ user, body, request }) => {
    const parts = await authorizeKey(db, user, body.key);
    const requested = applyRenameRule(parts.filename, body.filename);
    if (requested === null) throw badRequest(NO_NAME);
    const { contentType } = await requireStored(services, body.key);
    // Whatever is asked, the name keeps its real type's extension (`statement.cmd` → `statement.cmd.pdf`).
    const filename = documentFileName(requested, contentType);
    if (filename === null) throw badRequest(NO_NAME);
    if (filename === parts.filename) return { ok: true as const, newKey: body.key, filename };
    const newKey = buildDocKey(parts.clientId, parts.docType, parts.order, filename);
    const taken = () => new HttpError(409, 'Another file in this category already has that name.');
    if (await findDocument(db, newKey)) {
      // Taken — or by this very file, renamed there a moment ago (a second click): then it is gone.
      await requireStored(services, body.key);
      throw taken();
    }
    const result = await moveDocument(
      services,
      { key: body.key, newKey, filename, clientId: parts.clientId },
      { actor: user.email, ip: request.ip },
    );
    if (result === 'gone') throw fileGone();
    if (result === 'taken') {
      // Taken — or by this very file, renamed there a moment ago (a second click): then it is gone.
      await requireStored(services, body.key);
      throw taken();
    }
    return { ok: true as const, newKey, filename };
  });
  moveRoute(app, services);
}

/** Moving a file to another category of its client: its name and place in the order go with it. */
function moveRoute(app: FastifyInstance, services: Services): void {
  const { db } = services;
  userRoute(app, 'moveDoc', async ({ user, body, request }) => {
    const parts = await authorizeKey(db, user, body.key);
    await requireStored(services, body.key);
    if (body.docType === parts.docType) return { ok: true as const, newKey: body.key, docType: body.docType };
    if (await ensureMoveTarget(db, parts.clientId, body.docType))
      await audit(db, {
        actor: user.email,
        action: 'doctype.add',
        clientId: parts.clientId,
        ip: request.ip,
        detail: body.docType,
      });
    const newKey = buildDocKey(parts.clientId, body.docType, parts.order, parts.filename);
    const taken = () => new HttpError(409, `A file with this name is already in “${body.docType}”.`);
    if (await findDocument(db, newKey)) throw taken();
    const result = await moveDocument(
      services,
      { key: body.key, newKey, filename: parts.filename, clientId: parts.clientId },
      { actor: user.email, ip: request.ip, action: 'doc.move', detail: `${parts.docType} → ${body.docType}` },
    );
    if (result === 'gone') throw fileGone();
    if (result === 'taken') throw taken();
    return { ok: true as const, newKey, docType: body.docType };
  });
}
