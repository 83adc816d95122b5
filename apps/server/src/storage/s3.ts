/**
 * The S3-compatible object store (AWS S3, MinIO, R2, …) through the AWS SDK. Uploads and downloads
 * use real presigned URLs: the browser talks to the bucket directly.
 *
 * Limits of presigned S3 URLs, compared with the local store:
 * - a presigned PUT can sign an exact Content-Length but not a maximum, so `maxBytes` is not enforced
 *   by S3 (a browser-form POST policy could; our clients send a PUT);
 * - S3 never sees a magic-bytes check, and cannot send `X-Content-Type-Options: nosniff` or a CSP; the
 *   signed `ResponseContentType` (never HTML/SVG) and `ResponseContentDisposition` are what it can do.
 *
 * With `S3_SSE`, every write asks S3 to encrypt the object at rest (AES256: S3-managed keys; aws:kms:
 * a KMS key, `S3_SSE_KMS_KEY_ID` or the account's default). Reads need nothing: S3 decrypts.
 */
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import { parseDocKey } from '@vita-docs/core';
import {
  FALLBACK_CONTENT_TYPE,
  assertUploadLimits,
  contentDisposition,
  contentTypeFromName,
  isInlineViewable,
  servedContentType,
  tooLarge,
} from './filetypes.js';
import type { S3Config } from '../env.js';
import { assertDocKey, assertPrefix } from './keys.js';
import { fileGone, StorageError, type ObjectStore, type StoredObject } from './types.js';

/** Connection settings: the server's `S3_*` configuration, plus a knob for tests. */
export interface S3StoreOptions extends S3Config {
  /** Keys per list request (S3 caps it at 1000); small values let tests exercise paging. */
  listPageSize?: number;
}

/** The S3 store, plus its client so the server can close it at shutdown. */
export interface S3ObjectStore extends ObjectStore {
  readonly kind: 's3';
  readonly client: S3Client;
}

/** DeleteObjects takes at most 1000 keys per request. */
const DELETE_BATCH = 1000;
/** HEAD requests in flight at once when a listing needs stored types. */
const HEAD_CONCURRENCY = 8;

const isNotFound = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/** Runs `work` over `items`, at most `limit` at a time, keeping order. */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  // One iterator shared by the workers: each takes the next item when it is free.
  const queue = items.entries();
  const worker = async () => {
    for (const [index, item] of queue) results[index] = await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** An S3-compatible {@link ObjectStore}. */
export function createS3Store(options: S3StoreOptions): S3ObjectStore {
  const { bucket } = options;
  const client = new S3Client({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
    // Checksums only where S3 demands them: a presigned PUT must not require a checksum header the
    // browser does not send, and many S3-compatible servers reject the newer checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const pageSize = Math.min(1000, Math.max(1, options.listPageSize ?? 1000));
  /** Server-side encryption for every write (PUT, presigned PUT, copy), as the SDK's parameters. */
  const sse: { ServerSideEncryption?: 'AES256' | 'aws:kms'; SSEKMSKeyId?: string } = options.sse
    ? {
        ServerSideEncryption: options.sse.algorithm,
        ...(options.sse.algorithm === 'aws:kms' && options.sse.kmsKeyId ? { SSEKMSKeyId: options.sse.kmsKeyId } : {}),
      }
    : {};
  /** The same as request headers: signed into presigned PUT URLs, which the uploader must then send. */
  const sseHeaders: Record<string, string> = {};
  if (sse.ServerSideEncryption) sseHeaders['x-amz-server-side-encryption'] = sse.ServerSideEncryption;
  if (sse.SSEKMSKeyId) sseHeaders['x-amz-server-side-encryption-aws-kms-key-id'] = sse.SSEKMSKeyId;

  /**
   * A listing carries no content type. The name's extension decides (uploads are PDF or images, named
   * accordingly); only names without a known extension cost a HEAD for the stored type.
   */
  async function withType(key: string, size: number, lastModified: Date): Promise<StoredObject> {
    const byName = contentTypeFromName(key);
    if (byName) return { key, size, lastModified, contentType: byName };
    const head = await store.head(key);
    return { key, size, lastModified, contentType: head?.contentType ?? FALLBACK_CONTENT_TYPE };
  }

  /**
   * Every object under a prefix, page by page. ListObjects (v1) with `Marker` = the last key seen is
   * the same walk as v2's continuation tokens, and works on every S3-compatible server (s3rver's v2
   * tokens need a cipher OpenSSL 3 no longer has).
   */
  async function listAll(prefix: string): Promise<{ key: string; size: number; lastModified: Date }[]> {
    const found: { key: string; size: number; lastModified: Date }[] = [];
    let marker: string | undefined;
    for (;;) {
      const page = await client.send(
        new ListObjectsCommand({ Bucket: bucket, Prefix: prefix, MaxKeys: pageSize, Marker: marker }),
      );
      const contents = page.Contents ?? [];
      for (const item of contents) {
        if (item.Key)
          found.push({ key: item.Key, size: item.Size ?? 0, lastModified: item.LastModified ?? new Date(0) });
      }
      const last = contents.at(-1)?.Key;
      if (!page.IsTruncated || !last || last === marker) return found;
      marker = last;
    }
  }

  /** DeleteObjects in batches; a key that is already gone is not an error. */
  async function deleteKeys(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const out = await client.send(
        new DeleteObjectsCommand({
          Bucket: bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        throw new StorageError('failed', `Could not delete ${failed.length} file(s). Please try again.`, {
          cause: failed,
        });
      }
    }
  }

  const store: S3ObjectStore = {
    kind: 's3',
    client,

    async presignPut(key, contentType, { expiresInSeconds, maxBytes, size, sha256 }) {
      assertDocKey(key);
      assertUploadLimits(contentType, maxBytes);
      if (size !== undefined && size > maxBytes) throw tooLarge(maxBytes);
      const checksum = sha256 === undefined ? undefined : Buffer.from(sha256, 'hex').toString('base64');
      // An uploader that declared its file gets the strict URL: S3 refuses another length, other bytes
      // (the checksum stays a header, where S3 verifies it) and any overwrite of a stored object. One
      // that declared nothing (the plain presign-and-PUT API) could not send those headers.
      const strict = size !== undefined || checksum !== undefined;
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        ContentType: contentType,
        ...sse,
        ...(strict && { IfNoneMatch: '*' }),
        ...(size !== undefined && { ContentLength: size }),
        ...(checksum !== undefined && { ChecksumSHA256: checksum }),
      });
      // S3 honours encryption only as request headers, not in the query: SigV4 signs every x-amz-*
      // header, they stay out of the query (the SDK does that for these too; said again below in case
      // it ever stops), and the answer's `headers` names them, which every client sends with its PUT.
      const signed = ['content-type'];
      const headers: Record<string, string> = { ...sseHeaders };
      if (strict) {
        signed.push('if-none-match');
        headers['if-none-match'] = '*';
      }
      if (size !== undefined) signed.push('content-length');
      if (checksum !== undefined) {
        signed.push('x-amz-checksum-sha256');
        headers['x-amz-checksum-sha256'] = checksum;
      }
      const url = await getSignedUrl(client, command, {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(signed),
        unhoistableHeaders: new Set(['x-amz-checksum-sha256', 'if-none-match', ...Object.keys(sseHeaders)]),
      });
      return { url, expiresAt: new Date(Date.now() + expiresInSeconds * 1000), headers };
    },

    async presignGet(key, { expiresInSeconds, disposition, downloadName, contentType }) {
      const head = await store.head(key);
      if (!head) throw fileGone();
      const served = servedContentType(contentType ?? head.contentType);
      const inline = disposition === 'inline' && isInlineViewable(served);
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ResponseContentType: served,
        ResponseContentDisposition: contentDisposition(inline ? 'inline' : 'attachment', downloadName),
        ResponseCacheControl: 'private, no-store',
      });
      const url = await getSignedUrl(client, command, { expiresIn: expiresInSeconds });
      return { url, expiresAt: new Date(Date.now() + expiresInSeconds * 1000) };
    },

    async list(prefix) {
      assertPrefix(prefix);
      // Anything not written through a valid key (a console upload, a folder marker) is not a document.
      const found = (await listAll(prefix)).filter((item) => parseDocKey(item.key) !== null);
      const items = await mapLimit(found, HEAD_CONCURRENCY, (f) => withType(f.key, f.size, f.lastModified));
      return items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },

    async head(key) {
      assertDocKey(key);
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return {
          key,
          size: out.ContentLength ?? 0,
          lastModified: out.LastModified ?? new Date(0),
          // The name decides first, as in `list`, so both always agree.
          contentType: contentTypeFromName(key) ?? servedContentType(out.ContentType),
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async read(key) {
      return (await store.open(key)).stream;
    },

    async open(key, options = {}) {
      assertDocKey(key);
      try {
        const out = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, ...(options.version ? { IfMatch: options.version } : {}) }),
        );
        if (!(out.Body instanceof Readable))
          throw new StorageError('failed', 'The storage service sent no file body.');
        // Some S3-compatible servers ignore If-Match: the version is compared here as well.
        if (options.version && out.ETag !== options.version) {
          out.Body.destroy();
          throw new StorageError('conflict', 'The stored file was changed after it was checked.');
        }
        return { size: out.ContentLength ?? 0, stream: out.Body, ...(out.ETag ? { version: out.ETag } : {}) };
      } catch (error) {
        if (isNotFound(error)) throw fileGone();
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 412) {
          throw new StorageError('conflict', 'The stored file was changed after it was checked.');
        }
        throw error;
      }
    },

    async *walk() {
      // Keys in order, so a client's documents come together; only document-shaped keys.
      for (const item of await listAll('')) if (parseDocKey(item.key) !== null) yield item;
    },

    async put(key, body, contentType) {
      assertDocKey(key);
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType, ...sse }),
      );
    },

    async copy(from, to) {
      assertDocKey(from);
      assertDocKey(to);
      // CopySource is `bucket/key`, URL-encoded per segment (keys hold `%`, spaces and non-ASCII).
      const source = `${bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
      try {
        await client.send(
          new CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: source, MetadataDirective: 'COPY', ...sse }),
        );
      } catch (error) {
        if (isNotFound(error)) throw fileGone();
        throw error;
      }
    },

    async delete(keys) {
      keys.forEach(assertDocKey);
      await deleteKeys(keys);
    },

    async deletePrefix(prefix) {
      assertPrefix(prefix);
      // Everything under the prefix goes, documents or not: deleting a client leaves nothing behind.
      const keys = (await listAll(prefix)).map((item) => item.key);
      await deleteKeys(keys);
      return keys.length;
    },
  };
  return store;
}
