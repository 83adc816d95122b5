/**
 * Signing an upload, for staff and for a client's request link alike: the type and size checks, the
 * name the file will carry, finding a retry of the same upload (stored: nothing to send; pending: a new
 * URL for its key), reserving the row and signing the PUT. What differs between the two callers is
 * passed in: whose uploads count as the same one, and how a new row is reserved (a link counts its files).
 */
import { documentFileName } from '@vita-docs/core/contract';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import { isAllowedUploadType, tooLarge, UNSUPPORTED_TYPE_MESSAGE } from '../storage/filetypes.js';
import { LINK_SECONDS } from '../storage/types.js';
import { extendPending, findSameUpload, type Reservation, type SameUploadScope } from './documents.js';

/** What an upload is announced with. */
export interface UploadAnnouncement {
  clientId: string;
  docType: string;
  filename: string;
  contentType: string;
  size?: number | undefined;
  sha256?: string | undefined;
  uploadedBy: string;
  /** Whose uploads count as the same one; undefined: no retry is looked for (a retake, no hash). */
  sameAs: SameUploadScope | undefined;
  /** The category order it takes (a retake takes the replaced file's place). */
  order?: number | undefined;
}

/** The answer of a presign, its URL made absolute against `origin` when the store gives a path. */
export type PresignAnswer =
  | { url: ''; key: string; expiresAt: string; alreadyStored: true }
  | { url: string; key: string; expiresAt: string; headers?: Record<string, string> };

/**
 * Checks and signs one upload: 415 for a type not taken, 413 past the size limit. `reserve` stores the
 * new row and returns its key.
 */
export async function presignUpload(
  services: Services,
  upload: UploadAnnouncement,
  reserve: (reservation: Reservation) => Promise<string>,
  origin: string,
): Promise<PresignAnswer> {
  const { db, store } = services;
  if (!isAllowedUploadType(upload.contentType)) throw new HttpError(415, UNSUPPORTED_TYPE_MESSAGE);
  const maxBytes = services.config.maxUploadBytes;
  if (upload.size !== undefined && upload.size > maxBytes) throw tooLarge(maxBytes);
  const filename =
    documentFileName(upload.filename.trim(), upload.contentType) ??
    documentFileName('file', upload.contentType) ??
    'file.pdf';
  const expiresAt = new Date(Date.now() + LINK_SECONDS.PUT * 1000);
  // Never twice: the same bytes under the same name in this category are the same upload (a retry
  // whose answer was lost). Stored → say so, nothing to send; pending → a new URL for that key.
  const same =
    upload.sameAs !== undefined && upload.sha256 !== undefined
      ? await findSameUpload(db, {
          clientId: upload.clientId,
          docType: upload.docType,
          filename,
          sha256: upload.sha256,
          by: upload.sameAs,
        })
      : undefined;
  if (same?.state === 'stored')
    return { url: '', key: same.key, expiresAt: expiresAt.toISOString(), alreadyStored: true };
  if (same) await extendPending(db, same.key, expiresAt);
  const key =
    same?.key ??
    (await reserve({
      order: upload.order,
      clientId: upload.clientId,
      docType: upload.docType,
      filename,
      contentType: upload.contentType,
      maxBytes,
      expiresAt,
      uploadedBy: upload.uploadedBy,
      declaredSize: upload.size,
      declaredSha256: upload.sha256,
    }));
  const signed = await store.presignPut(key, upload.contentType, {
    expiresInSeconds: LINK_SECONDS.PUT,
    maxBytes,
    ...(upload.size !== undefined && { size: upload.size }),
    ...(upload.sha256 !== undefined && { sha256: upload.sha256 }),
  });
  return {
    // Presigned URLs of the local store may be path-only; every answer is made absolute here, so no
    // client (the desktop kiosk's `app://` page, the headless intake) has to resolve one itself.
    url: signed.url.startsWith('/') ? `${origin}${signed.url}` : signed.url,
    key,
    expiresAt: signed.expiresAt.toISOString(),
    ...(Object.keys(signed.headers).length > 0 && { headers: signed.headers }),
  };
}
