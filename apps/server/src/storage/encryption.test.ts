/**
 * The encrypted file format on its own: round trips at chunk edges, and every kind of tampering —
 * a changed byte anywhere, chunks swapped, dropped or cut off, a file moved to another key, another
 * master key — fails authentication instead of yielding bytes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHUNK_BYTES,
  HEADER_BYTES,
  createSealer,
  deriveSubkey,
  isSealed,
  openSealed,
  sealedLength,
  storageKeyFrom,
  type StorageKey,
} from './encryption.js';
import { SealedStream, type ByteRange } from './sealed-read.js';

const DOC = 'c_0123456789abcdef/W-2/1700000000000_w2.pdf';
const key = storageKeyFrom(randomBytes(32));

/** The encrypted file of `plain`, fed to the sealer in pieces of `piece` bytes. */
function seal(
  plain: Buffer,
  options: { storageKey?: StorageKey; docKey?: string; piece?: number } = {},
): Buffer {
  const sealer = createSealer(options.storageKey ?? key, options.docKey ?? DOC);
  const records: Buffer[] = [];
  const piece = options.piece ?? 10_000;
  for (let at = 0; at < plain.length; at += piece)
    records.push(...sealer.update(plain.subarray(at, at + piece)));
  const { tail, header } = sealer.finish();
  return Buffer.concat([header, ...records, ...tail]);
}

/** Decrypts a whole encrypted file in memory, chunk by chunk (throws what the format throws). */
async function unseal(
  file: Buffer,
  options: { storageKey?: StorageKey; docKey?: string } = {},
): Promise<Buffer> {
  const sealed = openSealed(
    file.subarray(0, HEADER_BYTES),
    file.length,
    options.storageKey ?? key,
    options.docKey ?? DOC,
  );
  const parts: Buffer[] = [];
  for (let index = 0; index < sealed.chunks; index += 1) {
    const { offset, length } = sealed.recordAt(index);
    parts.push(sealed.decrypt(index, file.subarray(offset, offset + length)));
  }
  return Buffer.concat(parts);
}

const RECORD = CHUNK_BYTES + 16;

describe('the encrypted file format', () => {
  it.each([0, 1, 100, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 3 * CHUNK_BYTES, 3 * CHUNK_BYTES + 7])(
    'round-trips %i bytes, whatever the pieces it arrives in',
    async (size) => {
      const plain = randomBytes(size);
      for (const piece of [1_000, CHUNK_BYTES, 200_000]) {
        const file = seal(plain, { piece });
        expect(isSealed(file)).toBe(true);
        expect(file.length).toBe(sealedLength(size));
        expect((await unseal(file)).equals(plain)).toBe(true);
      }
    },
  );

  it('never writes the plaintext, and encrypts the same bytes differently every time', () => {
    const plain = Buffer.from('SSN 123-45-6789 '.repeat(10_000));
    const a = seal(plain);
    const b = seal(plain);
    expect(a.includes(Buffer.from('123-45-6789'))).toBe(false);
    expect(a.subarray(HEADER_BYTES).equals(b.subarray(HEADER_BYTES))).toBe(false);
  });

  it('fails on any changed byte: header fields, wrapped key, chunk body or tag', async () => {
    const plain = randomBytes(2 * CHUNK_BYTES + 500);
    const file = seal(plain);
    // One byte in each header field, then in each chunk's body and tag.
    const offsets = [
      7,
      9,
      15,
      22,
      30,
      45,
      60,
      90,
      HEADER_BYTES + 5,
      HEADER_BYTES + CHUNK_BYTES + 3,
      HEADER_BYTES + RECORD + 100,
      file.length - 1,
    ];
    for (const offset of offsets) {
      const tampered = Buffer.from(file);
      tampered[offset] = (tampered[offset] ?? 0) ^ 0x01;
      await expect(unseal(tampered), `byte ${offset}`).rejects.toThrow();
    }
  });

  it('fails on chunks swapped, dropped or cut off at a chunk boundary', async () => {
    const file = seal(randomBytes(3 * CHUNK_BYTES));
    const records = [0, 1, 2].map((i) =>
      file.subarray(HEADER_BYTES + i * RECORD, HEADER_BYTES + (i + 1) * RECORD),
    );
    const header = file.subarray(0, HEADER_BYTES);
    const [r0, r1, r2] = records as [Buffer, Buffer, Buffer];
    await expect(unseal(Buffer.concat([header, r1, r0, r2]))).rejects.toThrow(/failed authentication/);
    // Dropped or cut: the length no longer matches the (authenticated) size in the header.
    await expect(unseal(Buffer.concat([header, r0, r1]))).rejects.toThrow(/not the .* its header implies/);
    await expect(unseal(Buffer.concat([header, r0, r2, r2]))).rejects.toThrow(/failed authentication/);
    // A header saying the file is shorter (so the cut would fit) no longer authenticates.
    const shorter = Buffer.from(header);
    shorter.writeBigUInt64BE(BigInt(2 * CHUNK_BYTES), 12);
    await expect(unseal(Buffer.concat([shorter, r0, r1]))).rejects.toThrow(/header failed authentication/);
  });

  it('opens only at its own key, and only with its own master key', async () => {
    const plain = randomBytes(5_000);
    const file = seal(plain);
    await expect(unseal(file, { docKey: 'c_0123456789abcdef/W-2/1700000000000_other.pdf' })).rejects.toThrow(
      /header failed authentication/,
    );
    await expect(unseal(file, { storageKey: storageKeyFrom(randomBytes(32)) })).rejects.toThrow(
      /different storage key/,
    );
    // A rename gives the same records a header bound to the new key.
    const moved = 'c_0123456789abcdef/W-2/1700000000000_renamed.pdf';
    const sealed = openSealed(file.subarray(0, HEADER_BYTES), file.length, key, DOC);
    const renamed = Buffer.concat([sealed.headerFor(moved), file.subarray(HEADER_BYTES)]);
    expect((await unseal(renamed, { docKey: moved })).equals(plain)).toBe(true);
    await expect(unseal(renamed)).rejects.toThrow(/header failed authentication/);
  });

  it('refuses an unknown format version before anything else', async () => {
    const file = seal(randomBytes(100));
    file[7] = 2;
    await expect(unseal(file)).rejects.toThrow(/format version 2/);
  });
});

describe('sub-keys of the master key', () => {
  it('gives each label a key of its own, the same every time, none of them the master key', () => {
    const master = randomBytes(32);
    const storageKey = storageKeyFrom(master);
    const journal = storageKey.derive('vita-docs/journal-key-wrap/v1');
    expect(journal).toHaveLength(32);
    expect(journal.equals(deriveSubkey(master, 'vita-docs/journal-key-wrap/v1'))).toBe(true);
    expect(journal.equals(storageKeyFrom(Buffer.from(master)).derive('vita-docs/journal-key-wrap/v1'))).toBe(
      true,
    );
    expect(journal.equals(storageKey.derive('vita-docs/another-use/v1'))).toBe(false);
    expect(journal.equals(master)).toBe(false);
    expect(journal.equals(storageKeyFrom(randomBytes(32)).derive('vita-docs/journal-key-wrap/v1'))).toBe(
      false,
    );
    // The caller may zero its buffer afterwards: the derived keys do not change.
    master.fill(0);
    expect(storageKey.derive('vita-docs/journal-key-wrap/v1').equals(journal)).toBe(true);
  });
});

describe('reading an encrypted file as a stream', () => {
  let dir: string;
  const plain = randomBytes(3 * CHUNK_BYTES + 1234);
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vita-sealed-'));
    file = path.join(dir, 'file');
    await writeFile(file, seal(plain));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function read(range?: ByteRange, bytes?: Buffer): Promise<Buffer> {
    if (bytes) await writeFile(file, bytes);
    const handle = await open(file, 'r');
    const { size } = await handle.stat();
    const header = Buffer.alloc(HEADER_BYTES);
    await handle.read(header, 0, HEADER_BYTES, 0);
    const stream = new SealedStream(handle, openSealed(header, size, key, DOC), range);
    await stream.prime();
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }

  it('gives the whole plaintext, or exactly the bytes of a range (chunk edges included)', async () => {
    expect((await read()).equals(plain)).toBe(true);
    const ranges: ByteRange[] = [
      { start: 0, end: 0 },
      { start: CHUNK_BYTES - 5, end: CHUNK_BYTES + 5 },
      { start: CHUNK_BYTES, end: 2 * CHUNK_BYTES - 1 },
      { start: 100, end: plain.length - 1 },
      { start: plain.length - 1, end: plain.length - 1 },
      { start: 70_000, end: 3 * CHUNK_BYTES + 10 },
    ];
    for (const range of ranges) {
      expect(
        (await read(range)).equals(plain.subarray(range.start, range.end + 1)),
        JSON.stringify(range),
      ).toBe(true);
    }
  });

  it('fails at the first chunk before anything is read, and ends the stream with an error at a later one', async () => {
    const good = seal(plain);
    const first = Buffer.from(good);
    first[HEADER_BYTES + 10] = (first[HEADER_BYTES + 10] ?? 0) ^ 0xff;
    await expect(read(undefined, first)).rejects.toThrow(/chunk 1 of 4 failed authentication/);
    const later = Buffer.from(good);
    later[HEADER_BYTES + 3 * RECORD + 10] = (later[HEADER_BYTES + 3 * RECORD + 10] ?? 0) ^ 0xff;
    await expect(read(undefined, later)).rejects.toThrow(/chunk 4 of 4 failed authentication/);
    // A range that does not touch the damaged chunk is still served.
    expect((await read({ start: 0, end: 1000 }, later)).equals(plain.subarray(0, 1001))).toBe(true);
    await writeFile(file, good);
  });
});
