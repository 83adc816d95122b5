/**
 * Just enough of the image formats to decide about a file without decoding it: its format, its
 * stored size (JPEG) and its EXIF orientation (JPEG APP1, PNG eXIf, WebP EXIF).
 */

/** Formats recognised by their first bytes. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'bmp' | 'heif' | 'unknown';

/** What {@link readImageInfo} found. `width`/`height` are as stored (before orientation), when known. */
export interface ImageInfo {
  format: ImageFormat;
  width: number | null;
  height: number | null;
  /** EXIF orientation 1–8; 1 (upright) when absent or unreadable. */
  orientation: number;
}

const ascii = (b: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...b.subarray(at, at + length));

/** The format by magic bytes. */
export function sniffFormat(b: Uint8Array): ImageFormat {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b[0] === 0x89 && ascii(b, 1, 3) === 'PNG') return 'png';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'webp';
  if (ascii(b, 0, 2) === 'BM') return 'bmp';
  if (ascii(b, 4, 4) === 'ftyp' && /^(heic|heix|hevc|hevx|heim|heis|mif1|msf1|avif)$/.test(ascii(b, 8, 4)))
    return 'heif';
  return 'unknown';
}

/** The orientation tag (0x0112) of a TIFF-structured EXIF block; 1 when absent or malformed. */
export function exifOrientation(tiff: Uint8Array): number {
  if (tiff.length < 8) return 1;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const order = ascii(tiff, 0, 2);
  if (order !== 'II' && order !== 'MM') return 1;
  const little = order === 'II';
  if (view.getUint16(2, little) !== 42) return 1;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > tiff.length) return 1;
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const at = ifd + 2 + i * 12;
    if (at + 12 > tiff.length) return 1;
    if (view.getUint16(at, little) === 0x0112) {
      const value = view.getUint16(at + 8, little);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

function jpegInfo(b: Uint8Array): ImageInfo {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const info: ImageInfo = { format: 'jpeg', width: null, height: null, orientation: 1 };
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return info;
    const marker = view.getUint8(at + 1);
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return info; // image data follows: no more headers
    const length = view.getUint16(at + 2);
    const body = b.subarray(at + 4, at + 2 + length);
    if (marker === 0xe1 && ascii(body, 0, 6) === 'Exif\0\0')
      info.orientation = exifOrientation(body.subarray(6));
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame && body.length >= 5) {
      // Big-endian, bytes 1–2 and 3–4 of the frame header (`body` starts at `at + 4`).
      info.height = view.getUint16(at + 5);
      info.width = view.getUint16(at + 7);
    }
    at += 2 + length;
  }
  return info;
}

function pngOrientation(b: Uint8Array): number {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let at = 8; at + 8 <= b.length;) {
    const length = view.getUint32(at);
    const type = ascii(b, at + 4, 4);
    if (type === 'eXIf') return exifOrientation(b.subarray(at + 8, at + 8 + length));
    if (type === 'IDAT' || type === 'IEND') return 1; // eXIf must come before the image data
    at += 12 + length;
  }
  return 1;
}

function webpOrientation(b: Uint8Array): number {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let at = 12; at + 8 <= b.length;) {
    const type = ascii(b, at, 4);
    const length = view.getUint32(at + 4, true);
    if (type === 'EXIF') {
      const exif = b.subarray(at + 8, at + 8 + length);
      // Some writers keep the JPEG-style "Exif\0\0" prefix.
      return exifOrientation(ascii(exif, 0, 6) === 'Exif\0\0' ? exif.subarray(6) : exif);
    }
    at += 8 + length + (length & 1);
  }
  return 1;
}

/** Reads format, stored size (JPEG only) and EXIF orientation. Never throws. */
export function readImageInfo(bytes: Uint8Array): ImageInfo {
  try {
    const format = sniffFormat(bytes);
    if (format === 'jpeg') return jpegInfo(bytes);
    const orientation =
      format === 'png' ? pngOrientation(bytes) : format === 'webp' ? webpOrientation(bytes) : 1;
    return { format, width: null, height: null, orientation };
  } catch {
    return { format: sniffFormat(bytes), width: null, height: null, orientation: 1 };
  }
}
