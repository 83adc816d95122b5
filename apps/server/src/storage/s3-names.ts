/**
 * What the bucket holds, and the server's own changes to it: listing (with types), walking every
 * document key, and put, copy and delete. Only document-shaped keys are ever listed.
 */
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  ListObjectsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { parseDocKey } from '@vita-docs/core/contract';
import { contentTypeFromName, FALLBACK_CONTENT_TYPE } from './filetypes.js';
import { assertDocKey, assertPrefix } from './keys.js';
import { isNotFound, type S3Context } from './s3-context.js';
import { headObject } from './s3-read.js';
import { fileGone, StorageError, type StoredObject } from './types.js';

/** DeleteObjects takes at most 1000 keys per request. */
const DELETE_BATCH = 1000;
/** HEAD requests in flight at once when a listing needs stored types. */
const HEAD_CONCURRENCY = 8;

/** An object as a listing shows it, before its type is known. */
interface Listed {
  key: string;
  size: number;
  lastModified: Date;
}

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

/**
 * A listing carries no content type. The name's extension decides (uploads are PDF or images, named
 * accordingly); only names without a known extension cost a HEAD for the stored type.
 */
async function withType(ctx: S3Context, { key, size, lastModified }: Listed): Promise<StoredObject> {
  const byName = contentTypeFromName(key);
  if (byName) return { key, size, lastModified, contentType: byName };
  const head = await headObject(ctx, key);
  return { key, size, lastModified, contentType: head?.contentType ?? FALLBACK_CONTENT_TYPE };
}

/**
 * Every object under a prefix, page by page. ListObjects (v1) with `Marker` = the last key seen is
 * the same walk as v2's continuation tokens, and works on every S3-compatible server (s3rver's v2
 * tokens need a cipher OpenSSL 3 does not have).
 */
async function listAll(ctx: S3Context, prefix: string): Promise<Listed[]> {
  const found: Listed[] = [];
  let marker: string | undefined;
  for (;;) {
    const page = await ctx.client.send(
      new ListObjectsCommand({ Bucket: ctx.bucket, Prefix: prefix, MaxKeys: ctx.pageSize, Marker: marker }),
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
async function deleteKeys(ctx: S3Context, keys: readonly string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += DELETE_BATCH) {
    const batch = keys.slice(start, start + DELETE_BATCH);
    const out = await ctx.client.send(
      new DeleteObjectsCommand({
        Bucket: ctx.bucket,
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

/** Every document under `prefix`, with its type, in key order. */
export async function listObjects(ctx: S3Context, prefix: string): Promise<StoredObject[]> {
  assertPrefix(prefix);
  // Anything not written through a valid key (a console upload, a folder marker) is not a document.
  const found = (await listAll(ctx, prefix)).filter((item) => parseDocKey(item.key) !== null);
  const items = await mapLimit(found, HEAD_CONCURRENCY, (item) => withType(ctx, item));
  return items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Every document key in the bucket, in key order, so a client's documents come together. */
export async function* walkObjects(ctx: S3Context): AsyncGenerator<Listed> {
  for (const item of await listAll(ctx, '')) if (parseDocKey(item.key) !== null) yield item;
}

/** Writes `body` to `key` (encrypted at rest as configured). */
export async function putObject(
  ctx: S3Context,
  key: string,
  body: Uint8Array,
  contentType: string,
): Promise<void> {
  assertDocKey(key);
  await ctx.client.send(
    new PutObjectCommand({ Bucket: ctx.bucket, Key: key, Body: body, ContentType: contentType, ...ctx.sse }),
  );
}

/** Copies `from` to `to` inside the bucket; `not_found` when `from` is not there. */
export async function copyObject(ctx: S3Context, from: string, to: string): Promise<void> {
  assertDocKey(from);
  assertDocKey(to);
  // CopySource is `bucket/key`, URL-encoded per segment (keys hold `%`, spaces and non-ASCII).
  const source = `${ctx.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
  try {
    await ctx.client.send(
      new CopyObjectCommand({
        Bucket: ctx.bucket,
        Key: to,
        CopySource: source,
        MetadataDirective: 'COPY',
        ...ctx.sse,
      }),
    );
  } catch (error) {
    if (isNotFound(error)) throw fileGone();
    throw error;
  }
}

/** Deletes these keys; those already gone are not an error. */
export async function deleteObjects(ctx: S3Context, keys: readonly string[]): Promise<void> {
  keys.forEach(assertDocKey);
  await deleteKeys(ctx, keys);
}

/** Deletes everything under `prefix`, documents or not (a deleted client leaves nothing behind); returns how many. */
export async function deletePrefix(ctx: S3Context, prefix: string): Promise<number> {
  assertPrefix(prefix);
  const keys = (await listAll(ctx, prefix)).map((item) => item.key);
  await deleteKeys(ctx, keys);
  return keys.length;
}
