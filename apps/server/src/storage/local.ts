/**
 * The local-disk object store (the default, under `DATA_DIR`). Uploads and downloads go through the
 * server on HMAC-signed URLs (`local-routes.ts`). Writes land in a temp file, are fsynced and then
 * renamed into place, so a killed upload never appears and no partial file is ever listed. With a
 * storage key every file is encrypted (`encryption.ts`); everything else (sizes, types, digests,
 * ranges) is of the plaintext. The content type is not stored: it is read from the file's first
 * (decrypted) bytes, which were checked on upload.
 */
import type { Stats } from 'node:fs';
import { open, readdir, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isClientId, parseDocKey } from '@vita-docs/core';
import type { DigestExpectation, FileDigest } from './digest.js';
import { CHUNK_BYTES, HEADER_BYTES, isSealed, openSealed, SealedFileError, type SealedFile, type StorageKey } from './encryption.js';
import { FALLBACK_CONTENT_TYPE, assertUploadLimits, sniffContentType } from './filetypes.js';
import { assertPrefix } from './keys.js';
import { TEMP_DIR, categoryFromDir, objectPath, prefixPath } from './local-layout.js';
import { copyObject, encryptInPlace, readHead, writeUpload, type InPlaceResult, type UploadBody } from './local-write.js';
import { SealedStream, type ByteRange } from './sealed-read.js';
import { createUrlSigner, type GetGrant, type UrlSigner } from './signing.js';
import { fileDamaged, fileGone, LINK_SECONDS, StorageError, type ObjectStore, type PresignedUpload, type PresignedUrl, type StoredObject } from './types.js';

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
   * The key every file is encrypted with. `null` stores files in plain, as before encryption existed
   * (only the benchmark that measures what encryption costs asks for that).
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
  /** After the file is durable and visible: record it as stored. */
  after(key: string, digest: FileDigest): Promise<void>;
}

/** A stored file opened for serving (see {@link LocalObjectStore.openObject}). */
export interface OpenedObject {
  /** Its plaintext size and its type (from its first bytes). */
  object: StoredObject;
  /**
   * Its plaintext, whole or `range` of it (both ends included; the caller checks the range against
   * the size). The first chunk has passed its check when this resolves. Call at most once; the
   * stream closes the file.
   */
  stream(range?: ByteRange): Promise<Readable>;
  /** Closes the file without reading it. */
  close(): Promise<void>;
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

/**
 * How much of a file `open` reads at a time. Above the 64 KiB default, as ZIP streaming moves
 * gigabytes and every chunk has a cost; but a reader slower than the disk (a phone on a bad network
 * downloading a ZIP) keeps a chunk read ahead and one queued on its socket in this process's memory
 * for as long as it takes. At 1 MiB (and one more chunk in the ZIP stream) that was about 3 MB per
 * slow download, 150 MB for 50 of them; at 128 KiB the ZIP still streams faster than a plain file.
 */
const OPEN_CHUNK_BYTES = 128 * 1024;

const isMissing = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');

/** A stored file, open: plain, or encrypted with its header checked. */
interface OpenFile {
  handle: FileHandle;
  info: Stats;
  /** Null for a plain file. */
  sealed: SealedFile | null;
  /** The file's first bytes: a plain file's, or an encrypted file's header and first chunk record. */
  head: Buffer;
  /** An encrypted file's first chunk, once decrypted. */
  first?: Buffer;
}

/**
 * What opening a file reads: the header and the first chunk's record of an encrypted file (at the
 * chunk size files are written with), so its type and its first bytes cost no second read.
 */
const HEAD_BYTES = HEADER_BYTES + CHUNK_BYTES + 16;

/** Opens a file, or null when there is none (or it is not a file). */
async function openFile(file: string): Promise<{ handle: FileHandle; info: Stats } | null> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (info.isFile()) return { handle, info };
    await handle.close();
    return null;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Reads chunk `index` of an encrypted file and decrypts it. */
async function readChunk(handle: FileHandle, sealed: SealedFile, index: number): Promise<Buffer> {
  const { offset, length } = sealed.recordAt(index);
  const record = Buffer.allocUnsafe(length);
  const { bytesRead } = await handle.read(record, 0, length, offset);
  return sealed.decrypt(index, record.subarray(0, bytesRead));
}

/** A local-disk {@link ObjectStore} under `options.root`. */
export function createLocalStore(options: LocalStoreOptions): LocalObjectStore {
  const root = path.resolve(options.root);
  const now = options.now ?? Date.now;
  const signer = createUrlSigner(options.signingKey);
  const base = options.baseUrl.replace(/\/+$/, '');
  const expiry = (method: keyof typeof LINK_SECONDS, seconds: number) => {
    if (seconds > LINK_SECONDS[method]) throw new RangeError(`a ${method} link lives at most ${LINK_SECONDS[method]} s`);
    return Math.floor(now() / 1000) + Math.max(1, Math.floor(seconds));
  };
  const encryption = options.encryption;
  // Plain files are those stored before encryption, until every one has been encrypted.
  let plaintextAllowed = true;

  /** The `damaged` refusal for `key`, reported once to the log hook. */
  const damaged = (key: string, reason: string) => {
    options.onDamaged?.(key, reason);
    return fileDamaged(reason);
  };
  const asDamaged = (key: string, error: unknown): unknown =>
    error instanceof SealedFileError ? damaged(key, error.message) : error;

  /** Deletes and the last step of encrypting a file in place run one at a time (see `encryptInPlace`). */
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  /**
   * Opens the file of `key` and checks what can be checked without reading it all: an encrypted
   * file's header (version, key, authenticity, exact length); a plain one's first bytes (one of the
   * allowed types, as every upload was), and whether plain files are still accepted. Null when there
   * is no file; `damaged` otherwise.
   */
  async function openStored(key: string): Promise<OpenFile | null> {
    const opened = await openFile(objectPath(root, key));
    if (!opened) return null;
    const { handle, info } = opened;
    try {
      // Without a key only the header's magic matters (an encrypted file is refused either way).
      const head = await readHead(handle, encryption ? HEAD_BYTES : HEADER_BYTES);
      if (isSealed(head)) {
        if (!encryption) throw new SealedFileError('it is encrypted and this server has no storage key');
        return { handle, info, sealed: openSealed(head, info.size, encryption, key), head };
      }
      if (encryption && !plaintextAllowed) throw new SealedFileError('it is not encrypted, though every stored file is');
      if (encryption && !sniffContentType(head)) throw new SealedFileError('it is neither encrypted nor a document');
      return { handle, info, sealed: null, head };
    } catch (error) {
      await handle.close();
      throw asDamaged(key, error);
    }
  }

  /** What a listing shows of one file (a damaged file shows with its size on disk and no type). */
  async function describe(key: string): Promise<StoredObject | null> {
    let opened: OpenFile | null;
    try {
      opened = await openStored(key);
    } catch (error) {
      if (!(error instanceof StorageError && error.kind === 'damaged')) throw error;
      const info = await stat(objectPath(root, key)).catch(() => null);
      return info ? { key, size: info.size, lastModified: info.mtime, contentType: FALLBACK_CONTENT_TYPE } : null;
    }
    if (!opened) return null;
    try {
      return { key, lastModified: opened.info.mtime, ...(await typeAndSize(key, opened)) };
    } catch (error) {
      if (!(error instanceof StorageError && error.kind === 'damaged')) throw error;
      return { key, size: opened.info.size, lastModified: opened.info.mtime, contentType: FALLBACK_CONTENT_TYPE };
    } finally {
      await opened.handle.close();
    }
  }

  /** An encrypted file's first chunk, decrypted and checked (from the bytes read at open when they hold it). */
  async function firstChunk(key: string, opened: OpenFile, sealed: SealedFile): Promise<Buffer> {
    if (opened.first) return opened.first;
    const { offset, length } = sealed.recordAt(0);
    try {
      opened.first =
        opened.head.length >= offset + length
          ? sealed.decrypt(0, opened.head.subarray(offset, offset + length))
          : await readChunk(opened.handle, sealed, 0);
    } catch (error) {
      throw asDamaged(key, error);
    }
    return opened.first;
  }

  /** An open file's plaintext size and its type from its first bytes (decrypted and checked). */
  async function typeAndSize(key: string, opened: OpenFile): Promise<{ size: number; contentType: string }> {
    if (!opened.sealed) return { size: opened.info.size, contentType: sniffContentType(opened.head) ?? FALLBACK_CONTENT_TYPE };
    const first = await firstChunk(key, opened, opened.sealed);
    return { size: opened.sealed.size, contentType: sniffContentType(first) ?? FALLBACK_CONTENT_TYPE };
  }

  /** The plaintext of an open file (whole or a range), its first chunk checked; the stream owns the handle. */
  async function plaintext(key: string, opened: OpenFile, range?: ByteRange): Promise<Readable> {
    if (!opened.sealed) {
      return opened.handle.createReadStream({
        start: range?.start ?? 0,
        ...(range && { end: range.end }),
        highWaterMark: OPEN_CHUNK_BYTES,
      });
    }
    // A chunk further on that fails ends the stream with `damaged` (reported once).
    const first =
      (range?.start ?? 0) < opened.sealed.chunkBytes
        ? await firstChunk(key, opened, opened.sealed).catch(async (error: unknown) => {
            await opened.handle.close();
            throw error;
          })
        : undefined;
    const stream = new SealedStream(opened.handle, opened.sealed, range, (error) => asDamaged(key, error) as Error, first);
    try {
      await stream.prime();
    } catch (error) {
      stream.destroy();
      throw asDamaged(key, error);
    }
    return stream;
  }

  async function listCategory(
    clientId: string,
    encodedDocType: string,
    dir: string,
  ): Promise<StoredObject[]> {
    const names = await readdir(dir).catch((error: unknown) => {
      if (isMissing(error)) return [];
      throw error;
    });
    const found = await Promise.all(
      names
        .filter((name) => !name.startsWith('.'))
        .map((name) => `${clientId}/${encodedDocType}/${name}`)
        // Only what could have been written through a valid key is listed.
        .filter((key) => parseDocKey(key) !== null)
        .map((key) => describe(key)),
    );
    return found.filter((item): item is StoredObject => item !== null);
  }

  const store: LocalObjectStore = {
    kind: 'local',
    root,
    signer,
    frameAncestors: options.frameAncestors ?? "'self'",
    uploads: options.uploads ?? { before: async () => ({}), after: async () => undefined },
    recordFetch: options.onFetch ?? (async () => undefined),
    encryption,
    now,

    async presignPut(key, contentType, { expiresInSeconds, maxBytes }): Promise<PresignedUpload> {
      objectPath(root, key);
      assertUploadLimits(contentType, maxBytes);
      const expires = expiry('PUT', expiresInSeconds);
      const query = signer.sign({ method: 'PUT', key, contentType, maxBytes, expires });
      // A declared size and SHA-256 are checked by the upload hooks while the bytes stream in.
      return { url: `${base}/put?${query}`, expiresAt: new Date(expires * 1000), headers: {} };
    },

    async presignGet(
      key,
      { expiresInSeconds, disposition, downloadName, contentType, issuedUnder },
    ): Promise<PresignedUrl> {
      // The file must be there, and its header intact: a damaged file is refused here already, so the
      // app can say so instead of opening a link that fails.
      const opened = await openStored(key);
      if (!opened) throw fileGone();
      await opened.handle.close();
      const expires = expiry('GET', expiresInSeconds);
      const query = signer.sign({
        method: 'GET',
        key,
        disposition,
        downloadName,
        contentType: contentType ?? '',
        issuedUnder: issuedUnder ?? 0,
        expires,
      });
      return { url: `${base}/get?${query}`, expiresAt: new Date(expires * 1000) };
    },

    async list(prefix) {
      const { clientId, encodedDocType } = assertPrefix(prefix);
      let items: StoredObject[];
      if (encodedDocType !== null) {
        items = await listCategory(clientId, encodedDocType, prefixPath(root, clientId, encodedDocType));
      } else {
        const clientDir = prefixPath(root, clientId, null);
        const dirs = await readdir(clientDir).catch((error: unknown) => {
          if (isMissing(error)) return [];
          throw error;
        });
        const nested = await Promise.all(
          dirs.map(async (dir) => {
            const encoded = await categoryFromDir(clientDir, dir);
            return encoded === null ? [] : listCategory(clientId, encoded, path.join(clientDir, dir));
          }),
        );
        items = nested.flat();
      }
      return items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },

    async head(key) {
      return describe(key);
    },

    async read(key) {
      return (await store.open(key)).stream;
    },

    async open(key) {
      const opened = await openStored(key);
      if (!opened) throw fileGone();
      const size = opened.sealed?.size ?? opened.info.size;
      // Its first chunk is checked before this resolves: a ZIP never starts an entry for a file whose
      // header or first 128 KiB are damaged.
      return { size, stream: await plaintext(key, opened) };
    },

    async *walk() {
      const clients = await readdir(root).catch((error: unknown) => {
        if (isMissing(error)) return [];
        throw error;
      });
      for (const clientId of clients.filter(isClientId).sort()) {
        const clientDir = prefixPath(root, clientId, null);
        for (const dir of (await readdir(clientDir).catch(() => [] as string[])).sort()) {
          const encoded = await categoryFromDir(clientDir, dir);
          if (encoded === null) continue;
          for (const name of (await readdir(path.join(clientDir, dir)).catch(() => [] as string[])).sort()) {
            const key = `${clientId}/${encoded}/${name}`;
            if (name.startsWith('.') || parseDocKey(key) === null) continue;
            // The size on disk (an encrypted file's is larger than its plaintext): nothing is opened here.
            const info = await stat(path.join(clientDir, dir, name)).catch(() => null);
            if (info?.isFile()) yield { key, size: info.size, lastModified: info.mtime };
          }
        }
      }
    },

    async openObject(key) {
      const opened = await openStored(key);
      if (!opened) throw fileGone();
      let described: { size: number; contentType: string };
      try {
        described = await typeAndSize(key, opened);
      } catch (error) {
        await opened.handle.close();
        throw error;
      }
      return {
        object: { key, lastModified: opened.info.mtime, ...described },
        stream: (range) => plaintext(key, opened, range),
        close: () => opened.handle.close(),
      };
    },

    async receive(key, body, maxBytes, expected) {
      return writeUpload(root, key, body, maxBytes, expected, encryption);
    },

    async put(key, body, _contentType) {
      // The type is whatever the bytes are; the same checks as an upload apply.
      await store.receive(key, [body], Number.MAX_SAFE_INTEGER);
    },

    async copy(from, to) {
      await copyObject(root, from, to, encryption).catch((error: unknown) => {
        throw isMissing(error) ? fileGone() : asDamaged(from, error);
      });
    },

    async delete(keys) {
      const files = keys.map((key) => objectPath(root, key));
      await exclusive(() =>
        Promise.all(
          files.map((file) =>
            unlink(file).catch((error: unknown) => {
              if (!isMissing(error)) throw error;
            }),
          ),
        ),
      );
    },

    async deletePrefix(prefix) {
      const { clientId, encodedDocType } = assertPrefix(prefix);
      const count = (await store.list(prefix)).length;
      await exclusive(() => rm(prefixPath(root, clientId, encodedDocType), { recursive: true, force: true }));
      return count;
    },

    async removeStaleTemp(maxAgeMs = 24 * 60 * 60 * 1000) {
      const dir = path.join(root, TEMP_DIR);
      const names = await readdir(dir).catch(() => [] as string[]);
      let removed = 0;
      for (const name of names) {
        const file = path.join(dir, name);
        const info = await stat(file).catch(() => null);
        // Only old ones: another process sharing this directory may be mid-upload.
        if (info && now() - info.mtimeMs > maxAgeMs) {
          await rm(file, { force: true });
          removed += 1;
        }
      }
      return removed;
    },

    async encryptInPlace(key) {
      if (!encryption) throw new Error('there is no storage key to encrypt with');
      return encryptInPlace(root, key, encryption, exclusive);
    },

    refusePlaintext() {
      if (encryption) plaintextAllowed = false;
    },
  };
  return store;
}
