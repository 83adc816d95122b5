/**
 * The pixels an image file's headers declare, read without decoding it: what the reader checks
 * before any decoder sees the file. Every format a decoder on the reading path recognises by its
 * first bytes is here (zxing's stb_image: JPEG, PNG, BMP, GIF; tesseract's leptonica: those, PNM,
 * TIFF and WebP; tesseract.js itself decodes a BMP, which it takes `BM` or `MB` to start): each
 * allocates what a header declares before reading a pixel, so a file of a few dozen bytes declaring
 * 16 000 px square took the desk's process past 1 GB. Hand-read rather than by an image library:
 * a library that sizes these formats decodes them too, which is what is being avoided.
 */
import { readImageInfo } from '../pdf/image-info.js';

/** What an image of a known format whose size cannot be read counts as: more than any cap. */
const UNREADABLE = Number.POSITIVE_INFINITY;

const ascii = (b: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...b.subarray(at, at + length));

function bmpPixels(b: Uint8Array, view: DataView): number {
  if (b.length < 26) return UNREADABLE;
  // The old OS/2 header (12 bytes) has 16-bit sides; the others 32-bit, a negative height top-down.
  if (view.getUint32(14, true) === 12) return view.getUint16(18, true) * view.getUint16(20, true);
  return Math.abs(view.getInt32(18, true)) * Math.abs(view.getInt32(22, true));
}

/** The larger of the screen a GIF declares and all its frames together (each is allocated). */
function gifPixels(b: Uint8Array, view: DataView): number {
  if (b.length < 13) return UNREADABLE;
  const screen = view.getUint16(6, true) * view.getUint16(8, true);
  const colours = (flags: number) => ((flags & 0x80) !== 0 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  /** The offset after the data sub-blocks starting at `at`. */
  const afterBlocks = (at: number) => {
    while (at < b.length && b[at] !== 0) at += (b[at] ?? 0) + 1;
    return at + 1;
  };
  let frames = 0;
  let at = 13 + colours(b[10] ?? 0);
  while (at < b.length) {
    const kind = b[at];
    if (kind === 0x3b) break;
    if (kind === 0x21) at = afterBlocks(at + 2);
    else if (kind === 0x2c && at + 10 <= b.length) {
      frames += view.getUint16(at + 5, true) * view.getUint16(at + 7, true);
      at = afterBlocks(at + 10 + colours(b[at + 9] ?? 0) + 1);
    } else break;
  }
  return Math.max(screen, frames);
}

/** A PNM's (`P1`–`P6`) width × height, comments allowed between its header's fields. */
function pnmPixels(b: Uint8Array): number {
  const head = /^P[1-6](?:\s|#[^\n]*\n)+(\d+)(?:\s|#[^\n]*\n)+(\d+)/.exec(ascii(b, 0, 1024));
  return head ? Number(head[1]) * Number(head[2]) : UNREADABLE;
}

/** The largest image of a TIFF's directories (leptonica reads the first, libtiff may walk on). */
function tiffPixels(b: Uint8Array, view: DataView): number {
  const little = ascii(b, 0, 2) === 'II';
  let largest = 0;
  const seen = new Set<number>();
  for (let ifd = view.getUint32(4, little); ifd !== 0 && !seen.has(ifd);) {
    seen.add(ifd);
    if (ifd + 2 > b.length) return UNREADABLE;
    const entries = view.getUint16(ifd, little);
    let width: number | undefined;
    let height: number | undefined;
    for (let i = 0; i < entries; i++) {
      const at = ifd + 2 + i * 12;
      if (at + 12 > b.length) return UNREADABLE;
      const tag = view.getUint16(at, little);
      if (tag !== 256 && tag !== 257) continue;
      // SHORT (3) or LONG (4), held in the entry itself.
      const value =
        view.getUint16(at + 2, little) === 3
          ? view.getUint16(at + 8, little)
          : view.getUint32(at + 8, little);
      if (tag === 256) width = value;
      else height = value;
    }
    if (width === undefined || height === undefined) return UNREADABLE;
    largest = Math.max(largest, width * height);
    const next = ifd + 2 + entries * 12;
    if (next + 4 > b.length) break;
    ifd = view.getUint32(next, little);
  }
  return largest;
}

/** A WebP's canvas (VP8X) or its frame (VP8, VP8L), the first chunk after the RIFF header. */
function webpPixels(b: Uint8Array, view: DataView): number {
  if (b.length < 30) return UNREADABLE;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X')
    return ((view.getUint32(24, true) & 0xffffff) + 1) * ((view.getUint32(27, true) & 0xffffff) + 1);
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return ((bits & 0x3fff) + 1) * (((bits >> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8 ') return (view.getUint16(26, true) & 0x3fff) * (view.getUint16(28, true) & 0x3fff);
  return UNREADABLE;
}

/**
 * The pixels `image` declares; more than any cap (infinite) for a format a decoder would read
 * whose size is not where it belongs, and 0 for bytes no decoder on the path recognises.
 */
export function declaredPixels(image: Uint8Array): number {
  const b = image;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  try {
    const info = readImageInfo(b);
    if (info.format === 'jpeg')
      return info.width !== null && info.height !== null ? info.width * info.height : UNREADABLE;
    if (info.format === 'png') {
      // PNG puts its header chunk first; decoders refuse a file that does not.
      return b.length >= 24 && ascii(b, 12, 4) === 'IHDR'
        ? view.getUint32(16) * view.getUint32(20)
        : UNREADABLE;
    }
    if (info.format === 'webp') return webpPixels(b, view);
    const magic = ascii(b, 0, 4);
    if (magic.startsWith('BM') || magic.startsWith('MB')) return bmpPixels(b, view);
    if (magic === 'GIF8') return gifPixels(b, view);
    if (/^P[1-7]/.test(magic)) return pnmPixels(b);
    if (magic === 'II*\0' || magic === 'MM\0*') return b.length < 8 ? UNREADABLE : tiffPixels(b, view);
    // HEIF and the rest only sharp decodes, where it is installed, under its own pixel limit.
    return 0;
  } catch {
    // A header pointing past the file's end.
    return UNREADABLE;
  }
}
