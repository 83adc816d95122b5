/**
 * Reading the local store: a stored file opened and checked as far as can be without reading it all
 * (an encrypted file's header, a plain file's first bytes), then its plaintext streamed, whole or a
 * range, with its first chunk checked before the stream is handed over. The content type is read from
 * the (decrypted) first bytes, which were checked on upload.
 */
import type { Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  CHUNK_BYTES,
  HEADER_BYTES,
  isSealed,
  openSealed,
  SealedFileError,
  type SealedFile,
} from './encryption.js';
import { FALLBACK_CONTENT_TYPE, sniffContentType } from './filetypes.js';
import { isMissing, objectPath } from './local-layout.js';
import type { LocalState } from './local-state.js';
import { readHead } from './local-write.js';
import { SealedStream, type ByteRange } from './sealed-read.js';
import { fileGone, StorageError, storeUnavailable, type StoredObject } from './types.js';

/** A stored file opened for serving (see {@link openForServing}). */
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

/**
 * How much of a plain file is read at a time. Above the 64 KiB default, as ZIP streaming moves
 * gigabytes and every chunk has a cost; small, because a reader slower than the disk (a phone on a
 * bad network downloading a ZIP) keeps a chunk read ahead and one queued on its socket in this
 * process's memory for as long as it takes, and fifty such readers at once must not add up to much.
 */
const OPEN_CHUNK_BYTES = 128 * 1024;

/**
 * What opening a file reads: the header and the first chunk's record of an encrypted file (at the
 * chunk size files are written with), so its type and its first bytes cost no second read.
 */
const HEAD_BYTES = HEADER_BYTES + CHUNK_BYTES + 16;

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
 * Opens a file, or null when there is none (or it is not a file). Any other failure (EACCES, EIO,
 * EMFILE) is `unavailable`: the file may be there, so it is never reported as gone.
 */
async function openFile(file: string): Promise<{ handle: FileHandle; info: Stats } | null> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (isMissing(error)) return null;
    throw storeUnavailable(error);
  }
  try {
    const info = await handle.stat();
    if (info.isFile()) return { handle, info };
    await handle.close();
    return null;
  } catch (error) {
    await handle.close();
    throw storeUnavailable(error);
  }
}

/** Reads chunk `index` of an encrypted file and decrypts it. */
async function readChunk(handle: FileHandle, sealed: SealedFile, index: number): Promise<Buffer> {
  const { offset, length } = sealed.recordAt(index);
  const record = Buffer.allocUnsafe(length);
  const { bytesRead } = await handle.read(record, 0, length, offset);
  return sealed.decrypt(index, record.subarray(0, bytesRead));
}

/**
 * Opens the file of `key` and checks what can be checked without reading it all: an encrypted
 * file's header (version, key, authenticity, exact length); a plain one's first bytes (one of the
 * allowed types, as every upload was), and whether plain files are still accepted. Null when there
 * is no file; `damaged` otherwise.
 */
async function openStored(state: LocalState, key: string): Promise<OpenFile | null> {
  const { encryption } = state;
  const opened = await openFile(objectPath(state.root, key));
  if (!opened) return null;
  const { handle, info } = opened;
  try {
    // Without a key only the header's magic matters (an encrypted file is refused either way).
    const head = await readHead(handle, encryption ? HEAD_BYTES : HEADER_BYTES);
    if (isSealed(head)) {
      if (!encryption) throw new SealedFileError('it is encrypted and this server has no storage key');
      return { handle, info, sealed: openSealed(head, info.size, encryption, key), head };
    }
    if (encryption && !state.plaintextAllowed())
      throw new SealedFileError('it is not encrypted, though every stored file is');
    if (encryption && !sniffContentType(head))
      throw new SealedFileError('it is neither encrypted nor a document');
    return { handle, info, sealed: null, head };
  } catch (error) {
    await handle.close();
    throw state.asDamaged(key, error);
  }
}

/** An encrypted file's first chunk, decrypted and checked (from the bytes read at open when they hold it). */
async function firstChunk(
  state: LocalState,
  key: string,
  opened: OpenFile,
  sealed: SealedFile,
): Promise<Buffer> {
  if (opened.first) return opened.first;
  const { offset, length } = sealed.recordAt(0);
  try {
    opened.first =
      opened.head.length >= offset + length
        ? sealed.decrypt(0, opened.head.subarray(offset, offset + length))
        : await readChunk(opened.handle, sealed, 0);
  } catch (error) {
    throw state.asDamaged(key, error);
  }
  return opened.first;
}

/** An open file's plaintext size and its type from its first bytes (decrypted and checked). */
async function typeAndSize(
  state: LocalState,
  key: string,
  opened: OpenFile,
): Promise<{ size: number; contentType: string }> {
  if (!opened.sealed)
    return { size: opened.info.size, contentType: sniffContentType(opened.head) ?? FALLBACK_CONTENT_TYPE };
  const first = await firstChunk(state, key, opened, opened.sealed);
  return { size: opened.sealed.size, contentType: sniffContentType(first) ?? FALLBACK_CONTENT_TYPE };
}

/** The plaintext of an open file (whole or a range), its first chunk checked; the stream owns the handle. */
async function plaintext(
  state: LocalState,
  key: string,
  opened: OpenFile,
  range?: ByteRange,
): Promise<Readable> {
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
      ? await firstChunk(state, key, opened, opened.sealed).catch(async (error: unknown) => {
          await opened.handle.close();
          throw error;
        })
      : undefined;
  const stream = new SealedStream(
    opened.handle,
    opened.sealed,
    range,
    (error) => state.asDamaged(key, error) as Error,
    first,
  );
  try {
    await stream.prime();
  } catch (error) {
    stream.destroy();
    throw state.asDamaged(key, error);
  }
  return stream;
}

/** What a listing shows of one file (a damaged file shows with its size on disk and no type); null when there is none. */
export async function describe(state: LocalState, key: string): Promise<StoredObject | null> {
  let opened: OpenFile | null;
  try {
    opened = await openStored(state, key);
  } catch (error) {
    if (!(error instanceof StorageError && error.kind === 'damaged')) throw error;
    const info = await stat(objectPath(state.root, key)).catch(() => null);
    return info
      ? { key, size: info.size, lastModified: info.mtime, contentType: FALLBACK_CONTENT_TYPE }
      : null;
  }
  if (!opened) return null;
  try {
    return { key, lastModified: opened.info.mtime, ...(await typeAndSize(state, key, opened)) };
  } catch (error) {
    if (!(error instanceof StorageError && error.kind === 'damaged')) throw error;
    return {
      key,
      size: opened.info.size,
      lastModified: opened.info.mtime,
      contentType: FALLBACK_CONTENT_TYPE,
    };
  } finally {
    await opened.handle.close();
  }
}

/** Resolves when the file of `key` is there with its header intact: `not_found`, or `damaged`. */
export async function assertReadable(state: LocalState, key: string): Promise<void> {
  const opened = await openStored(state, key);
  if (!opened) throw fileGone();
  await opened.handle.close();
}

/** The whole plaintext of `key` and its size: `not_found`, or `damaged`. */
export async function openStream(
  state: LocalState,
  key: string,
): Promise<{ size: number; stream: Readable }> {
  const opened = await openStored(state, key);
  if (!opened) throw fileGone();
  const size = opened.sealed?.size ?? opened.info.size;
  // Its first chunk is checked before this resolves: a ZIP never starts an entry for a file whose
  // header or first chunk is damaged.
  return { size, stream: await plaintext(state, key, opened) };
}

/** Opens `key` for serving: its metadata, then its bytes. `not_found`, or `damaged`. */
export async function openForServing(state: LocalState, key: string): Promise<OpenedObject> {
  const opened = await openStored(state, key);
  if (!opened) throw fileGone();
  let described: { size: number; contentType: string };
  try {
    described = await typeAndSize(state, key, opened);
  } catch (error) {
    await opened.handle.close();
    throw error;
  }
  return {
    object: { key, lastModified: opened.info.mtime, ...described },
    stream: (range) => plaintext(state, key, opened, range),
    close: () => opened.handle.close(),
  };
}
