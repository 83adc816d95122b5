/**
 * The local-disk object store (the default, under `DATA_DIR`). Uploads and downloads go through the
 * server on HMAC-signed URLs (`local-routes.ts`). Writes land in a temp file, are fsynced and then
 * renamed into place, so a killed upload never appears and no partial file is ever listed. The
 * content type is not stored: it is read from the file's magic bytes, which were checked on upload.
 */
import { open, readdir, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { isClientId, parseDocKey } from '@vita-docs/core';
import type { DigestExpectation, FileDigest } from './digest.js';
import { FALLBACK_CONTENT_TYPE, SNIFF_BYTES, assertUploadLimits, sniffContentType } from './filetypes.js';
import { assertPrefix } from './keys.js';
import { TEMP_DIR, categoryFromDir, objectPath, prefixPath } from './local-layout.js';
import { copyObject, writeUpload, type UploadBody } from './local-write.js';
import { createUrlSigner, type UrlSigner } from './signing.js';
import { fileGone, type ObjectStore, type PresignedUpload, type PresignedUrl, type StoredObject } from './types.js';

/** How to build a {@link LocalObjectStore}. */
export interface LocalStoreOptions {
  /** Directory holding the files (created on first write), e.g. `${DATA_DIR}/files`. */
  root: string;
  /** Server secret the URL signatures are derived from. */
  secret: Buffer | string;
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

/** The local store, plus what its HTTP routes need. */
export interface LocalObjectStore extends ObjectStore {
  readonly kind: 'local';
  readonly root: string;
  readonly signer: UrlSigner;
  readonly frameAncestors: string;
  /** See {@link LocalStoreOptions.uploads}. */
  readonly uploads: UploadHooks;
  now(): number;
  /**
   * Streams `body` into the object at `key`: rejects with `too_large` as soon as `maxBytes` is passed,
   * with `unsupported_type` when the magic bytes are not on the allow-list and with `bad_digest` when
   * the bytes are not the `expected` ones; the temp file is removed on every failure. Resolves with
   * the bytes' digest once the file is durable and visible.
   */
  receive(key: string, body: UploadBody, maxBytes: number, expected?: DigestExpectation): Promise<FileDigest>;
  /** Opens an object for serving: its handle, metadata and sniffed type. Caller closes the handle. */
  openObject(key: string): Promise<{ handle: FileHandle; object: StoredObject }>;
  /** Removes temp files older than `maxAgeMs` left by a crash; returns how many. Call at start. */
  removeStaleTemp(maxAgeMs?: number): Promise<number>;
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

/** Reads up to {@link SNIFF_BYTES} leading bytes of an open file. */
async function readHead(handle: FileHandle): Promise<Uint8Array> {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
  return buffer.subarray(0, bytesRead);
}

/** Opens a file and reads what a listing shows; null when there is no such file. */
async function openAndDescribe(
  key: string,
  file: string,
): Promise<{ handle: FileHandle; object: StoredObject } | null> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return null;
    }
    const contentType = sniffContentType(await readHead(handle)) ?? FALLBACK_CONTENT_TYPE;
    return { handle, object: { key, size: info.size, lastModified: info.mtime, contentType } };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A file's listing entry, or null. */
async function describe(key: string, file: string): Promise<StoredObject | null> {
  const opened = await openAndDescribe(key, file);
  await opened?.handle.close();
  return opened?.object ?? null;
}

/** A local-disk {@link ObjectStore} under `options.root`. */
export function createLocalStore(options: LocalStoreOptions): LocalObjectStore {
  const root = path.resolve(options.root);
  const now = options.now ?? Date.now;
  const signer = createUrlSigner(options.secret);
  const base = options.baseUrl.replace(/\/+$/, '');
  const expiry = (seconds: number) => Math.floor(now() / 1000) + Math.max(1, Math.floor(seconds));

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
        .map((key) => describe(key, path.join(dir, key.slice(key.lastIndexOf('/') + 1)))),
    );
    return found.filter((item): item is StoredObject => item !== null);
  }

  const store: LocalObjectStore = {
    kind: 'local',
    root,
    signer,
    frameAncestors: options.frameAncestors ?? "'self'",
    uploads: options.uploads ?? { before: async () => ({}), after: async () => undefined },
    now,

    async presignPut(key, contentType, { expiresInSeconds, maxBytes }): Promise<PresignedUpload> {
      objectPath(root, key);
      assertUploadLimits(contentType, maxBytes);
      const expires = expiry(expiresInSeconds);
      const query = signer.sign({ method: 'PUT', key, contentType, maxBytes, expires });
      // A declared size and SHA-256 are checked by the upload hooks while the bytes stream in.
      return { url: `${base}/put?${query}`, expiresAt: new Date(expires * 1000), headers: {} };
    },

    async presignGet(
      key,
      { expiresInSeconds, disposition, downloadName, contentType },
    ): Promise<PresignedUrl> {
      // Only whether the file is there matters here: one stat, not `head`'s open, read and close.
      const info = await stat(objectPath(root, key)).catch((error: unknown) => {
        if (isMissing(error)) return null;
        throw error;
      });
      if (!info?.isFile()) throw fileGone();
      const expires = expiry(expiresInSeconds);
      const query = signer.sign({
        method: 'GET',
        key,
        disposition,
        downloadName,
        contentType: contentType ?? '',
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
      return describe(key, objectPath(root, key));
    },

    async read(key) {
      return (await store.open(key)).stream;
    },

    async open(key) {
      const file = objectPath(root, key);
      let handle: FileHandle;
      try {
        handle = await open(file, 'r');
      } catch (error) {
        throw isMissing(error) ? fileGone() : error;
      }
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw fileGone();
        return { size: info.size, stream: handle.createReadStream({ start: 0, highWaterMark: OPEN_CHUNK_BYTES }) };
      } catch (error) {
        await handle.close();
        throw error;
      }
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
            const info = await stat(path.join(clientDir, dir, name)).catch(() => null);
            if (info?.isFile()) yield { key, size: info.size, lastModified: info.mtime };
          }
        }
      }
    },

    async openObject(key) {
      const opened = await openAndDescribe(key, objectPath(root, key));
      if (!opened) throw fileGone();
      return opened;
    },

    async receive(key, body, maxBytes, expected) {
      return writeUpload(root, key, body, maxBytes, expected);
    },

    async put(key, body, _contentType) {
      // The type is whatever the bytes are; the same checks as an upload apply.
      await store.receive(key, [body], Number.MAX_SAFE_INTEGER);
    },

    async copy(from, to) {
      await copyObject(root, from, to).catch((error: unknown) => {
        throw isMissing(error) ? fileGone() : error;
      });
    },

    async delete(keys) {
      const files = keys.map((key) => objectPath(root, key));
      await Promise.all(
        files.map((file) =>
          unlink(file).catch((error: unknown) => {
            if (!isMissing(error)) throw error;
          }),
        ),
      );
    },

    async deletePrefix(prefix) {
      const { clientId, encodedDocType } = assertPrefix(prefix);
      const count = (await store.list(prefix)).length;
      await rm(prefixPath(root, clientId, encodedDocType), { recursive: true, force: true });
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
  };
  return store;
}
