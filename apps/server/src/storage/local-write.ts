/**
 * Every write into the local store takes the same path: a temp file inside the root (same file
 * system), fsync, atomic rename into place, fsync of the directory. A write that dies half-way
 * leaves at most a temp file, which is never listed and is swept later. With a storage key, what is
 * written is the encrypted file (`encryption.ts`); sizes, digests and type checks are of the plaintext.
 */
import {
  copyFile,
  constants,
  link,
  open,
  readdir,
  rename,
  rm,
  stat,
  type FileHandle,
} from 'node:fs/promises';
import path from 'node:path';
import { assertExpected, createDigester, type DigestExpectation, type FileDigest } from './digest.js';
import {
  HEADER_BYTES,
  createSealer,
  isSealed,
  openSealed,
  SealedFileError,
  type Sealer,
  type StorageKey,
} from './encryption.js';
import { SNIFF_BYTES, UNSUPPORTED_TYPE_MESSAGE, sniffContentType, tooLarge } from './filetypes.js';
import { ensureCategoryDir, objectPath, syncDir, tempPath, TEMP_DIR } from './local-layout.js';
import { isNoSpace, noSpace, StorageError, uploadLinkUsed } from './types.js';

/** What an upload body may be: an HTTP request, a file stream, or chunks in memory. */
export type UploadBody = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

const unsupported = () => new StorageError('unsupported_type', UNSUPPORTED_TYPE_MESSAGE);

/**
 * Received bytes are written in batches of about this size. A request arrives in network chunks of
 * 64 KiB or less, and each write is a trip to the thread pool the whole server shares: under load,
 * one write per chunk would make uploads queue behind each other's writes (and every file read and
 * fsync behind them). The batch is the most an upload holds in memory beyond its socket's own buffer.
 */
const WRITE_BATCH_BYTES = 256 * 1024;

/** Writes a whole chunk at `position` (a single `write` may be partial). */
async function writeAll(handle: FileHandle, chunk: Uint8Array, position: number): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset, position + offset);
    offset += bytesWritten;
  }
}

/**
 * Collects bytes for a file and writes them in batches of {@link WRITE_BATCH_BYTES}; with a sealer,
 * what it collects is encrypted on the way and the header is written last, at offset 0.
 */
function batchedWriter(handle: FileHandle, sealer: Sealer | null) {
  let position = sealer ? HEADER_BYTES : 0;
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batchBytes === 0) return;
    const bytes = batch.length === 1 ? (batch[0] as Uint8Array) : Buffer.concat(batch, batchBytes);
    batch = [];
    batchBytes = 0;
    await writeAll(handle, bytes, position);
    position += bytes.length;
  };
  const add = async (pieces: readonly Uint8Array[]) => {
    for (const piece of pieces) {
      batch.push(piece);
      batchBytes += piece.length;
    }
    if (batchBytes >= WRITE_BATCH_BYTES) await flush();
  };
  return {
    write: (chunk: Uint8Array) => add(sealer ? sealer.update(chunk) : [chunk]),
    async end() {
      if (sealer) {
        const { tail, header } = sealer.finish();
        await add(tail);
        await flush();
        await writeAll(handle, header, 0);
      } else {
        await flush();
      }
    },
  };
}

/**
 * Moves a finished, fsynced temp file to `key`'s place; the file appears whole or not at all. It
 * never replaces an existing document: a reused upload link cannot overwrite what is stored.
 */
async function publish(root: string, tmp: string, key: string): Promise<string> {
  const target = await ensureCategoryDir(root, key);
  try {
    await link(tmp, target);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST') {
      throw uploadLinkUsed();
    }
    throw error;
  }
  await rm(tmp, { force: true });
  await syncDir(path.dirname(target));
  return target;
}

/**
 * Streams `body` to `key`, computing its {@link FileDigest} on the way. Stops with `too_large` the
 * moment `maxBytes` is passed, with `unsupported_type` as soon as the first bytes show a type outside
 * the allow-list (or the body is empty), and with `bad_digest` when the bytes differ from what was
 * declared. Returns once the file is durable and visible.
 */
export async function writeUpload(
  root: string,
  key: string,
  body: UploadBody,
  maxBytes: number,
  expected: DigestExpectation | undefined,
  encryption: StorageKey | null,
): Promise<FileDigest> {
  objectPath(root, key);
  const tmp = await tempPath(root);
  const handle = await open(tmp, 'wx', 0o600).catch((error: unknown) => {
    throw isNoSpace(error) ? noSpace(error) : error;
  });
  const digester = createDigester();
  const writer = batchedWriter(handle, encryption ? createSealer(encryption, key) : null);
  let size = 0;
  let sniffed = false;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      digester.update(chunk);
      if (!sniffed && digester.head.length >= SNIFF_BYTES) {
        if (!sniffContentType(digester.head)) throw unsupported();
        sniffed = true;
      }
      await writer.write(chunk);
    }
    await writer.end();
    if (size === 0) throw new StorageError('unsupported_type', 'The file is empty.');
    const digest = digester.digest();
    if (!digest.contentType) throw unsupported();
    assertExpected(digest, expected);
    await handle.sync();
    await handle.close();
    await publish(root, tmp, key);
    return digest;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw isNoSpace(error) ? noSpace(error) : error;
  }
}

/**
 * Removes temp files older than `maxAgeMs` (by `now`) left by writes a crash interrupted; returns how
 * many. Only old ones: another process sharing this directory may be mid-upload.
 */
export async function removeStaleTemp(root: string, now: () => number, maxAgeMs: number): Promise<number> {
  const dir = path.join(root, TEMP_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && now() - info.mtimeMs > maxAgeMs) {
      await rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}

/** Reads up to `length` leading bytes of an open file. */
export async function readHead(handle: FileHandle, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, 0);
  return buffer.subarray(0, bytesRead);
}

/**
 * Copies `from` to `to` through a temp file. An encrypted file keeps its records as they are and
 * gets a header bound to its new key; a plain one (stored before encryption) is encrypted on the way
 * when there is a key, else copied (a reflink where the file system can).
 */
export async function copyObject(
  root: string,
  from: string,
  to: string,
  encryption: StorageKey | null,
): Promise<void> {
  const source = objectPath(root, from);
  objectPath(root, to);
  const input = await open(source, 'r');
  const tmp = await tempPath(root);
  try {
    const size = (await input.stat()).size;
    const head = await readHead(input, HEADER_BYTES);
    if (isSealed(head) || encryption) {
      if (isSealed(head) && !encryption)
        throw new SealedFileError('it is encrypted and this server has no storage key');
      const output = await open(tmp, 'wx', 0o600);
      try {
        if (isSealed(head)) {
          const sealed = openSealed(head, size, encryption as StorageKey, from);
          await writeAll(output, sealed.headerFor(to), 0);
          // The records as they are: same data key, same bytes.
          let position = HEADER_BYTES;
          for await (const chunk of input.createReadStream({
            start: HEADER_BYTES,
            autoClose: false,
            highWaterMark: WRITE_BATCH_BYTES,
          })) {
            await writeAll(output, chunk as Buffer, position);
            position += (chunk as Buffer).length;
          }
        } else {
          const writer = batchedWriter(output, createSealer(encryption as StorageKey, to));
          for await (const chunk of input.createReadStream({
            start: 0,
            autoClose: false,
            highWaterMark: WRITE_BATCH_BYTES,
          })) {
            await writer.write(chunk as Buffer);
          }
          await writer.end();
        }
        await output.sync();
      } finally {
        await output.close();
      }
    } else {
      await copyFile(source, tmp, constants.COPYFILE_FICLONE);
      const handle = await open(tmp, 'r+');
      await handle.sync().finally(() => handle.close());
    }
    await publish(root, tmp, to);
  } catch (error) {
    await rm(tmp, { force: true });
    throw isNoSpace(error) ? noSpace(error) : error;
  } finally {
    await input.close();
  }
}

/** What {@link encryptInPlace} did with one file. */
export type InPlaceResult = 'encrypted' | 'already' | 'gone' | 'unrecognised';

/**
 * Replaces the plain file at `key` with its encrypted form: the encrypted copy is written to a temp
 * file and fsynced, then renamed over the plain one (inside `exclusive`, and only if the plain file
 * is still the one that was read: a file deleted meanwhile stays deleted). A crash at any point leaves
 * the plain file or the encrypted one, never half of either; files already encrypted are left alone.
 */
export async function encryptInPlace(
  root: string,
  key: string,
  encryption: StorageKey,
  exclusive: <T>(work: () => Promise<T>) => Promise<T>,
): Promise<InPlaceResult> {
  const file = objectPath(root, key);
  let input: FileHandle;
  try {
    input = await open(file, 'r');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return 'gone';
    throw error;
  }
  let tmp: string | undefined;
  try {
    const before = await input.stat();
    const head = await readHead(input, HEADER_BYTES);
    if (isSealed(head)) return 'already';
    // Plain files were checked by their magic bytes when uploaded; anything else is not ours to rewrite.
    if (!before.isFile() || !sniffContentType(head)) return 'unrecognised';
    tmp = await tempPath(root);
    const output = await open(tmp, 'wx', 0o600);
    try {
      const writer = batchedWriter(output, createSealer(encryption, key));
      for await (const chunk of input.createReadStream({
        start: 0,
        autoClose: false,
        highWaterMark: WRITE_BATCH_BYTES,
      })) {
        await writer.write(chunk as Buffer);
      }
      await writer.end();
      // The sweeper judges a file's age by its time: the encrypted copy keeps the plain file's.
      await output.utimes(before.atime, before.mtime);
      await output.sync();
    } finally {
      await output.close();
    }
    const replaced = await exclusive(async () => {
      const now = await stat(file).catch(() => null);
      if (!now || now.ino !== before.ino || now.size !== before.size || now.mtimeMs !== before.mtimeMs)
        return false;
      await rename(tmp as string, file);
      return true;
    });
    if (!replaced) return 'gone';
    tmp = undefined;
    await syncDir(path.dirname(file));
    return 'encrypted';
  } catch (error) {
    throw isNoSpace(error) ? noSpace(error) : error;
  } finally {
    await input.close();
    if (tmp) await rm(tmp, { force: true });
  }
}
