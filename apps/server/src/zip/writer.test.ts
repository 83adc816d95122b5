/**
 * The streaming ZIP writer, read back by jszip (a lenient reader, as browsers' and OSes' are) and
 * by `inspectZip` (a strict one that checks every record, ZIP64 included).
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { inspectZip } from '../../test/zip-inspect.js';
import { createZipStream, ZipError, type ZipEntry } from './writer.js';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const MTIME = new Date(2024, 2, 15, 10, 30, 42);

function entry(
  name: string,
  bytes: Buffer,
  options: { size?: number | 'unknown'; chunk?: number } = {},
): ZipEntry {
  const chunk = options.chunk ?? 64 * 1024;
  return {
    name,
    ...(options.size === 'unknown' ? {} : { size: options.size ?? bytes.length }),
    mtime: MTIME,
    open: async () =>
      Readable.from(
        (function* () {
          for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
        })(),
      ),
  };
}

const inspect = (zip: Buffer) =>
  inspectZip(zip, zip.length, (offset, length) => zip.subarray(offset, offset + length));

async function expectSameFiles(zip: Buffer, files: [string, Buffer][]): Promise<void> {
  const read = await JSZip.loadAsync(zip, { checkCRC32: true });
  const names = Object.keys(read.files).filter((name) => !read.files[name]!.dir);
  expect(names).toEqual(files.map(([name]) => name));
  for (const [name, bytes] of files) {
    const got = await read.file(name)!.async('nodebuffer');
    expect(got.equals(bytes), name).toBe(true);
  }
}

describe('createZipStream', () => {
  it('writes an archive jszip reads back byte for byte: PDFs, photos, empty and unicode-named files', async () => {
    const files: [string, Buffer][] = [
      ['13614-C/intake.pdf', Buffer.from('%PDF-1.4 pretend pdf')],
      ['Michigan-Locality Intake/Zoë’s 日本語 📄.jpg', randomBytes(300_000)],
      ['W-2/empty.pdf', Buffer.alloc(0)],
      ['W-2/unknown size.bin', randomBytes(70_001)],
    ];
    const zip = await collect(
      createZipStream(
        files.map(([name, bytes], i) =>
          entry(name, bytes, { size: i === 3 ? 'unknown' : undefined, chunk: 7_777 }),
        ),
      ),
    );
    await expectSameFiles(zip, files);
    const read = await JSZip.loadAsync(zip);
    expect(read.file('13614-C/intake.pdf')!.date.getTime()).toBe(new Date(2024, 2, 15, 10, 30, 42).getTime());

    const inspected = inspect(zip);
    expect(inspected.zip64End).toBe(false);
    expect(inspected.entries.map((e) => [e.name, e.size, e.crc >>> 0])).toEqual(
      files.map(([name, bytes]) => [name, bytes.length, crc32(bytes) >>> 0]),
    );
    // Only the entry of unknown size had to be ZIP64 (its size was not known when its header went out).
    expect(inspected.entries.map((e) => e.localZip64)).toEqual([false, false, false, true]);
  });

  it('writes a valid empty archive', async () => {
    const zip = await collect(createZipStream([]));
    expect(zip).toHaveLength(22);
    expect(Object.keys((await JSZip.loadAsync(zip)).files)).toEqual([]);
    expect(inspect(zip).count).toBe(0);
  });

  it('opens one source at a time, only when its turn comes, from an async iterable', async () => {
    let open = 0;
    let maxOpen = 0;
    const opened: string[] = [];
    async function* entries(): AsyncGenerator<ZipEntry> {
      for (let i = 0; i < 5; i += 1) {
        const name = `W-2/${i}.pdf`;
        yield {
          name,
          size: 100_000,
          mtime: MTIME,
          open: async () => {
            opened.push(name);
            open += 1;
            maxOpen = Math.max(maxOpen, open);
            const source = Readable.from([randomBytes(50_000), randomBytes(50_000)]);
            source.on('close', () => (open -= 1));
            return source;
          },
        };
      }
    }
    const stream = createZipStream(entries());
    expect(opened).toEqual([]); // nothing happens until the archive is read
    await collect(stream);
    expect(opened).toHaveLength(5);
    expect(maxOpen).toBe(1);
  });

  it('closes the open source when the reader goes away, also right after its header went out', async () => {
    for (const known of [true, false]) {
      let source: Readable | undefined;
      const stream = createZipStream([
        {
          name: 'W-2/a.pdf',
          size: 100_000,
          ...(known ? { crc32: 0 } : {}),
          mtime: MTIME,
          open: async () => (source = Readable.from([randomBytes(50_000), randomBytes(50_000)])),
        },
      ]);
      // The first piece is the local header; the reader hangs up before any of the file's bytes.
      for await (const header of stream) {
        expect((header as Buffer).readUInt32LE(0)).toBe(0x04034b50);
        break;
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(source?.destroyed, known ? 'with a known CRC' : 'with a data descriptor').toBe(true);
    }
  });

  it('reads a source only as fast as the archive is consumed', async () => {
    let produced = 0;
    const total = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 7);
    const source = new Readable({
      highWaterMark: 64 * 1024,
      read() {
        if (produced >= total) return this.push(null);
        produced += chunk.length;
        this.push(chunk);
      },
    });
    const zip = createZipStream([{ name: 'big.bin', size: total, mtime: MTIME, open: async () => source }]);
    let consumed = 0;
    let maxLead = 0;
    for await (const out of zip) {
      consumed += (out as Buffer).length;
      maxLead = Math.max(maxLead, produced - consumed);
      if (consumed % (4 * 1024 * 1024) < 64 * 1024) await new Promise((r) => setTimeout(r, 1)); // a slow reader
    }
    expect(consumed).toBeGreaterThan(total);
    // Bounded by the stream buffers (a few 64 KiB chunks), not by the 64 MiB source.
    expect(maxLead).toBeLessThan(512 * 1024);
  });

  it('refuses unsafe entry names', async () => {
    for (const name of [
      '../evil.pdf',
      '/etc/passwd',
      'W-2//x.pdf',
      'C:/x.pdf',
      'W-2\\x.pdf',
      'a/./b',
      'x\u0000.pdf',
      '',
    ]) {
      await expect(collect(createZipStream([entry(name, Buffer.from('x'))]))).rejects.toBeInstanceOf(
        ZipError,
      );
    }
  });

  it('skips an entry whose source is gone when told to, and fails otherwise', async () => {
    const gone: ZipEntry = {
      name: 'W-2/gone.pdf',
      size: 1,
      mtime: MTIME,
      open: () => Promise.reject(new Error('ENOENT')),
    };
    const kept = entry('W-2/kept.pdf', Buffer.from('kept'));
    const skipped: string[] = [];
    const zip = await collect(
      createZipStream([gone, kept], {
        onOpenError: (_error, e) => {
          skipped.push(e.name);
          return true;
        },
      }),
    );
    expect(skipped).toEqual(['W-2/gone.pdf']);
    await expectSameFiles(zip, [['W-2/kept.pdf', Buffer.from('kept')]]);
    await expect(collect(createZipStream([gone, kept]))).rejects.toThrow('ENOENT');
  });

  it('fails the archive when a source fails midway', async () => {
    const failing: ZipEntry = {
      name: 'W-2/broken.pdf',
      size: 10,
      mtime: MTIME,
      open: async () =>
        new Readable({
          read() {
            this.destroy(new Error('disk error'));
          },
        }),
    };
    await expect(collect(createZipStream([failing]))).rejects.toThrow('disk error');
  });
});
