/**
 * Every write into the local store takes the same path: a temp file inside the root (same file
 * system), fsync, atomic rename into place, fsync of the directory. A write that dies half-way
 * leaves at most a temp file, which is never listed and is swept later.
 */
import { copyFile, constants, link, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { assertExpected, createDigester, type DigestExpectation, type FileDigest } from './digest.js';
import { SNIFF_BYTES, UNSUPPORTED_TYPE_MESSAGE, sniffContentType, tooLarge } from './filetypes.js';
import { ensureCategoryDir, objectPath, syncDir, tempPath } from './local-layout.js';
import { isNoSpace, noSpace, StorageError, uploadLinkUsed } from './types.js';

/** What an upload body may be: an HTTP request, a file stream, or chunks in memory. */
export type UploadBody = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

const unsupported = () => new StorageError('unsupported_type', UNSUPPORTED_TYPE_MESSAGE);

/**
 * Received bytes are written in batches of about this size. A request arrives in network chunks of
 * 64 KiB or less, and each write is a trip to the thread pool the whole server shares: under load,
 * one write per chunk made uploads queue behind each other's writes (and every file read and fsync
 * behind them). The batch is the most an upload holds in memory beyond its socket's own buffer.
 */
const WRITE_BATCH_BYTES = 256 * 1024;

/** Writes a whole chunk (a single `write` may be partial). */
async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
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
  expected?: DigestExpectation,
): Promise<FileDigest> {
  objectPath(root, key);
  const tmp = await tempPath(root);
  const handle = await open(tmp, 'wx', 0o600).catch((error: unknown) => {
    throw isNoSpace(error) ? noSpace(error) : error;
  });
  const digester = createDigester();
  let size = 0;
  let sniffed = false;
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batchBytes === 0) return;
    await writeAll(handle, batch.length === 1 ? (batch[0] as Uint8Array) : Buffer.concat(batch, batchBytes));
    batch = [];
    batchBytes = 0;
  };
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      digester.update(chunk);
      if (!sniffed && digester.head.length >= SNIFF_BYTES) {
        if (!sniffContentType(digester.head)) throw unsupported();
        sniffed = true;
      }
      batch.push(chunk);
      batchBytes += chunk.length;
      if (batchBytes >= WRITE_BATCH_BYTES) await flush();
    }
    await flush();
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

/** Copies `from` to `to` through a temp file (a reflink where the file system can). */
export async function copyObject(root: string, from: string, to: string): Promise<void> {
  const source = objectPath(root, from);
  objectPath(root, to);
  const tmp = await tempPath(root);
  try {
    await copyFile(source, tmp, constants.COPYFILE_FICLONE);
    const handle = await open(tmp, 'r+');
    await handle.sync().finally(() => handle.close());
    await publish(root, tmp, to);
  } catch (error) {
    await rm(tmp, { force: true });
    throw isNoSpace(error) ? noSpace(error) : error;
  }
}
