/**
 * The local-disk object store (the default, under `DATA_DIR`). Uploads and downloads go through the
 * server on HMAC-signed URLs (`local-routes.ts`). Writes land in a temp file, are fsynced and then
 * renamed into place, so a killed upload never appears and no partial file is ever listed. With a
 * storage key every file is encrypted (`encryption.ts`); everything else (sizes, types, digests,
 * ranges) is of the plaintext. The content type is not stored: it is read from the file's first
 * (decrypted) bytes, which were checked on upload.
 *
 * This module only composes the store's parts, which share `local-state.ts`: writing
 * (`local-write.ts`: temp file, hash, seal, fsync, publish), reading (`local-read.ts`: open, check,
 * stream), names (`local-names.ts`: list, walk, copy, delete) and links (`local-links.ts`).
 */
import path from 'node:path';
import type { DigestExpectation, FileDigest } from './digest.js';
import type { StorageKey } from './encryption.js';
import { localLinks } from './local-links.js';
import { copyStored, deleteObjects, deletePrefix, listObjects, walkObjects } from './local-names.js';
import { describe, openForServing, openStream, type OpenedObject } from './local-read.js';
import { createLocalState } from './local-state.js';
import {
  encryptInPlace,
  removeStaleTemp,
  writeUpload,
  type InPlaceResult,
  type UploadBody,
} from './local-write.js';
import { createUrlSigner, type GetGrant, type UrlSigner } from './signing.js';
import type { ObjectStore } from './types.js';

/** How to build a {@link LocalObjectStore}. */
export interface LocalStoreOptions {
  /** Directory holding the files (created on first write), e.g. `${DATA_DIR}/files`. */
  root: string;
  /** The key signed URLs are signed with (derived from the storage key: see `create.ts`). */
  signingKey: Buffer;
  /**
   * Where `localStorageRoutes` is mounted, as the browser reaches it: absolute
   * (`https://vita.example.org/api/storage`) or path-only (`/api/storage`, resolved by the browser).
   */
  baseUrl: string;
  /** Clock in milliseconds (tests); defaults to `Date.now`. */
  now?: () => number;
  /** CSP `frame-ancestors` sources allowed to embed view URLs; defaults to `'self'`. */
  frameAncestors?: string;
  /** What happens around each upload received on a signed URL; by default nothing. */
  uploads?: UploadHooks;
  /**
   * The key every file is encrypted with. `null` stores files in plain (only the benchmark that
   * measures what encryption costs asks for that).
   */
  encryption: StorageKey | null;
  /** Told (for the log) when a stored file fails its integrity check; the caller gets `damaged`. */
  onDamaged?: (key: string, reason: string) => void;
  /**
   * Records a fetch of a file's bytes on a signed link, before they are sent (the audit log); a
   * failure refuses the fetch. By default nothing is recorded.
   */
  onFetch?: (grant: GetGrant, ip: string) => Promise<void>;
}

/** The document index's part in an upload to the local store. */
export interface UploadHooks {
  /**
   * Before a byte is received: throws (a {@link StorageError}) when the upload is not expected any
   * more (its client or category was deleted, it was already stored); returns what was declared.
   */
  before(key: string): Promise<DigestExpectation>;
  /** After the file is durable and visible: record it as stored (`ip`: the address that sent it). */
  after(key: string, digest: FileDigest, ip: string): Promise<void>;
}

/** The local store, plus what its HTTP routes need. */
export interface LocalObjectStore extends ObjectStore {
  readonly kind: 'local';
  readonly root: string;
  /** The key new files are encrypted with (null: plain, see {@link LocalStoreOptions.encryption}). */
  readonly encryption: StorageKey | null;
  readonly signer: UrlSigner;
  readonly frameAncestors: string;
  /** See {@link LocalStoreOptions.uploads}. */
  readonly uploads: UploadHooks;
  /** See {@link LocalStoreOptions.onFetch}. */
  recordFetch(grant: GetGrant, ip: string): Promise<void>;
  now(): number;
  /**
   * Streams `body` into the object at `key`: rejects with `too_large` as soon as `maxBytes` is passed,
   * with `unsupported_type` when the magic bytes are not on the allow-list and with `bad_digest` when
   * the bytes are not the `expected` ones; the temp file is removed on every failure. Resolves with
   * the bytes' digest once the file is durable and visible.
   */
  receive(key: string, body: UploadBody, maxBytes: number, expected?: DigestExpectation): Promise<FileDigest>;
  /** Opens an object for serving: its metadata, then its bytes. `not_found`, or `damaged`. */
  openObject(key: string): Promise<OpenedObject>;
  /** Removes temp files older than `maxAgeMs` left by a crash; returns how many. Call at start. */
  removeStaleTemp(maxAgeMs?: number): Promise<number>;
  /** Encrypts the file at `key` if it is still plain (see `encryptInPlace`). Needs a key. */
  encryptInPlace(key: string): Promise<InPlaceResult>;
  /**
   * From now on a file that is not encrypted is damage, not a file from before encryption: called
   * once every stored file has been encrypted, so plain bytes put on the disk later are never served.
   */
  refusePlaintext(): void;
}

/** A local-disk {@link ObjectStore} under `options.root`: composes its writing, reading, naming and links. */
export function createLocalStore(options: LocalStoreOptions): LocalObjectStore {
  const state = createLocalState({
    root: path.resolve(options.root),
    encryption: options.encryption,
    now: options.now ?? Date.now,
    onDamaged: options.onDamaged,
  });
  const { root, encryption, now } = state;
  const signer = createUrlSigner(options.signingKey);
  return {
    kind: 'local',
    root,
    signer,
    frameAncestors: options.frameAncestors ?? "'self'",
    uploads: options.uploads ?? { before: async () => ({}), after: async () => undefined },
    recordFetch: options.onFetch ?? (async () => undefined),
    encryption,
    now,
    ...localLinks(state, signer, options.baseUrl),
    list: (prefix) => listObjects(state, prefix),
    head: (key) => describe(state, key),
    read: async (key) => (await openStream(state, key)).stream,
    open: (key) => openStream(state, key),
    walk: () => walkObjects(root),
    openObject: (key) => openForServing(state, key),
    receive: (key, body, maxBytes, expected) => writeUpload(root, key, body, maxBytes, expected, encryption),
    async put(key, body, _contentType) {
      // The type is whatever the bytes are; the same checks as an upload apply.
      await writeUpload(root, key, [body], Number.MAX_SAFE_INTEGER, undefined, encryption);
    },
    copy: (from, to) => copyStored(state, from, to),
    delete: (keys) => deleteObjects(state, keys),
    deletePrefix: (prefix) => deletePrefix(state, prefix),
    removeStaleTemp: (maxAgeMs = 24 * 60 * 60 * 1000) => removeStaleTemp(root, now, maxAgeMs),
    async encryptInPlace(key) {
      if (!encryption) throw new Error('there is no storage key to encrypt with');
      return encryptInPlace(root, key, encryption, state.exclusive);
    },
    refusePlaintext: state.refusePlaintext,
  };
}
