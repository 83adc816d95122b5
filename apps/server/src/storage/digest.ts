/**
 * What the server knows about a file's bytes once it has seen them: size, SHA-256 (integrity,
 * duplicates), CRC-32 (the ZIP header, so downloads never touch the bytes) and the leading bytes that
 * decide its type. Computed in one pass while the bytes stream to disk or are read back.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { SNIFF_BYTES, sniffContentType } from './filetypes.js';
import { StorageError } from './types.js';

/** A file's verified facts. */
export interface FileDigest {
  size: number;
  /** 64 lowercase hex digits. */
  sha256: string;
  /** Unsigned 32-bit. */
  crc32: number;
  /** From the magic bytes; null when they are not on the allow-list. */
  contentType: string | null;
}

/** What the uploader declared, checked against the digest. */
export interface DigestExpectation {
  size?: number | null;
  sha256?: string | null;
}

export interface Digester {
  update(chunk: Uint8Array): void;
  /** The leading bytes seen so far (up to what sniffing needs). */
  readonly head: Buffer;
  digest(): FileDigest;
}

export function createDigester(): Digester {
  const hash = createHash('sha256');
  let crc = 0;
  let size = 0;
  let head = Buffer.alloc(0);
  return {
    update(chunk) {
      hash.update(chunk);
      crc = crc32(chunk, crc);
      size += chunk.length;
      if (head.length < SNIFF_BYTES)
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
    },
    get head() {
      return head;
    },
    digest() {
      return { size, sha256: hash.digest('hex'), crc32: crc >>> 0, contentType: sniffContentType(head) };
    },
  };
}

/** Reads a whole stream into a digest. */
export async function digestStream(source: AsyncIterable<Uint8Array>): Promise<FileDigest> {
  const digester = createDigester();
  for await (const chunk of source) digester.update(chunk);
  return digester.digest();
}

/** The refusal when the bytes are not what the uploader declared. */
const digestMismatch = () =>
  new StorageError(
    'bad_digest',
    'The file arrived different from the one sent (its size or checksum does not match). Please upload it again.',
  );

/** Throws {@link digestMismatch} when a declared size or SHA-256 differs from the digest. */
export function assertExpected(digest: FileDigest, expected: DigestExpectation | undefined): void {
  if (!expected) return;
  if (expected.size != null && expected.size !== digest.size) throw digestMismatch();
  if (expected.sha256 != null && expected.sha256 !== digest.sha256) throw digestMismatch();
}
