/**
 * Byte layouts of the ZIP records the streaming writer emits (PKWARE APPNOTE 6.3.x): local headers
 * with data descriptors, central directory headers, and the (ZIP64) end records. Everything is
 * little-endian; 64-bit fields are written from JS numbers (exact up to 2^53 bytes).
 */

/** 0xFFFFFFFF in a 32-bit field means "see the ZIP64 extra field". */
export const MAX32 = 0xffffffff;
/** 0xFFFF in a 16-bit count means "see the ZIP64 end record". */
const MAX16 = 0xffff;

const SIG_LOCAL = 0x04034b50;
const SIG_DESCRIPTOR = 0x08074b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_ZIP64_END = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_END = 0x06054b50;

/** Bit 11: the name is UTF-8. Bit 3: sizes and CRC follow the data in a descriptor. */
const FLAG_UTF8 = 0x0800;
const FLAG_DESCRIPTOR = 0x0008;
const flags = (descriptor: boolean) => FLAG_UTF8 | (descriptor ? FLAG_DESCRIPTOR : 0);
const METHOD_STORE = 0;
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
/** Made by "UNIX" (3) so extractors apply the permissions in the external attributes. */
const MADE_BY = (3 << 8) | VERSION_ZIP64;
/** A regular file, rw-r--r--. */
const EXTERNAL_ATTRS = (0o100644 << 16) >>> 0;
const EXTRA_ZIP64 = 0x0001;
const EXTRA_TIMESTAMP = 0x5455;

/** What the central directory needs to know about one written entry. */
export interface EntryRecord {
  name: Buffer;
  mtime: Date;
  crc: number;
  size: number;
  /** Offset of the entry's local header from the start of the archive. */
  offset: number;
  /** The local header declared ZIP64 (so its descriptor has 8-byte sizes). */
  zip64: boolean;
  /** CRC and sizes followed the data in a descriptor (they were not known when the header was written). */
  descriptor: boolean;
}

/** MS-DOS date and time (local time, 2-second steps), clamped to the years DOS can hold. */
function dosDateTime(date: Date): { time: number; date: number } {
  const valid = Number.isNaN(date.getTime()) ? new Date(1980, 0, 1) : date;
  const year = Math.min(2107, Math.max(1980, valid.getFullYear()));
  if (year !== valid.getFullYear()) return { time: 0, date: ((year - 1980) << 9) | (1 << 5) | 1 };
  return {
    time: (valid.getHours() << 11) | (valid.getMinutes() << 5) | Math.floor(valid.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((valid.getMonth() + 1) << 5) | valid.getDate(),
  };
}

/** The "UT" extra field: modification time in UTC, so extractors in any time zone agree. */
function timestampExtra(mtime: Date): Buffer {
  const seconds = Math.floor(mtime.getTime() / 1000);
  if (!Number.isFinite(seconds) || seconds < -(2 ** 31) || seconds >= 2 ** 31) return Buffer.alloc(0);
  const extra = Buffer.alloc(9);
  extra.writeUInt16LE(EXTRA_TIMESTAMP, 0);
  extra.writeUInt16LE(5, 2);
  extra.writeUInt8(1, 4); // mtime present
  extra.writeInt32LE(seconds, 5);
  return extra;
}

/** A ZIP64 extra field holding the given 64-bit values, in APPNOTE order. */
function zip64Extra(values: number[]): Buffer {
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(EXTRA_ZIP64, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  values.forEach((value, i) => extra.writeBigUInt64LE(BigInt(value), 4 + 8 * i));
  return extra;
}

/**
 * The local header of a STORE entry. With `known` CRC and size (from the documents index) they are
 * in the header and no descriptor follows; without, they follow the data in a data descriptor. A
 * ZIP64 entry carries a ZIP64 extra field with its sizes (0 when a descriptor will say them).
 */
export function localHeader(
  name: Buffer,
  mtime: Date,
  zip64: boolean,
  known?: { crc: number; size: number },
): Buffer {
  const { time, date } = dosDateTime(mtime);
  const size = known?.size ?? 0;
  const extra = Buffer.concat([zip64 ? zip64Extra([size, size]) : Buffer.alloc(0), timestampExtra(mtime)]);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(SIG_LOCAL, 0);
  header.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
  header.writeUInt16LE(flags(known === undefined), 6);
  header.writeUInt16LE(METHOD_STORE, 8);
  header.writeUInt16LE(time, 10);
  header.writeUInt16LE(date, 12);
  header.writeUInt32LE((known?.crc ?? 0) >>> 0, 14);
  header.writeUInt32LE(zip64 ? MAX32 : size, 18);
  header.writeUInt32LE(zip64 ? MAX32 : size, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(extra.length, 28);
  return Buffer.concat([header, name, extra]);
}

/** The data descriptor after an entry's bytes: CRC-32 and sizes (8-byte sizes for ZIP64 entries). */
export function dataDescriptor(crc: number, size: number, zip64: boolean): Buffer {
  const descriptor = Buffer.alloc(zip64 ? 24 : 16);
  descriptor.writeUInt32LE(SIG_DESCRIPTOR, 0);
  descriptor.writeUInt32LE(crc >>> 0, 4);
  if (zip64) {
    descriptor.writeBigUInt64LE(BigInt(size), 8); // compressed (= stored) size
    descriptor.writeBigUInt64LE(BigInt(size), 16);
  } else {
    descriptor.writeUInt32LE(size, 8);
    descriptor.writeUInt32LE(size, 12);
  }
  return descriptor;
}

/**
 * A central directory header. Sizes go to the ZIP64 extra when they do not fit in 32 bits or the
 * local header was ZIP64 (so both agree); the offset when it does not fit.
 */
export function centralHeader(entry: EntryRecord): Buffer {
  const { time, date } = dosDateTime(entry.mtime);
  const bigSizes = entry.zip64 || entry.size >= MAX32;
  const bigOffset = entry.offset >= MAX32;
  const values = [...(bigSizes ? [entry.size, entry.size] : []), ...(bigOffset ? [entry.offset] : [])];
  const extra = Buffer.concat([
    values.length > 0 ? zip64Extra(values) : Buffer.alloc(0),
    timestampExtra(entry.mtime),
  ]);
  const header = Buffer.alloc(46);
  header.writeUInt32LE(SIG_CENTRAL, 0);
  header.writeUInt16LE(MADE_BY, 4);
  header.writeUInt16LE(values.length > 0 ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
  header.writeUInt16LE(flags(entry.descriptor), 8);
  header.writeUInt16LE(METHOD_STORE, 10);
  header.writeUInt16LE(time, 12);
  header.writeUInt16LE(date, 14);
  header.writeUInt32LE(entry.crc >>> 0, 16);
  header.writeUInt32LE(bigSizes ? MAX32 : entry.size, 20);
  header.writeUInt32LE(bigSizes ? MAX32 : entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  header.writeUInt16LE(0, 32); // comment length
  header.writeUInt16LE(0, 34); // disk number
  header.writeUInt16LE(0, 36); // internal attributes
  header.writeUInt32LE(EXTERNAL_ATTRS, 38);
  header.writeUInt32LE(bigOffset ? MAX32 : entry.offset, 42);
  return Buffer.concat([header, entry.name, extra]);
}

/**
 * The end of the archive: ZIP64 end record and locator when anything overflows its classic field
 * (or `forceZip64`), then the classic end record, whose overflowing fields say "see ZIP64".
 */
export function endRecords(count: number, cdOffset: number, cdSize: number, forceZip64: boolean): Buffer {
  const zip64 = forceZip64 || count >= MAX16 || cdOffset >= MAX32 || cdSize >= MAX32;
  const parts: Buffer[] = [];
  if (zip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(SIG_ZIP64_END, 0);
    record.writeBigUInt64LE(44n, 4); // size of the rest of this record
    record.writeUInt16LE(MADE_BY, 12);
    record.writeUInt16LE(VERSION_ZIP64, 14);
    record.writeUInt32LE(0, 16); // this disk
    record.writeUInt32LE(0, 20); // disk with the central directory
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(cdSize), 40);
    record.writeBigUInt64LE(BigInt(cdOffset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(SIG_ZIP64_LOCATOR, 0);
    locator.writeUInt32LE(0, 4);
    locator.writeBigUInt64LE(BigInt(cdOffset + cdSize), 8); // where the ZIP64 end record starts
    locator.writeUInt32LE(1, 16); // total disks
    parts.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(SIG_END, 0);
  // Forced ZIP64 marks every field, so readers must take the ZIP64 record (that is what it is for).
  const count16 = forceZip64 || count >= MAX16 ? MAX16 : count;
  end.writeUInt16LE(count16, 8);
  end.writeUInt16LE(count16, 10);
  end.writeUInt32LE(forceZip64 || cdSize >= MAX32 ? MAX32 : cdSize, 12);
  end.writeUInt32LE(forceZip64 || cdOffset >= MAX32 ? MAX32 : cdOffset, 16);
  parts.push(end);
  return Buffer.concat(parts);
}
