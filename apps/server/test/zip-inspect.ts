/**
 * A strict reader of the structures the writer emits, independent of it: tests use it to prove the
 * ZIP64 records are where and what APPNOTE says, beyond what a lenient reader like jszip checks.
 */

/** One entry as the central directory and its local header describe it. */
export interface InspectedEntry {
  name: string;
  crc: number;
  size: number;
  offset: number;
  /** Which values came from the central ZIP64 extra field. */
  zip64Fields: ('size' | 'offset')[];
  localZip64: boolean;
  /** 0 when CRC and sizes are in the local header. */
  descriptorBytes: 0 | 16 | 24;
  versionNeeded: number;
}

/** The archive's end records and entries. */
export interface InspectedZip {
  count: number;
  cdOffset: number;
  cdSize: number;
  /** ZIP64 end record and locator present, and the classic record pointing at them. */
  zip64End: boolean;
  classicEnd: { count: number; cdSize: number; cdOffset: number };
  entries: InspectedEntry[];
}

function fail(message: string): never {
  throw new Error(`bad ZIP: ${message}`);
}

function readExtras(extra: Buffer): Map<number, Buffer> {
  const fields = new Map<number, Buffer>();
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    fields.set(id, extra.subarray(at + 4, at + 4 + size));
    at += 4 + size;
  }
  return fields;
}

/**
 * Parses `tail` — the last bytes of an archive of `totalLength` bytes, long enough to hold the
 * central directory — and, when `bytesAt` can read any range, checks every local header and data
 * descriptor against the central directory.
 */
export function inspectZip(
  tail: Buffer,
  totalLength: number,
  bytesAt?: (offset: number, length: number) => Buffer,
): InspectedZip {
  const base = totalLength - tail.length;
  const at = (offset: number, length: number) =>
    offset >= base
      ? tail.subarray(offset - base, offset - base + length)
      : (bytesAt?.(offset, length) ?? fail('range not available'));
  const end = at(totalLength - 22, 22);
  if (end.readUInt32LE(0) !== 0x06054b50) fail('no end of central directory record (or a comment)');
  const classicEnd = {
    count: end.readUInt16LE(10),
    cdSize: end.readUInt32LE(12),
    cdOffset: end.readUInt32LE(16),
  };
  let { count, cdSize, cdOffset } = classicEnd;
  let zip64End = false;
  const locatorAt = totalLength - 22 - 20;
  if (locatorAt >= 0 && at(locatorAt, 4).readUInt32LE(0) === 0x07064b50) {
    const locator = at(locatorAt, 20);
    const recordAt = Number(locator.readBigUInt64LE(8));
    const record = at(recordAt, 56);
    if (record.readUInt32LE(0) !== 0x06064b50) fail('locator does not point at a ZIP64 end record');
    if (record.readBigUInt64LE(4) !== 44n) fail('ZIP64 end record size');
    if (recordAt !== locatorAt - 56) fail('ZIP64 end record not right before its locator');
    count = Number(record.readBigUInt64LE(32));
    cdSize = Number(record.readBigUInt64LE(40));
    cdOffset = Number(record.readBigUInt64LE(48));
    if (cdOffset + cdSize !== recordAt) fail('central directory does not end at the ZIP64 end record');
    zip64End = true;
  } else if (cdOffset + cdSize !== totalLength - 22) {
    fail('central directory does not end at the end record');
  }

  const entries: InspectedEntry[] = [];
  const cd = at(cdOffset, cdSize);
  for (let p = 0; entries.length < count;) {
    if (cd.readUInt32LE(p) !== 0x02014b50) fail(`central header ${entries.length} signature`);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    const name = cd.subarray(p + 46, p + 46 + nameLength).toString('utf8');
    const extras = readExtras(cd.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength));
    let size = cd.readUInt32LE(p + 24);
    let offset = cd.readUInt32LE(p + 42);
    const zip64Fields: InspectedEntry['zip64Fields'] = [];
    const z = extras.get(0x0001);
    let zAt = 0;
    if (size === 0xffffffff) {
      if (!z) fail(`${name}: size says ZIP64, no ZIP64 extra`);
      size = Number(z.readBigUInt64LE(zAt));
      if (Number(z.readBigUInt64LE(zAt + 8)) !== size) fail(`${name}: STORE sizes differ`);
      zAt += 16;
      zip64Fields.push('size');
    }
    if (offset === 0xffffffff) {
      if (!z) fail(`${name}: offset says ZIP64, no ZIP64 extra`);
      offset = Number(z.readBigUInt64LE(zAt));
      zip64Fields.push('offset');
    }
    const crc = cd.readUInt32LE(p + 16);

    const local = at(offset, 30);
    if (local.readUInt32LE(0) !== 0x04034b50) fail(`${name}: local header signature`);
    const localFlags = local.readUInt16LE(6);
    if ((localFlags & 0x0800) === 0) fail(`${name}: UTF-8 flag`);
    const hasDescriptor = (localFlags & 0x0008) !== 0;
    if (cd.readUInt16LE(p + 8) !== localFlags) fail(`${name}: central and local flags differ`);
    const localNameLength = local.readUInt16LE(26);
    const localExtraLength = local.readUInt16LE(28);
    if (at(offset + 30, localNameLength).toString('utf8') !== name) fail(`${name}: local name differs`);
    const localExtras = readExtras(at(offset + 30 + localNameLength, localExtraLength));
    const localZip64 = localExtras.has(0x0001);
    if (localZip64 !== (local.readUInt32LE(22) === 0xffffffff))
      fail(`${name}: local ZIP64 marker without extra`);
    const dataAt = offset + 30 + localNameLength + localExtraLength;
    let descriptorBytes: 0 | 16 | 24 = 0;
    if (hasDescriptor) {
      descriptorBytes = localZip64 ? 24 : 16;
      const descriptor = at(dataAt + size, descriptorBytes);
      if (descriptor.readUInt32LE(0) !== 0x08074b50) fail(`${name}: data descriptor signature`);
      if (descriptor.readUInt32LE(4) !== crc) fail(`${name}: descriptor CRC differs`);
      const described = localZip64 ? Number(descriptor.readBigUInt64LE(16)) : descriptor.readUInt32LE(12);
      if (described !== size) fail(`${name}: descriptor size differs`);
    } else {
      // CRC and sizes in the local header itself (ZIP64: in its extra field).
      if (local.readUInt32LE(14) !== crc) fail(`${name}: local CRC differs`);
      const localExtra = localExtras.get(0x0001);
      const localSize =
        localZip64 && localExtra ? Number(localExtra.readBigUInt64LE(0)) : local.readUInt32LE(22);
      if (localSize !== size) fail(`${name}: local size differs`);
    }

    entries.push({
      name,
      crc,
      size,
      offset,
      zip64Fields,
      localZip64,
      descriptorBytes,
      versionNeeded: cd.readUInt16LE(p + 6),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return { count, cdOffset, cdSize, zip64End, classicEnd, entries };
}
