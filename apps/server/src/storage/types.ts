/**
 * The one interface document routes use to reach file storage, implemented by the local-disk store
 * (`local.ts`) and the S3-compatible store (`s3.ts`). Keys are document keys
 * `{clientId}/{encodeURIComponent(docType)}/{millis}_{safeName}` (see `buildDocKey` in core); every
 * method refuses anything else with a {@link StorageError} of kind `invalid_key`.
 */
import type { Readable } from 'node:stream';
import type { ErrorCode } from '@vita-docs/core/contract';

/**
 * The longest a signed link lives, by method: an upload link long enough for a slow phone
 * connection, a view or download link only seconds. Links claiming more are refused.
 */
export const LINK_SECONDS = { PUT: 15 * 60, GET: 60 } as const;

/** A URL the browser uses directly, without cookies, until `expiresAt`. */
export interface PresignedUrl {
  url: string;
  expiresAt: Date;
}

/** Limits signed into an upload URL. */
export interface PresignPutOptions {
  expiresInSeconds: number;
  /**
   * Largest body accepted. The local store enforces it while streaming; S3 cannot enforce a maximum
   * on a presigned PUT (only an exact Content-Length), so there it is checked when the upload completes.
   */
  maxBytes: number;
  /** The exact size the uploader declared: S3 signs it as Content-Length. */
  size?: number;
  /** The SHA-256 (hex) the uploader declared: S3 signs it as x-amz-checksum-sha256 and refuses other bytes. */
  sha256?: string;
}

/** An upload URL and the headers (beyond Content-Type) its PUT must carry because they are signed. */
export interface PresignedUpload extends PresignedUrl {
  headers: Record<string, string>;
}

/** How a download URL serves the file. */
export interface PresignGetOptions {
  expiresInSeconds: number;
  /** `inline` is honoured only for PDF and images; everything else is served as an attachment. */
  disposition: 'attachment' | 'inline';
  /** File name offered to the browser (sanitised by the store). */
  downloadName: string;
  /** Served type; defaults to the stored one. Never served as HTML/SVG whatever is passed. */
  contentType?: string;
  /** The audit entry naming whom the link is for: each fetch of the bytes is audited under it. */
  issuedUnder?: number;
}

/** One stored object as listed. */
export interface StoredObject {
  key: string;
  size: number;
  lastModified: Date;
  /** The file's type: from its magic bytes (local) or its name / stored metadata (S3). */
  contentType: string;
}

/**
 * What can go wrong, as a kind the routes map to a status (400, 404, 409, 413, 415, 403, 507, 503, 500).
 * `not_found` is only ever the store saying the file is not there; `unavailable` is the store failing
 * to answer, or refusing the server (S3's 403 of a wrong secret key, its 5xx; a local EACCES or EIO),
 * which says nothing about the file.
 */
export type StorageErrorKind =
  | 'invalid_key'
  | 'not_found'
  | 'conflict'
  | 'damaged'
  | 'too_large'
  | 'unsupported_type'
  | 'bad_digest'
  | 'forbidden'
  | 'no_space'
  | 'unavailable'
  | 'failed';

/** The machine code a {@link StorageErrorKind} is answered with, unless the error names its own. */
const STORAGE_CODES: Record<StorageErrorKind, ErrorCode> = {
  invalid_key: 'invalid_request',
  not_found: 'not_found',
  conflict: 'conflict',
  damaged: 'file_damaged',
  too_large: 'too_large',
  unsupported_type: 'unsupported_type',
  bad_digest: 'bad_digest',
  forbidden: 'link_invalid',
  no_space: 'storage_full',
  unavailable: 'unavailable',
  failed: 'internal',
};

/** A storage failure with a message meant for a person, and a code for programs. */
export class StorageError extends Error {
  readonly code: ErrorCode;

  constructor(
    readonly kind: StorageErrorKind,
    message: string,
    options?: { cause?: unknown; code?: ErrorCode },
  ) {
    super(message, options);
    this.name = 'StorageError';
    this.code = options?.code ?? STORAGE_CODES[kind];
  }
}

/** The document is not (or no longer) stored. */
export const fileGone = () =>
  new StorageError('not_found', 'That file no longer exists. Refresh the list and try again.');

/**
 * The stored bytes failed their integrity check (an encrypted file tampered with or damaged on disk,
 * or one the server's storage key cannot open): nothing of it is served.
 */
export const fileDamaged = (reason: string) =>
  new StorageError(
    'damaged',
    'This file is damaged on the server and cannot be opened: it failed its integrity check. Ask an administrator to check the server log.',
    { cause: reason },
  );

/** An upload link whose document is already stored: links write once. */
export const uploadLinkUsed = () =>
  new StorageError('conflict', 'This upload link was already used. Start the upload again.');

/**
 * The store did not answer, or refused the server, when asked for a file: the file may well be there.
 * The cause (S3's exception with its status code, or the file-system error) goes to the log.
 */
export const storeUnavailable = (cause: unknown) =>
  new StorageError(
    'unavailable',
    'The file store could not be read just now, so nothing was sent. Please try again in a few minutes; if it keeps happening, ask an administrator to check the server log.',
    { cause },
  );

/** The disk (or quota) of the store is full: nothing of the file was kept. */
export const noSpace = (cause: unknown) =>
  new StorageError(
    'no_space',
    'The server has run out of storage space, so this file was not saved. Please tell your site coordinator.',
    { cause },
  );

/** True for the file-system errors of a full disk or an exhausted quota. */
export const isNoSpace = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && (error.code === 'ENOSPC' || error.code === 'EDQUOT');

/** HTTP status for a {@link StorageErrorKind}. */
export function storageErrorStatus(kind: StorageErrorKind): number {
  const statuses: Record<StorageErrorKind, number> = {
    invalid_key: 400,
    not_found: 404,
    conflict: 409,
    damaged: 409,
    too_large: 413,
    unsupported_type: 415,
    bad_digest: 400,
    forbidden: 403,
    no_space: 507,
    unavailable: 503,
    failed: 500,
  };
  return statuses[kind];
}

/** Document file storage: local disk or S3-compatible, the same contract (see `contract.ts`). */
export interface ObjectStore {
  /** `local` or `s3`: for logs and for the few places that must know (mounting local routes). */
  readonly kind: 'local' | 's3';
  /** A URL for one direct `PUT` of the body with exactly this Content-Type. */
  presignPut(key: string, contentType: string, options: PresignPutOptions): Promise<PresignedUpload>;
  /** A URL that serves the object; `not_found` when it does not exist. */
  presignGet(key: string, options: PresignGetOptions): Promise<PresignedUrl>;
  /**
   * Every object under `prefix` (`{clientId}/` or `{clientId}/{encodedDocType}/`), in key order.
   * A partially uploaded file is never listed.
   */
  list(prefix: string): Promise<StoredObject[]>;
  /** One object's metadata, or null when it does not exist. */
  head(key: string): Promise<StoredObject | null>;
  /** The object's bytes as a stream; `not_found` when it does not exist. */
  read(key: string): Promise<Readable>;
  /**
   * The object's current size, its bytes and (S3) its version; on the local store the plaintext's size
   * and bytes, its first chunk checked before this resolves (`damaged` otherwise; a later chunk that
   * fails ends the stream with `damaged`). With `version`, a different version (the object was
   * overwritten) fails with `conflict` before any byte is read.
   */
  open(
    key: string,
    options?: { version?: string | null },
  ): Promise<{ size: number; stream: Readable; version?: string }>;
  /**
   * Every object in the store whose key is a document key, client by client: what the sweeper
   * compares with the index, and what is indexed once when the index is new. No types are read, and
   * `size` is what the store holds (an encrypted local file's includes its header and tags).
   */
  walk(): AsyncIterable<{ key: string; size: number; lastModified: Date }>;
  /** Server-side write (seeding, benchmarks, generated files); uploads go through {@link presignPut}. */
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** Copies `from` to `to` (rename = copy + delete); `not_found` when `from` does not exist. */
  copy(from: string, to: string): Promise<void>;
  /** Deletes these keys; missing ones are ignored. */
  delete(keys: readonly string[]): Promise<void>;
  /** Deletes everything under a prefix (a category or a whole client); returns how many objects went. */
  deletePrefix(prefix: string): Promise<number>;
}
