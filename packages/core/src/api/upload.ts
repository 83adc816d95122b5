/** The direct upload to a presigned URL and the presign-PUT-complete sequence (docs/behaviour.md#upload-queue). */
import { uploadContentType } from '../domain/files.js';
import { uploadFailedMessage } from '../domain/messages.js';
import type { FetchLike, FileLike } from '../ports.js';
import type { ApiClient } from './client.js';
import { ApiError, isErrorCode, type ErrorCode } from './errors.js';

/** Called with bytes sent so far and the total. */
export type ProgressListener = (loaded: number, total: number) => void;

/** What a PUT returned. */
export interface PutFileResult {
  status: number;
  ok: boolean;
  /** The response body as text (shown after `Upload failed: <status>`). */
  body: string;
}

/**
 * The transport of a direct upload. Per-byte progress needs `XMLHttpRequest` in browsers, so this is
 * a port: `@vita-docs/ui` provides the XHR one, {@link createFetchPutFile} is the default. `headers`
 * are further request headers signed into the URL (never `content-type`, which is `contentType`, nor
 * a name browsers forbid scripts to set: {@link uploadToPresignedUrl} leaves those out).
 */
export type PutFile = (
  url: string,
  file: FileLike,
  contentType: string,
  onProgress?: ProgressListener,
  headers?: Readonly<Record<string, string>>,
) => Promise<PutFileResult>;

/**
 * A `PutFile` over `fetch`. `fetch` cannot observe upload progress, so it reports 0 at the start
 * and everything at the end. No cookies are sent: presigned URLs carry their own signature.
 */
export function createFetchPutFile(fetch: FetchLike): PutFile {
  return async (url, file, contentType, onProgress, headers = {}) => {
    onProgress?.(0, file.size);
    const body = file instanceof Blob ? file : new Uint8Array(await file.arrayBuffer());
    const response = await fetch(url, {
      method: 'PUT',
      credentials: 'omit',
      headers: { ...headers, 'content-type': contentType },
      body,
    });
    const text = await response.text().catch(() => '');
    if (response.ok) onProgress?.(file.size, file.size);
    return { status: response.status, ok: response.ok, body: text };
  };
}

/** The transport for {@link uploadToPresignedUrl}: a `fetch`, or a full `PutFile`. */
export type UploadTransport =
  { putFile: PutFile; fetch?: undefined } | { fetch: FetchLike; putFile?: undefined };

/**
 * Header names a page's script may not set (the Fetch standard's forbidden request headers; browsers
 * drop or refuse them), plus `content-type`, which the PUT takes from the file.
 */
const UNSETTABLE_HEADERS = new Set([
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'connection',
  'content-length',
  'content-type',
  'cookie',
  'cookie2',
  'date',
  'dnt',
  'expect',
  'host',
  'keep-alive',
  'origin',
  'referer',
  'set-cookie',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'via',
  'x-http-method',
  'x-http-method-override',
  'x-method-override',
]);

/** The presign answer's extra headers a PUT can carry: names lower-cased, unsettable ones left out. */
function signedHeaders(headers: Readonly<Record<string, string>> = {}): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.trim().toLowerCase();
    if (UNSETTABLE_HEADERS.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-')) continue;
    kept[lower] = value;
  }
  return kept;
}

/**
 * PUTs a file to a presigned URL with its upload Content-Type ({@link uploadContentType}) and the
 * further `headers` the presign answer asked for (those a browser cannot set are left out). A non-OK
 * answer raises an {@link ApiError} whose message is `Upload failed: <status>` followed by the
 * response body.
 */
export async function uploadToPresignedUrl(
  url: string,
  file: FileLike,
  options: UploadTransport & { onProgress?: ProgressListener; headers?: Readonly<Record<string, string>> },
): Promise<PutFileResult> {
  const putFile = options.putFile ?? createFetchPutFile(options.fetch);
  let result: PutFileResult;
  try {
    const contentType = uploadContentType(file.name, file.type);
    result = await putFile(url, file, contentType, options.onProgress, signedHeaders(options.headers));
  } catch (cause) {
    throw new ApiError('network', 0, cause instanceof Error ? cause.message : 'Upload failed', {
      cause,
      origin: 'storage',
    });
  }
  if (!result.ok) {
    const code = storedErrorCode(result.body);
    throw new ApiError('http', result.status, uploadFailedMessage(result.status, result.body), {
      origin: 'storage',
      ...(code && { code }),
    });
  }
  return result;
}

/** The `code` of a refusal from the app's own file store; S3's XML answers have none. */
function storedErrorCode(body: string): ErrorCode | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const code = typeof parsed === 'object' && parsed !== null && 'code' in parsed ? parsed.code : undefined;
    return isErrorCode(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when the PUT's own answer says the server verified and listed the document: the server's
 * local store does that as the bytes arrive (`{"key": …, "stored": true}`), so `complete` would only
 * repeat it. An S3 answer says nothing of the kind.
 */
function storedByPut(result: PutFileResult, key: string): boolean {
  if (!result.body.startsWith('{')) return false;
  try {
    const answer: unknown = JSON.parse(result.body);
    return (
      typeof answer === 'object' &&
      answer !== null &&
      'stored' in answer &&
      answer.stored === true &&
      'key' in answer &&
      answer.key === key
    );
  } catch {
    return false;
  }
}

/** Where a document goes. */
export interface UploadTarget {
  clientId: string;
  docType: string;
}

/** The exact size and SHA-256 (64 lowercase hex digits) of a file's bytes. */
interface Fingerprint {
  size: number;
  sha256: string;
}

async function digestOf(bytes: ArrayBuffer): Promise<Fingerprint> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return {
    size: bytes.byteLength,
    sha256: Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join(''),
  };
}

/**
 * Fingerprints of Blobs whose bytes were already read (see {@link rememberFingerprint}). Only Blobs:
 * their bytes cannot change, while a host's file-backed `FileLike` may be rewritten on disk.
 */
const fingerprints = new WeakMap<Blob, Promise<Fingerprint>>();

/** The file as a Blob when it is one (hosts without Blob, or with file-backed `FileLike`s, give null). */
const asBlob = (file: FileLike): Blob | null =>
  typeof Blob !== 'undefined' && file instanceof Blob ? file : null;

/**
 * Fingerprints `file` from `bytes` (its contents, read by the caller for another purpose) so the
 * upload does not read and hash it again: reading a browser File's bytes costs as much as hashing them.
 */
export function rememberFingerprint(file: FileLike, bytes: ArrayBuffer): void {
  const blob = asBlob(file);
  if (!blob || bytes.byteLength !== blob.size) return;
  const made = digestOf(bytes);
  made.catch(() => fingerprints.delete(blob)); // computed again at upload
  fingerprints.set(blob, made);
}

/** The file's size and SHA-256, with WebCrypto. */
async function fingerprint(file: FileLike): Promise<Fingerprint> {
  const blob = asBlob(file);
  const known = blob ? fingerprints.get(blob) : undefined;
  return (await known?.catch(() => undefined)) ?? digestOf(await file.arrayBuffer());
}

/**
 * Stores one document: presign (`POST /docs/presign/{id}`) with the file's size and SHA-256, the
 * direct PUT with the headers the answer names, then `POST /docs/complete`, where the server checks
 * what arrived and lists it (skipped when the PUT's answer already says so, as the server's own
 * store does). Returns the key the server assigned. A refused complete raises the
 * client's {@link ApiError} (its message is the server's `error` text). An aborted `signal` stops it
 * before its next request.
 */
export async function uploadDocument(
  api: Pick<ApiClient, 'presignUpload' | 'completeUpload'>,
  putFile: PutFile,
  target: UploadTarget,
  file: FileLike,
  onProgress?: ProgressListener,
  options: { replaces?: string; signal?: AbortSignal } = {},
): Promise<string> {
  const { signal } = options;
  const { size, sha256 } = await fingerprint(file);
  signal?.throwIfAborted();
  const contentType = uploadContentType(file.name, file.type);
  const presigned = await api.presignUpload({
    params: { id: target.clientId },
    body: {
      docType: target.docType,
      filename: file.name,
      contentType,
      size,
      sha256,
      ...(options.replaces ? { replaces: options.replaces } : {}),
    },
  });
  signal?.throwIfAborted();
  if (presigned.alreadyStored) {
    // Stored by an earlier attempt whose answer never came back: once is enough.
    onProgress?.(file.size, file.size);
    return presigned.key;
  }
  const put = await uploadToPresignedUrl(presigned.url, file, {
    putFile,
    ...(onProgress ? { onProgress } : {}),
    ...(presigned.headers ? { headers: presigned.headers } : {}),
  });
  if (!storedByPut(put, presigned.key)) await api.completeUpload({ body: { key: presigned.key } });
  return presigned.key;
}
