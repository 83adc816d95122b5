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
import { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../env.js';
import type { S3Context } from './s3-context.js';
import { copyObject, deleteObjects, deletePrefix, listObjects, putObject, walkObjects } from './s3-names.js';
import { presignGet, presignPut } from './s3-presign.js';
import { headObject, openObject } from './s3-read.js';
import type { ObjectStore } from './types.js';

/** Connection settings: the server's `S3_*` configuration, plus a knob for tests. */
export interface S3StoreOptions extends S3Config {
  /** Keys per list request (S3 caps it at 1000); small values let tests exercise paging. */
  listPageSize?: number;
  /** The bound on each wait for S3 (`DEPENDENCY_TIMEOUT_MS`); see {@link hangBounds}. */
  timeoutMs?: number;
}

/** Default for {@link S3StoreOptions.timeoutMs}. */
const DEFAULT_TIMEOUT_MS = 2_000;

/**
 * The SDK's bounds for an S3 that stops answering (a proxy or load balancer that accepts and never
 * forwards looks like this): the TCP connection, the answer's headers (an error, not the SDK's
 * default warning), and silence in the middle of a body. The last is generous: a ZIP or download
 * read by a slow client pauses its S3 stream while the client catches up. One retry, not the SDK's
 * two, keeps a failure within about 10 × `timeoutMs` (a read makes two requests).
 */
function hangBounds(timeoutMs: number) {
  return {
    maxAttempts: 2,
    requestHandler: {
      connectionTimeout: timeoutMs,
      requestTimeout: 2 * timeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: 15 * timeoutMs,
    },
  };
}

/** The S3 store, plus its client so the server can close it at shutdown. */
export interface S3ObjectStore extends ObjectStore {
  readonly kind: 's3';
  readonly client: S3Client;
}

/** The client and what every request carries, from the configuration. */
function connect(options: S3StoreOptions): S3Context {
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
    ...hangBounds(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  });
  const sse: S3Context['sse'] = options.sse
    ? {
        ServerSideEncryption: options.sse.algorithm,
        ...(options.sse.algorithm === 'aws:kms' && options.sse.kmsKeyId
          ? { SSEKMSKeyId: options.sse.kmsKeyId }
          : {}),
      }
    : {};
  const sseHeaders: Record<string, string> = {};
  if (sse.ServerSideEncryption) sseHeaders['x-amz-server-side-encryption'] = sse.ServerSideEncryption;
  if (sse.SSEKMSKeyId) sseHeaders['x-amz-server-side-encryption-aws-kms-key-id'] = sse.SSEKMSKeyId;
  const pageSize = Math.min(1000, Math.max(1, options.listPageSize ?? 1000));
  return { client, bucket: options.bucket, pageSize, sse, sseHeaders };
}

/**
 * An S3-compatible {@link ObjectStore}: composes presigning (`s3-presign.ts`), reading
 * (`s3-read.ts`) and names (`s3-names.ts`: list, walk, put, copy, delete) over one connection.
 */
export function createS3Store(options: S3StoreOptions): S3ObjectStore {
  const ctx = connect(options);
  return {
    kind: 's3',
    client: ctx.client,
    presignPut: (key, contentType, presign) => presignPut(ctx, key, contentType, presign),
    presignGet: (key, presign) => presignGet(ctx, key, presign),
    list: (prefix) => listObjects(ctx, prefix),
    head: (key) => headObject(ctx, key),
    read: async (key) => (await openObject(ctx, key)).stream,
    open: (key, open) => openObject(ctx, key, open),
    walk: () => walkObjects(ctx),
    put: (key, body, contentType) => putObject(ctx, key, body, contentType),
    copy: (from, to) => copyObject(ctx, from, to),
    delete: (keys) => deleteObjects(ctx, keys),
    deletePrefix: (prefix) => deletePrefix(ctx, prefix),
  };
}
