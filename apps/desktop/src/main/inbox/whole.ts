/**
 * Whether a settled file opens as a whole document. A scanner that pauses mid-write (or a share
 * that flushes late) leaves a file whose size and mtime hold still while its end is missing, so
 * stability alone lets half a scan through. Judged by the bytes, not the name: a PDF must end in
 * `%%EOF` and parse with pdf-lib down to its last page; an image must carry its header and size
 * and, where the format says where it ends, end there.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { readImageInfo, sniffFormat } from '@vita-docs/core';
import { PDFDocument } from 'pdf-lib';

/** Reads a regular file without following a link (see settle.ts). */
async function readNoFollow(path: string): Promise<Uint8Array> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

const ascii = (b: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...b.subarray(at, at + length));

/** True for a PDF with `%%EOF` near its end whose page tree reads to the last page. */
async function wholePdf(bytes: Uint8Array): Promise<boolean> {
  if (!ascii(bytes.subarray(Math.max(0, bytes.length - 1024)), 0, 1024).includes('%%EOF')) return false;
  try {
    const doc = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      throwOnInvalidObject: true,
      updateMetadata: false,
    });
    const count = doc.getPageCount();
    return count > 0 && doc.getPage(count - 1).getSize().width > 0;
  } catch {
    return false;
  }
}

/** The last index of `needle` in the final `window` bytes of `b`, or -1. */
function tailIndex(b: Uint8Array, needle: readonly number[], window = 64): number {
  for (let at = b.length - needle.length; at >= Math.max(0, b.length - window); at -= 1) {
    if (needle.every((value, i) => b[at + i] === value)) return at;
  }
  return -1;
}

/** True for an image whose header, size and (where the format has one) end marker are there. */
function wholeImage(b: Uint8Array): boolean {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  switch (sniffFormat(b)) {
    case 'jpeg': {
      const info = readImageInfo(b);
      // The end-of-image marker, allowing the padding some cameras add after it.
      return (info.width ?? 0) > 0 && (info.height ?? 0) > 0 && tailIndex(b, [0xff, 0xd9]) >= 0;
    }
    case 'png':
      return (
        b.length >= 33 &&
        view.getUint32(16) > 0 &&
        view.getUint32(20) > 0 &&
        tailIndex(b, [0x49, 0x45, 0x4e, 0x44]) === b.length - 8
      );
    case 'webp':
      return b.length >= 12 && view.getUint32(4, true) + 8 <= b.length;
    case 'bmp':
      return b.length >= 26 && view.getUint32(2, true) <= b.length && view.getInt32(18, true) > 0;
    case 'heif':
      return b.length >= 16;
    case 'unknown':
      // TIFF keeps its directory anywhere in the file: the header must be there and point inside.
      if (ascii(b, 0, 4) === 'II*\0') return b.length >= 8 && view.getUint32(4, true) < b.length;
      if (ascii(b, 0, 4) === 'MM\0*') return b.length >= 8 && view.getUint32(4, false) < b.length;
      return false;
  }
}

/** True when the file at `path` opens as a whole PDF or image (anything else never does). */
export async function opensWhole(path: string): Promise<boolean> {
  let bytes: Uint8Array;
  try {
    bytes = await readNoFollow(path);
  } catch {
    return false;
  }
  if (ascii(bytes, 0, 5) === '%PDF-') return wholePdf(bytes);
  return wholeImage(bytes);
}
