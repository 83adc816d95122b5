/**
 * Presigned S3 URLs, with which the browser talks to the bucket directly (what they cannot enforce:
 * see `s3.ts`). What S3 can hold an upload to is signed into the URL: length, checksum, no overwrite,
 * encryption; a download's URL carries its served type and disposition.
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertUploadLimits,
  contentDisposition,
  isInlineViewable,
  servedContentType,
  tooLarge,
} from './filetypes.js';
import { assertDocKey } from './keys.js';
import type { S3Context } from './s3-context.js';
import { headObject } from './s3-read.js';
import {
  fileGone,
  type PresignedUpload,
  type PresignedUrl,
  type PresignGetOptions,
  type PresignPutOptions,
} from './types.js';

/** A URL for one PUT of `key` (see `ObjectStore.presignPut`), with the headers the uploader must send. */
export async function presignPut(
  ctx: S3Context,
  key: string,
  contentType: string,
  { expiresInSeconds, maxBytes, size, sha256 }: PresignPutOptions,
): Promise<PresignedUpload> {
  assertDocKey(key);
  assertUploadLimits(contentType, maxBytes);
  if (size !== undefined && size > maxBytes) throw tooLarge(maxBytes);
  const checksum = sha256 === undefined ? undefined : Buffer.from(sha256, 'hex').toString('base64');
  // An uploader that declared its file gets the strict URL: S3 refuses another length, other bytes
  // (the checksum stays a header, where S3 verifies it) and any overwrite of a stored object. One
  // that declared nothing (the plain presign-and-PUT API) could not send those headers.
  const strict = size !== undefined || checksum !== undefined;
  const command = new PutObjectCommand({
    Bucket: ctx.bucket,
    Key: key,
    ContentType: contentType,
    ...ctx.sse,
    ...(strict && { IfNoneMatch: '*' }),
    ...(size !== undefined && { ContentLength: size }),
    ...(checksum !== undefined && { ChecksumSHA256: checksum }),
  });
  // S3 honours encryption only as request headers, not in the query: SigV4 signs every x-amz-*
  // header, they stay out of the query (the SDK does that for these too; said again below in case
  // it ever stops), and the answer's `headers` names them, which every client sends with its PUT.
  const signed = ['content-type'];
  const headers: Record<string, string> = { ...ctx.sseHeaders };
  if (strict) {
    signed.push('if-none-match');
    headers['if-none-match'] = '*';
  }
  if (size !== undefined) signed.push('content-length');
  if (checksum !== undefined) {
    signed.push('x-amz-checksum-sha256');
    headers['x-amz-checksum-sha256'] = checksum;
  }
  const url = await getSignedUrl(ctx.client, command, {
    expiresIn: expiresInSeconds,
    signableHeaders: new Set(signed),
    unhoistableHeaders: new Set(['x-amz-checksum-sha256', 'if-none-match', ...Object.keys(ctx.sseHeaders)]),
  });
  return { url, expiresAt: new Date(Date.now() + expiresInSeconds * 1000), headers };
}

/** A URL that serves `key` with a safe type and disposition; `not_found` when it is not there. */
export async function presignGet(
  ctx: S3Context,
  key: string,
  { expiresInSeconds, disposition, downloadName, contentType }: PresignGetOptions,
): Promise<PresignedUrl> {
  const head = await headObject(ctx, key);
  if (!head) throw fileGone();
  const served = servedContentType(contentType ?? head.contentType);
  const inline = disposition === 'inline' && isInlineViewable(served);
  const command = new GetObjectCommand({
    Bucket: ctx.bucket,
    Key: key,
    ResponseContentType: served,
    ResponseContentDisposition: contentDisposition(inline ? 'inline' : 'attachment', downloadName),
    ResponseCacheControl: 'private, no-store',
  });
  const url = await getSignedUrl(ctx.client, command, { expiresIn: expiresInSeconds });
  return { url, expiresAt: new Date(Date.now() + expiresInSeconds * 1000) };
}
