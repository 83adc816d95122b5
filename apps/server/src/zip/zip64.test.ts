/**
 * ZIP64, proven on real archives: forced on a small one, triggered by more than 65 535 entries, and
 * by an entry over 4 GiB (a sparse stream of zeros, checked as it goes by without being stored).
 */
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { inspectZip } from '../../test/zip-inspect.js';
import { createZipStream, type ZipEntry } from './writer.js';

const MTIME = new Date(2024, 0, 31, 12, 0, 0);
const bytesEntry = (name: string, bytes: Buffer, size: number | undefined = bytes.length): ZipEntry => ({
  name,
  ...(size === undefined ? {} : { size }),
  mtime: MTIME,
  open: async () => Readable.from([bytes]),
});

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('ZIP64', () => {
  it('forced on a small archive: every record in its ZIP64 form, and still readable', async () => {
    const files: [string, Buffer][] = [
      ['W-2/a.pdf', Buffer.from('%PDF-1.7 a')],
      ['W-2/empty.pdf', Buffer.alloc(0)],
      ['Banking Info/b.jpg', Buffer.alloc(100_000, 9)],
    ];
    const zip = await collect(
      createZipStream(
        files.map(([n, b]) => bytesEntry(n, b)),
        { forceZip64: true },
      ),
    );
    const inspected = inspectZip(zip, zip.length, (offset, length) => zip.subarray(offset, offset + length));
    expect(inspected.zip64End).toBe(true);
    expect(inspected.classicEnd).toEqual({ count: 0xffff, cdSize: 0xffffffff, cdOffset: 0xffffffff });
    expect(inspected.count).toBe(3);
    for (const entry of inspected.entries) {
      expect(entry).toMatchObject({
        localZip64: true,
        descriptorBytes: 24,
        zip64Fields: ['size'],
        versionNeeded: 45,
      });
    }
    const read = await JSZip.loadAsync(zip, { checkCRC32: true });
    for (const [name, bytes] of files)
      expect((await read.file(name)!.async('nodebuffer')).equals(bytes)).toBe(true);
  });

  it('used for more than 65 535 entries', async () => {
    const count = 70_000;
    function* entries(): Generator<ZipEntry> {
      for (let i = 0; i < count; i += 1) yield bytesEntry(`Other/${i}.txt`, Buffer.from(String(i)));
    }
    const zip = await collect(createZipStream(entries()));
    const inspected = inspectZip(zip, zip.length, (offset, length) => zip.subarray(offset, offset + length));
    expect(inspected.zip64End).toBe(true);
    expect(inspected.classicEnd.count).toBe(0xffff);
    expect(inspected.count).toBe(count);
    expect(inspected.entries.every((e) => !e.localZip64 && e.zip64Fields.length === 0)).toBe(true);
    const read = await JSZip.loadAsync(zip);
    expect(Object.keys(read.files)).toHaveLength(count);
    expect(await read.file('Other/69999.txt')!.async('string')).toBe('69999');
  }, 60_000);

  it('used for an entry over 4 GiB and the offsets after it, streamed in constant memory', async () => {
    const big = 2 ** 32 + 5;
    const zero = Buffer.alloc(1 << 20);
    const zeros = (length: number) =>
      Readable.from(
        (function* () {
          for (let left = length; left > 0; left -= zero.length)
            yield left >= zero.length ? zero : zero.subarray(0, left);
        })(),
      );
    const entries: ZipEntry[] = [
      bytesEntry('W-2/before.pdf', Buffer.from('%PDF before')),
      { name: 'Other/huge.tif', size: big, mtime: MTIME, open: async () => zeros(big) },
      bytesEntry('W-2/after.pdf', Buffer.from('%PDF after')),
    ];

    // Keep the first 64 KiB and a rolling last 1 MiB; everything in between only goes by.
    const head: Buffer[] = [];
    let headLength = 0;
    const tail: Buffer[] = [];
    let tailLength = 0;
    let total = 0;
    for await (const chunk of createZipStream(entries)) {
      const bytes = chunk as Buffer;
      total += bytes.length;
      if (headLength < 65_536) {
        head.push(bytes.subarray(0, 65_536 - headLength));
        headLength += Math.min(bytes.length, 65_536 - headLength);
      }
      tail.push(bytes);
      tailLength += bytes.length;
      while (tailLength - tail[0]!.length >= 1 << 20) tailLength -= tail.shift()!.length;
    }
    const start = Buffer.concat(head);
    const inspected = inspectZip(Buffer.concat(tail), total, (offset, length) => {
      if (offset + length > start.length) throw new Error(`offset ${offset} not kept`);
      return start.subarray(offset, offset + length);
    });

    let expectedCrc = 0;
    for (let left = big; left > 0; left -= zero.length)
      expectedCrc = crc32(zero.subarray(0, Math.min(left, zero.length)), expectedCrc);
    const [before, huge, after] = inspected.entries;
    expect(before).toMatchObject({ name: 'W-2/before.pdf', localZip64: false, zip64Fields: [] });
    expect(huge).toMatchObject({
      name: 'Other/huge.tif',
      size: big,
      crc: expectedCrc,
      localZip64: true,
      descriptorBytes: 24,
    });
    expect(huge!.zip64Fields).toEqual(['size']);
    expect(after).toMatchObject({ name: 'W-2/after.pdf', localZip64: false, zip64Fields: ['offset'] });
    expect(after!.offset).toBeGreaterThan(2 ** 32);
    expect(inspected.zip64End).toBe(true);
    expect(inspected.classicEnd.cdOffset).toBe(0xffffffff);
  }, 120_000);
});
