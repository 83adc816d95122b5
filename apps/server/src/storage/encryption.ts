/**
 * Encryption at rest of the local store's files (format version 1). Each file is encrypted with
 * AES-256-GCM under a random data key of its own, in chunks of 64 KiB of plaintext: a file streams
 * (view, download, ZIP) without being held in memory, and any byte range is read by decrypting only
 * the chunks it touches. The data key is wrapped (AES-256-GCM) by a key derived from the master key.
 *
 * Layout: a 100-byte header, then one record per chunk (ciphertext followed by its 16-byte tag).
 *
 * | offset | bytes | field                                                                      |
 * |-------:|------:|----------------------------------------------------------------------------|
 * |      0 |     7 | magic `89 56 44 45 4E 43 0A` (`\x89VDENC\n`; no allowed upload starts so)    |
 * |      7 |     1 | format version: 1                                                          |
 * |      8 |     4 | plaintext bytes per chunk (u32 BE, 65 536)                                 |
 * |     12 |     8 | plaintext size (u64 BE)                                                    |
 * |     20 |     8 | key id: the first 8 bytes of the master key's fingerprint                  |
 * |     28 |    12 | chunk base nonce (random)                                                  |
 * |     40 |    12 | wrap nonce (random)                                                        |
 * |     52 |    32 | the data key, encrypted under the key-wrapping key                         |
 * |     84 |    16 | its tag: authenticates bytes 0–51 and the document key                     |
 *
 * Chunk `i` (from 0) uses nonce = base nonce XOR `i` (in its low 8 bytes) and authenticates `i`
 * (u64 BE) and a last-chunk flag (1 byte) as additional data: chunks cannot be reordered, dropped,
 * or cut off at a chunk boundary without failing. There is always at least one chunk (an empty file
 * has one empty last chunk). The header's size fixes the file's exact length, so a truncated or
 * extended file is refused before any byte is decrypted; the wrap binds the header and the data key
 * to the document key, so a file moved to another key does not open.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

const MAGIC = Buffer.from([0x89, 0x56, 0x44, 0x45, 0x4e, 0x43, 0x0a]);
const FORMAT_VERSION = 1;
/** Length of the header in front of the chunks. */
export const HEADER_BYTES = 100;
/** Plaintext bytes per chunk of new files. */
export const CHUNK_BYTES = 64 * 1024;
export const TAG_BYTES = 16;
const NONCE_BYTES = 12;
const KEY_BYTES = 32;
/** Chunk sizes a header may declare (anything else is damage, refused before any allocation). */
const MIN_CHUNK = 4 * 1024;
const MAX_CHUNK = 16 * 1024 * 1024;
/** Header bytes the wrap authenticates (everything before the wrapped key). */
const AUTHENTICATED_HEADER = 52;

const FINGERPRINT_LABEL = 'vita-docs storage key fingerprint v1';
const WRAP_LABEL = 'vita-docs storage key wrapping v1';

/** A stored file that cannot be read as what it claims: damaged, tampered with, or under another key. */
export class SealedFileError extends Error {
  override name = 'SealedFileError';
}

/**
 * The master key, in the forms the store uses it. The raw key is reachable only through `derive`,
 * which gives other parts of the server keys of their own instead of the master key.
 */
export interface StorageKey {
  /** HMAC-SHA256 of a constant under the master key (hex): what the database keeps to recognise it. */
  readonly fingerprint: string;
  /** The first 8 bytes of the fingerprint, written into every file's header. */
  readonly id: Buffer;
  /** Encrypts a data key for the header whose first 52 bytes are `header` (filled in place). */
  wrap(header: Buffer, dataKey: Buffer, docKey: string): void;
  /** The data key of a header; throws {@link SealedFileError} when the header does not authenticate. */
  unwrap(header: Buffer, docKey: string): Buffer;
  /** A 32-byte key of its own for another use, named by `label` (see {@link deriveSubkey}). */
  derive(label: string): Buffer;
}

/**
 * A 32-byte sub-key of `master` for one use, named by `label` (HKDF-SHA256, no salt): keys for
 * different labels are unrelated, and none reveals the master key or another label's key.
 */
export function deriveSubkey(master: Uint8Array, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), label, KEY_BYTES));
}

/** Derives the fingerprint and the key-wrapping key from a 32-byte master key. */
export function storageKeyFrom(master: Uint8Array): StorageKey {
  if (master.length !== KEY_BYTES) throw new RangeError('a storage key is 32 bytes');
  const fingerprintBytes = createHmac('sha256', master).update(FINGERPRINT_LABEL).digest();
  const kek = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), WRAP_LABEL, KEY_BYTES));
  const id = fingerprintBytes.subarray(0, 8);
  const aad = (header: Buffer, docKey: string) =>
    Buffer.concat([header.subarray(0, AUTHENTICATED_HEADER), Buffer.from(docKey, 'utf8')]);
  const copy = Buffer.from(master); // the caller's buffer may be reused or zeroed
  return {
    fingerprint: fingerprintBytes.toString('hex'),
    id,
    derive: (label) => deriveSubkey(copy, label),
    wrap(header, dataKey, docKey) {
      const cipher = createCipheriv('aes-256-gcm', kek, header.subarray(40, 52));
      cipher.setAAD(aad(header, docKey));
      const wrapped = cipher.update(dataKey);
      cipher.final();
      wrapped.copy(header, 52);
      cipher.getAuthTag().copy(header, 84);
    },
    unwrap(header, docKey) {
      if (!timingSafeEqual(header.subarray(20, 28), id)) {
        throw new SealedFileError('it was encrypted with a different storage key');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', kek, header.subarray(40, 52));
        decipher.setAAD(aad(header, docKey));
        decipher.setAuthTag(header.subarray(84, 100));
        const dataKey = decipher.update(header.subarray(52, 84));
        decipher.final();
        return dataKey;
      } catch {
        throw new SealedFileError('its header failed authentication');
      }
    },
  };
}

/** True when these leading bytes start an encrypted file (of any version). */
export function isSealed(head: Uint8Array): boolean {
  return head.length >= MAGIC.length && MAGIC.equals(head.subarray(0, MAGIC.length));
}

/** Chunk `index`'s nonce: the base nonce with `index` XORed into its low 8 bytes. */
function chunkNonce(base: Buffer, index: number): Buffer {
  const nonce = Buffer.from(base);
  nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ index) >>> 0, 8);
  nonce.writeUInt32BE((nonce.readUInt32BE(4) ^ Math.floor(index / 0x1_0000_0000)) >>> 0, 4);
  return nonce;
}

/** Chunk `index`'s additional data: its position and whether it is the last one. */
function chunkAad(index: number, last: boolean): Buffer {
  const aad = Buffer.alloc(9);
  aad.writeUInt32BE(Math.floor(index / 0x1_0000_0000), 0);
  aad.writeUInt32BE(index >>> 0, 4);
  aad[8] = last ? 1 : 0;
  return aad;
}

const chunkCount = (size: number, chunkBytes: number) => Math.max(1, Math.ceil(size / chunkBytes));

/**
 * The length of the encrypted file of `size` plaintext bytes.
 * @internal Exported for its unit test.
 */
export function sealedLength(size: number, chunkBytes = CHUNK_BYTES): number {
  return HEADER_BYTES + size + chunkCount(size, chunkBytes) * TAG_BYTES;
}

/** Encrypts one file as it streams: see {@link createSealer}. */
export interface Sealer {
  /** The bytes at offset 0 until {@link Sealer.finish} gives the real header (same length). */
  readonly placeholder: Buffer;
  /** Takes plaintext; returns the chunk records now complete (a chunk waits until more follows or the end). */
  update(plain: Uint8Array): Buffer[];
  /** The last chunk's record, and the header to write over the placeholder. */
  finish(): { tail: Buffer[]; header: Buffer };
}

/**
 * Encrypts the file stored at `docKey` with a fresh data key. The records come in order, right after
 * the header; the header (which holds the size) is known only at the end.
 */
export function createSealer(key: StorageKey, docKey: string, chunkBytes = CHUNK_BYTES): Sealer {
  const dataKey = randomBytes(KEY_BYTES);
  const base = randomBytes(NONCE_BYTES);
  const pending = Buffer.allocUnsafe(chunkBytes);
  let filled = 0;
  let index = 0;
  let size = 0;
  let finished = false;
  const seal = (plain: Uint8Array, last: boolean): Buffer[] => {
    const cipher = createCipheriv('aes-256-gcm', dataKey, chunkNonce(base, index));
    cipher.setAAD(chunkAad(index, last));
    const body = cipher.update(plain);
    cipher.final();
    index += 1;
    return [body, cipher.getAuthTag()];
  };
  return {
    placeholder: Buffer.alloc(HEADER_BYTES),
    update(plain) {
      if (finished) throw new Error('the file is already sealed');
      const out: Buffer[] = [];
      let offset = 0;
      while (offset < plain.length) {
        // A full chunk is sealed only once more bytes follow it: the last one carries the flag.
        if (filled === chunkBytes) {
          out.push(...seal(pending, false));
          filled = 0;
        }
        const take = Math.min(chunkBytes - filled, plain.length - offset);
        pending.set(plain.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
      }
      size += plain.length;
      return out;
    },
    finish() {
      if (finished) throw new Error('the file is already sealed');
      finished = true;
      const tail = seal(pending.subarray(0, filled), true);
      const header = Buffer.alloc(HEADER_BYTES);
      MAGIC.copy(header, 0);
      header[7] = FORMAT_VERSION;
      header.writeUInt32BE(chunkBytes, 8);
      header.writeBigUInt64BE(BigInt(size), 12);
      key.id.copy(header, 20);
      base.copy(header, 28);
      randomBytes(NONCE_BYTES).copy(header, 40);
      key.wrap(header, dataKey, docKey);
      return { tail, header };
    },
  };
}

/** An encrypted file whose header authenticated: what is needed to read any of its chunks. */
export interface SealedFile {
  /** Plaintext size. */
  readonly size: number;
  readonly chunkBytes: number;
  readonly chunks: number;
  /** Where chunk `index`'s record starts in the file, and its length (plaintext + tag). */
  recordAt(index: number): { offset: number; length: number };
  /** Chunk `index`'s plaintext from its record; throws {@link SealedFileError} when the record does not authenticate. */
  decrypt(index: number, record: Uint8Array): Buffer;
  /** The header of the same bytes stored at another key (a rename copies the records as they are). */
  headerFor(docKey: string): Buffer;
}

/**
 * Reads the header of an encrypted file of `fileLength` bytes stored at `docKey`. Throws
 * {@link SealedFileError} for an unknown version, a header that does not authenticate (tampered,
 * moved, or another master key) and a file whose length is not the one its header implies.
 */
export function openSealed(header: Buffer, fileLength: number, key: StorageKey, docKey: string): SealedFile {
  if (header.length < HEADER_BYTES || !isSealed(header))
    throw new SealedFileError('its header is incomplete');
  if (header[7] !== FORMAT_VERSION)
    throw new SealedFileError(`it uses format version ${header[7]}, which this server cannot read`);
  const chunkBytes = header.readUInt32BE(8);
  const declared = header.readBigUInt64BE(12);
  if (chunkBytes < MIN_CHUNK || chunkBytes > MAX_CHUNK || declared > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new SealedFileError('its header is not valid');
  }
  const dataKey = key.unwrap(header, docKey);
  const size = Number(declared);
  const expected = sealedLength(size, chunkBytes);
  if (fileLength !== expected) {
    throw new SealedFileError(`it is ${fileLength} bytes long, not the ${expected} its header implies`);
  }
  const chunks = chunkCount(size, chunkBytes);
  const base = Buffer.from(header.subarray(28, 40));
  const record = chunkBytes + TAG_BYTES;
  return {
    size,
    chunkBytes,
    chunks,
    recordAt(index) {
      const plain = index === chunks - 1 ? size - index * chunkBytes : chunkBytes;
      return { offset: HEADER_BYTES + index * record, length: plain + TAG_BYTES };
    },
    decrypt(index, bytes) {
      // Node's synchronous cipher: its Web Crypto (thread pool) took about three times the CPU per
      // byte, and on a busy machine the wait for a pool thread cost more than the work itself.
      try {
        if (bytes.length < TAG_BYTES) throw new SealedFileError('short record');
        const decipher = createDecipheriv('aes-256-gcm', dataKey, chunkNonce(base, index));
        decipher.setAAD(chunkAad(index, index === chunks - 1));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        const plain = decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES));
        decipher.final();
        return plain;
      } catch {
        throw new SealedFileError(`chunk ${index + 1} of ${chunks} failed authentication`);
      }
    },
    headerFor(otherKey) {
      const copy = Buffer.from(header.subarray(0, HEADER_BYTES));
      randomBytes(NONCE_BYTES).copy(copy, 40);
      key.wrap(copy, dataKey, otherKey);
      return copy;
    },
  };
}
