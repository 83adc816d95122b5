/**
 * Reading from the bucket: an object's metadata, and its bytes checked against the version the
 * caller verified (the ETag), so a ZIP never mixes an object with what replaced it.
 */
import { GetObjectCommand, HeadObjectCommand, S3ServiceException } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { contentTypeFromName, servedContentType } from './filetypes.js';
import { assertDocKey } from './keys.js';
import { isNotFound, type S3Context } from './s3-context.js';
import { fileGone, StorageError, storeUnavailable, type StoredObject } from './types.js';

/**
 * One object's metadata, or null when S3 says it is not there; any other failure (a refusal, an
 * outage, a timeout) is `unavailable`, never "not there".
 */
export async function headObject(ctx: S3Context, key: string): Promise<StoredObject | null> {
  assertDocKey(key);
  try {
    const out = await ctx.client.send(new HeadObjectCommand({ Bucket: ctx.bucket, Key: key }));
    return {
      key,
      size: out.ContentLength ?? 0,
      lastModified: out.LastModified ?? new Date(0),
      // The name decides first, as in a listing, so both always agree.
      contentType: contentTypeFromName(key) ?? servedContentType(out.ContentType),
    };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw storeUnavailable(error);
  }
}

const changed = () => new StorageError('conflict', 'The stored file was changed after it was checked.');

/**
 * See `ObjectStore.open`: `not_found` only when S3 says the object is not there, `conflict` when
 * `options.version` is not the object's, `unavailable` for any other answer (or none).
 */
export async function openObject(
  ctx: S3Context,
  key: string,
  options: { version?: string | null } = {},
): Promise<{ size: number; stream: Readable; version?: string }> {
  assertDocKey(key);
  try {
    const out = await ctx.client.send(
      new GetObjectCommand({
        Bucket: ctx.bucket,
        Key: key,
        ...(options.version ? { IfMatch: options.version } : {}),
      }),
    );
    if (!(out.Body instanceof Readable))
      throw new StorageError('failed', 'The storage service sent no file body.');
    // Some S3-compatible servers ignore If-Match: the version is compared here as well.
    if (options.version && out.ETag !== options.version) {
      out.Body.destroy();
      throw changed();
    }
    return { size: out.ContentLength ?? 0, stream: out.Body, ...(out.ETag ? { version: out.ETag } : {}) };
  } catch (error) {
    if (error instanceof StorageError) throw error;
    if (isNotFound(error)) throw fileGone();
    if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 412) throw changed();
    throw storeUnavailable(error);
  }
}
