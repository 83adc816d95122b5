/**
 * Reading an encrypted file as a stream of its plaintext, whole or a byte range, decrypting only the
 * chunks the range touches. Records are read from the open handle four at a time; the next read starts
 * as soon as the reader takes a chunk of the four buffered, so the disk and the socket overlap, and a
 * reader that stalls holds at most seven chunks (three left and one read's four). A chunk's bytes are
 * passed on only after its tag checked; one that fails ends the stream with the error.
 */
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { CHUNK_BYTES, TAG_BYTES, type SealedFile } from './encryption.js';

/** Bytes `start` to `end`, both included (as in an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Chunks read per disk read. Each read costs the event loop a fixed amount on top of its bytes, so
 * reads of a few chunks keep an encrypted ZIP's reads near what a plain file's cost (see
 * docs/architecture.md); four chunks with one read ahead hold about as much as two with two.
 */
const CHUNKS_PER_READ = 4;
/** Reads (of {@link CHUNKS_PER_READ} chunks) decrypting ahead of the reader at most. */
const READS_AHEAD = 1;

/**
 * Read buffers done with (their chunks decrypted into buffers of their own), shared by every sealed
 * read: a busy reader seldom allocates one (fewer new buffers for the collector; see
 * docs/architecture.md), and a reader that stalls holds none.
 */
const spareBuffers: Buffer[] = [];
/** Spare read buffers kept at most. */
const MAX_SPARE_BUFFERS = 8;
/**
 * The one size pooled: a read of {@link CHUNKS_PER_READ} records of the default chunk size (with
 * their tags). Shorter reads (a file's end, a small file) take one of these; a file sealed with
 * larger chunks reads into buffers of its own, never kept.
 */
const POOLED_BYTES = CHUNKS_PER_READ * (CHUNK_BYTES + TAG_BYTES);

/** The plaintext of `file` (open as `handle`), or of `range` of it. Owns the handle: closes it when done or destroyed. */
export class SealedStream extends Readable {
  readonly #handle: FileHandle;
  readonly #file: SealedFile;
  readonly #first: number;
  readonly #last: number;
  readonly #skip: number;
  readonly #end: number;
  #next: number;
  readonly #ahead: Promise<Buffer[]>[] = [];
  #ready: Buffer[] | undefined;
  #pumping = false;
  readonly #failure: (error: unknown) => Error;

  /**
   * `failure` turns what went wrong (a chunk that failed its check) into the error the stream ends
   * with; `first` is chunk 0's plaintext when the caller has already decrypted it (and it is not read again).
   */
  constructor(
    handle: FileHandle,
    file: SealedFile,
    range?: ByteRange,
    failure: (error: unknown) => Error = (error) => error as Error,
    first?: Buffer,
  ) {
    // One chunk per `read()`: a byte stream's `read()` joins everything buffered into a new buffer
    // (a copy of every byte, as `for await` and the ZIP writer read), while its chunks are whole
    // already. Reads stop once four chunks are buffered.
    super({ objectMode: true, highWaterMark: CHUNKS_PER_READ });
    this.#failure = failure;
    this.#handle = handle;
    this.#file = file;
    const start = range?.start ?? 0;
    const end = range?.end ?? file.size - 1;
    this.#first = Math.floor(start / file.chunkBytes);
    this.#last = file.size === 0 ? 0 : Math.floor(end / file.chunkBytes);
    this.#skip = start - this.#first * file.chunkBytes;
    // Bytes of the last chunk wanted (an empty file has one empty chunk, so nothing of it).
    this.#end = file.size === 0 ? 0 : end - this.#last * file.chunkBytes + 1;
    this.#next = this.#first;
    if (first && this.#first === 0) {
      this.#ready = [this.#trim(0, first)];
      this.#next = 1;
    }
  }

  /**
   * Reads and checks the first chunks before anything is handed on: a damaged start fails here, so
   * the caller can still answer with an error (or leave the file out) instead of a broken stream.
   */
  async prime(): Promise<void> {
    if (this.#ready) return;
    this.#fill();
    const first = this.#ahead.shift();
    if (first) this.#ready = await first;
  }

  /** Starts reads until {@link READS_AHEAD} are under way or every wanted chunk has been asked for. */
  #fill(): void {
    while (this.#ahead.length < READS_AHEAD && this.#next <= this.#last) {
      const from = this.#next;
      const to = Math.min(this.#last, from + CHUNKS_PER_READ - 1);
      this.#next = to + 1;
      const work = this.#readChunks(from, to);
      // Awaited in order later; a failure of one not awaited yet (the reader went away) is not unhandled.
      work.catch(() => undefined);
      this.#ahead.push(work);
    }
  }

  async #readChunks(from: number, to: number): Promise<Buffer[]> {
    const start = this.#file.recordAt(from).offset;
    const lastRecord = this.#file.recordAt(to);
    const length = lastRecord.offset + lastRecord.length - start;
    const pooled = length <= POOLED_BYTES;
    const buffer = (pooled && spareBuffers.pop()) || Buffer.allocUnsafe(pooled ? POOLED_BYTES : length);
    const bytes = buffer.subarray(0, length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await this.#handle.read(bytes, read, length - read, start + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    const chunks: Buffer[] = [];
    for (let index = from; index <= to; index += 1) {
      const record = this.#file.recordAt(index);
      const at = record.offset - start;
      // A short read decrypts a short record, which fails authentication like any other damage.
      chunks.push(
        this.#trim(index, this.#file.decrypt(index, bytes.subarray(at, Math.min(read, at + record.length)))),
      );
    }
    // Decryption copied the plaintext out: the read buffer can serve another read.
    if (pooled && spareBuffers.length < MAX_SPARE_BUFFERS) spareBuffers.push(buffer);
    return chunks;
  }

  /** The wanted part of chunk `index`: a range may start and end inside one. */
  #trim(index: number, chunk: Buffer): Buffer {
    const from = index === this.#first ? this.#skip : 0;
    const to = index === this.#last ? this.#end : chunk.length;
    return from === 0 && to === chunk.length ? chunk : chunk.subarray(from, to);
  }

  override _read(): void {
    if (!this.#pumping) void this.#pump();
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      for (;;) {
        let chunks = this.#ready;
        this.#ready = undefined;
        if (!chunks) {
          this.#fill();
          const next = this.#ahead.shift();
          if (!next) {
            this.push(null);
            return;
          }
          chunks = await next;
          if (this.destroyed) return;
        }
        let wanted = true;
        for (const chunk of chunks) if (chunk.length > 0) wanted = this.push(chunk);
        // A full buffer reads ahead no further: the next read starts once the reader takes a chunk,
        // with three still buffered, so a fast reader keeps the disk busy and a stalled one holds no more.
        if (!wanted) return;
        this.#fill();
      }
    } catch (error) {
      this.destroy(this.#failure(error));
    } finally {
      this.#pumping = false;
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Reads still under way finish first: a FileHandle closes once its operations are done.
    this.#handle.close().then(
      () => callback(error),
      () => callback(error),
    );
  }
}
