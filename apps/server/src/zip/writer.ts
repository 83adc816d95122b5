/**
 * A streaming ZIP writer: STORE only (documents are already compressed PDFs and images). An entry
 * whose CRC-32 and size are known (documents: the index recorded them at upload) has them in its
 * local header and its bytes pass through untouched; any other has them computed while streaming
 * and written in a data descriptor. ZIP64 wherever a size, offset or count needs it. Sources are opened one at a time and read only as fast as the consumer reads the
 * archive, so memory stays flat whatever the total size (the central directory keeps ~100 bytes per
 * entry until the end).
 */
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { MAX32, centralHeader, dataDescriptor, endRecords, localHeader, type EntryRecord } from './format.js';

/** One file to put in the archive. */
export interface ZipEntry {
  /** Path inside the archive, `/`-separated (see `createZipNamer`); checked by {@link isSafeEntryName}. */
  name: string;
  /** Expected size when known; an unknown size or one ≥ 4 GiB makes the entry ZIP64. */
  size?: number;
  /**
   * The bytes' CRC-32, when already known (with `size`): it goes in the local header, no descriptor
   * follows, and the bytes pass through untouched. The source's size must then match `size`.
   */
  crc32?: number;
  mtime: Date;
  /** Opens the bytes (with their current size, when the source knows it); called when the entry's turn comes. */
  open(): Promise<Readable | { size: number; stream: Readable }>;
}

/** Thrown when a source's size is not the entry's known size, before anything of the entry is written. */
export class ZipSizeMismatch extends Error {
  override name = 'ZipSizeMismatch';
}

/** How to write an archive. */
export interface ZipOptions {
  /** ZIP64 records for every entry and the end record, even when small (tests, very old readers aside). */
  forceZip64?: boolean;
  /**
   * Called when an entry cannot be opened (say, deleted since it was listed). Return true to leave it
   * out and go on; false (the default) fails the archive.
   */
  onOpenError?: (error: unknown, entry: ZipEntry) => boolean;
  /**
   * Called when the source of an entry whose CRC and size are known fails after its first bytes went
   * out (an encrypted file whose later chunk fails its check). Return true to leave the entry out
   * and go on: what was sent of it is padded with zeros to its announced size (so readers that walk
   * the local headers stay in step; its CRC then fails there) and the central directory, which
   * extractors go by, does not list it. False (the default) fails the archive.
   */
  onEntryError?: (error: unknown, entry: ZipEntry) => boolean;
  /** Central directory bytes gathered before being passed on. */
  chunkSize?: number;
}

/**
 * Thrown (as the stream's error) when an entry cannot be written.
 * @internal Exported for its unit test.
 */
export class ZipError extends Error {
  override name = 'ZipError';
}

/**
 * True for a name extractors treat as a plain relative path: not empty, at most 65 535 UTF-8 bytes,
 * `/`-separated segments that are neither empty, `.` nor `..`, no backslash, no drive letter, no
 * control characters.
 * @internal Exported for its unit test.
 */
export function isSafeEntryName(name: string): boolean {
  if (!name || Buffer.byteLength(name) > 0xffff) return false;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(name) || /^[A-Za-z]:/.test(name)) return false;
  return name.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** Padding for an entry left out half-way (see {@link ZipOptions.onEntryError}). */
const ZEROS = Buffer.alloc(64 * 1024);

const toBuffer = (chunk: unknown): Buffer => {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === 'string') return Buffer.from(chunk);
  throw new ZipError('A ZIP source produced something other than bytes.');
};

/** Opens an entry's source, checking a known size; null when `onOpenError` leaves the entry out. */
async function openSource(
  entry: ZipEntry,
  known: { crc: number; size: number } | undefined,
  options: ZipOptions,
): Promise<Readable | null> {
  try {
    const opened = await entry.open();
    const source = opened instanceof Readable ? opened : opened.stream;
    if (known && !(opened instanceof Readable) && opened.size !== known.size) {
      source.destroy();
      throw new ZipSizeMismatch(`"${entry.name}" is ${opened.size} bytes, not the ${known.size} recorded.`);
    }
    return source;
  } catch (error) {
    if (options.onOpenError?.(error, entry)) return null;
    throw error;
  }
}

/** The central directory of `written`, passed on in pieces of about `chunkSize`; returns its length. */
function* centralDirectory(written: readonly EntryRecord[], chunkSize: number): Generator<Buffer, number> {
  let size = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for (const record of written) {
    const header = centralHeader(record);
    pending.push(header);
    pendingBytes += header.length;
    size += header.length;
    if (pendingBytes >= chunkSize) {
      yield Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
    }
  }
  if (pending.length > 0) yield Buffer.concat(pending);
  return size;
}

async function* archive(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>, options: ZipOptions) {
  const force = options.forceZip64 ?? false;
  const chunkSize = options.chunkSize ?? 64 * 1024;
  const written: EntryRecord[] = [];
  let offset = 0;

  for await (const entry of entries) {
    if (!isSafeEntryName(entry.name))
      throw new ZipError(`Unsafe ZIP entry name: ${JSON.stringify(entry.name)}`);
    const known =
      entry.crc32 !== undefined && entry.size !== undefined
        ? { crc: entry.crc32, size: entry.size }
        : undefined;
    const source = await openSource(entry, known, options);
    if (!source) continue;
    // The consumer may go away at any yield, also while this entry's header is out and its source
    // not yet read: the source (an open file) is closed whatever happens.
    try {
      const name = Buffer.from(entry.name, 'utf8');
      const zip64 = force || entry.size === undefined || entry.size >= MAX32;
      const header = localHeader(name, entry.mtime, zip64, known);
      const record: EntryRecord = {
        name,
        mtime: entry.mtime,
        crc: known?.crc ?? 0,
        size: 0,
        offset,
        zip64,
        descriptor: !known,
      };
      yield header;
      offset += header.length;

      if (known) {
        // CRC and size are in the header already: the bytes go through untouched, only counted, and
        // a source that turns out longer or shorter fails the archive rather than corrupt it.
        try {
          for await (const chunk of source) {
            const bytes = toBuffer(chunk);
            record.size += bytes.length;
            if (record.size > known.size)
              throw new ZipError(`"${entry.name}" is longer than its recorded ${known.size} bytes.`);
            yield bytes;
          }
        } catch (error) {
          if (error instanceof ZipError || !options.onEntryError?.(error, entry)) throw error;
          for (let left = known.size - record.size; left > 0; left -= ZEROS.length)
            yield ZEROS.subarray(0, Math.min(left, ZEROS.length));
          offset += known.size;
          continue;
        }
        if (record.size !== known.size)
          throw new ZipError(`"${entry.name}" is shorter than its recorded ${known.size} bytes.`);
        offset += record.size;
        written.push(record);
        continue;
      }

      // Breaking out of this loop (an error, or the consumer going away) destroys the source.
      for await (const chunk of source) {
        const bytes = toBuffer(chunk);
        record.crc = crc32(bytes, record.crc);
        record.size += bytes.length;
        if (!zip64 && record.size >= MAX32) {
          throw new ZipError(`"${entry.name}" grew past 4 GiB after being announced as ${entry.size} bytes.`);
        }
        yield bytes;
      }
      offset += record.size;
      const descriptor = dataDescriptor(record.crc, record.size, zip64);
      yield descriptor;
      offset += descriptor.length;
      written.push(record);
    } finally {
      if (!source.destroyed) source.destroy();
    }
  }

  const cdSize = yield* centralDirectory(written, chunkSize);
  yield endRecords(written.length, offset, cdSize, force);
}

/**
 * A readable ZIP archive of `entries`, produced as it is read. Errors (a source failing, an unsafe
 * name) destroy the stream with that error; destroying the stream stops reading the current source.
 * @internal Exported for its unit test (the routes use {@link startZipStream}).
 */
export function createZipStream(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  options: ZipOptions = {},
): Readable {
  // No buffer of its own: the next piece is made only when the consumer asks for it. The sources read
  // ahead already; a buffer here would hold one more chunk per download for as long as a slow reader
  // takes to want it.
  return Readable.from(archive(entries, options), { objectMode: false, highWaterMark: 0 });
}

/**
 * {@link createZipStream}, resolved only once the archive's first piece is made: the first entry
 * that opens has opened (the ones before it left out by `onOpenError`), or, with no entry left, the
 * end records are ready. An error before then rejects, so the route can still answer it with a
 * status instead of a `200` archive. An error after it destroys the stream: the response is cut
 * off (no final chunk, so the browser reports the download as failed), as its headers are sent.
 */
export async function startZipStream(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  options: ZipOptions = {},
): Promise<Readable> {
  const pieces = archive(entries, options);
  let first: IteratorResult<Buffer, void> | undefined = await pieces.next();
  const resumed: AsyncIterableIterator<Buffer> = {
    next: () => {
      const piece = first;
      first = undefined;
      return piece ? Promise.resolve(piece) : pieces.next();
    },
    // Destroying the stream (the reader went away) returns the archive, closing the open source,
    // also before the first piece was read.
    return: async () => {
      first = undefined;
      await pieces.return(undefined);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return Readable.from(resumed, { objectMode: false, highWaterMark: 0 });
}
