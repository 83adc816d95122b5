/** The direct upload to a presigned URL and the presign-then-PUT sequence (docs/behaviour.md#upload-queue). */
import { uploadContentType } from '../domain/files.js';
import { uploadFailedMessage } from '../domain/messages.js';
import type { FetchLike, FileLike } from '../ports.js';
import type { ApiClient } from './client.js';
import { ApiError } from './errors.js';

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
 * a port: `@vita-docs/ui` provides the XHR one, {@link createFetchPutFile} is the default.
 */
export type PutFile = (
  url: string,
  file: FileLike,
  contentType: string,
  onProgress?: ProgressListener,
) => Promise<PutFileResult>;

/**
 * A `PutFile` over `fetch`. `fetch` cannot observe upload progress, so it reports 0 at the start
 * and everything at the end. No cookies are sent: presigned URLs carry their own signature.
 */
export function createFetchPutFile(fetch: FetchLike): PutFile {
  return async (url, file, contentType, onProgress) => {
    onProgress?.(0, file.size);
    const body = file instanceof Blob ? file : new Uint8Array(await file.arrayBuffer());
    const response = await fetch(url, {
      method: 'PUT',
      credentials: 'omit',
      headers: { 'content-type': contentType },
      body,
    });
    const text = await response.text().catch(() => '');
    if (response.ok) onProgress?.(file.size, file.size);
    return { status: response.status, ok: response.ok, body: text };
  };
}

/** The transport for {@link uploadToPresignedUrl}: a `fetch`, or a full `PutFile`. */
export type UploadTransport = { putFile: PutFile; fetch?: undefined } | { fetch: FetchLike; putFile?: undefined };

/**
 * PUTs a file to a presigned URL with its upload Content-Type ({@link uploadContentType}). A non-OK
 * answer raises an {@link ApiError} whose message is `Upload failed: <status>` followed by the
 * response body.
 */
export async function uploadToPresignedUrl(
  url: string,
  file: FileLike,
  options: UploadTransport & { onProgress?: ProgressListener },
): Promise<void> {
  const putFile = options.putFile ?? createFetchPutFile(options.fetch);
  let result: PutFileResult;
  try {
    result = await putFile(url, file, uploadContentType(file.name, file.type), options.onProgress);
  } catch (cause) {
    throw new ApiError('network', 0, cause instanceof Error ? cause.message : 'Upload failed', { cause });
  }
  if (!result.ok) throw new ApiError('http', result.status, uploadFailedMessage(result.status, result.body));
}

/** Where a document goes. */
export interface UploadTarget {
  clientId: string;
  docType: string;
}

/**
 * Stores one document: presign (`POST /docs/presign/{id}`) then the direct PUT. Returns the key the
 * server assigned.
 */
export async function uploadDocument(
  api: Pick<ApiClient, 'presignUpload'>,
  putFile: PutFile,
  target: UploadTarget,
  file: FileLike,
  onProgress?: ProgressListener,
): Promise<string> {
  const presigned = await api.presignUpload({
    params: { id: target.clientId },
    body: { docType: target.docType, filename: file.name, contentType: uploadContentType(file.name, file.type) },
  });
  await uploadToPresignedUrl(presigned.url, file, onProgress ? { putFile, onProgress } : { putFile });
  return presigned.key;
}
