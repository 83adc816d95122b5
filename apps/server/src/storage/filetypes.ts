/**
 * The allow-list of document types (PDF, JPEG, PNG, WebP, BMP, HEIC/HEIF, TIFF): recognising them by
 * magic bytes, normalising declared types, and the headers files are served with.
 */
import { fileExtension, fileTooLargeMessage, mediaType, safeFileName } from '@vita-docs/core/contract';
import { StorageError } from './types.js';

/** Canonical types of the allow-list. */
export const ALLOWED_CONTENT_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/bmp',
  'image/heic',
  'image/heif',
  'image/tiff',
] as const;
export type AllowedContentType = (typeof ALLOWED_CONTENT_TYPES)[number];

/** What anything unrecognised is served as: the browser downloads it and never renders it. */
export const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

/** How many leading bytes {@link sniffContentType} needs to decide. */
export const SNIFF_BYTES = 32;

/** Spellings browsers and scanners send for the allowed types. */
const ALIASES: Record<string, AllowedContentType> = {
  'application/pdf': 'application/pdf',
  'application/x-pdf': 'application/pdf',
  'image/jpeg': 'image/jpeg',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/webp': 'image/webp',
  'image/bmp': 'image/bmp',
  'image/x-bmp': 'image/bmp',
  'image/x-ms-bmp': 'image/bmp',
  'image/heic': 'image/heic',
  'image/heic-sequence': 'image/heic',
  'image/heif': 'image/heif',
  'image/heif-sequence': 'image/heif',
  'image/tiff': 'image/tiff',
  'image/tif': 'image/tiff',
};

const EXTENSIONS: Record<string, AllowedContentType> = {
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.jpe': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
  '.hif': 'image/heif',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

/** ISO-BMFF major brands of HEIC (HEVC-coded) and generic HEIF images. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const HEIF_BRANDS = new Set(['mif1', 'msf1']);
/** BMP info-header sizes (BITMAPCOREHEADER … BITMAPV5HEADER): "BM" alone is too weak a signature. */
const BMP_DIB_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...bytes.subarray(start, end));

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0): boolean =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

/**
 * The allowed type these leading bytes (at least {@link SNIFF_BYTES} when the file is that long)
 * belong to, or null when they are not one of the allowed kinds.
 */
export function sniffContentType(head: Uint8Array): AllowedContentType | null {
  if (ascii(head, 0, 5) === '%PDF-') return 'application/pdf';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 0, 2) === 'BM' && head.length >= 18) {
    const dibSize = new DataView(head.buffer, head.byteOffset, head.byteLength).getInt32(14, true);
    if (BMP_DIB_SIZES.has(dibSize)) return 'image/bmp';
  }
  // Classic TIFF (42) and BigTIFF (43), both byte orders.
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'image/tiff';
  if (startsWith(head, [0x49, 0x49, 0x2b, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2b]))
    return 'image/tiff';
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (HEIC_BRANDS.has(brand)) return 'image/heic';
    if (HEIF_BRANDS.has(brand)) return 'image/heif';
  }
  return null;
}

/** The canonical allowed type for a declared Content-Type (parameters ignored), or null. */
function normalizeContentType(declared: string | null | undefined): AllowedContentType | null {
  const type = mediaType(declared);
  // Own keys only: a declared type such as `constructor` must not find Object.prototype's members.
  return Object.hasOwn(ALIASES, type) ? (ALIASES[type] ?? null) : null;
}

/** True when a declared upload type is on the allow-list (check at presign time: a clear 415 early). */
export function isAllowedUploadType(declared: string): boolean {
  return normalizeContentType(declared) !== null;
}

/** What a person is told when a file is not on the allow-list. */
export const UNSUPPORTED_TYPE_MESSAGE =
  'This kind of file cannot be uploaded. Upload a PDF or an image (JPEG, PNG, WebP, BMP, HEIC/HEIF or TIFF).';

/** The error for an upload over its limit. */
export const tooLarge = (maxBytes: number) => new StorageError('too_large', fileTooLargeMessage(maxBytes));

/** Refuses to sign an upload the store would refuse anyway (both stores apply it in `presignPut`). */
export function assertUploadLimits(contentType: string, maxBytes: number): void {
  if (!isAllowedUploadType(contentType)) throw new StorageError('unsupported_type', UNSUPPORTED_TYPE_MESSAGE);
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0)
    throw new RangeError('maxBytes must be a positive integer');
}

/** The allowed type a file name's extension suggests, or null. */
export function contentTypeFromName(name: string): AllowedContentType | null {
  return EXTENSIONS[fileExtension(name).toLowerCase()] ?? null;
}

/** What a type is served as: the canonical allowed type, or {@link FALLBACK_CONTENT_TYPE} (never HTML/SVG). */
export function servedContentType(type: string | null | undefined): string {
  return normalizeContentType(type) ?? FALLBACK_CONTENT_TYPE;
}

/** PDF and images may be shown inline in the app's viewer; everything else only downloads. */
export function isInlineViewable(type: string): boolean {
  // Every allowed type is a PDF or an image; anything else normalises to null.
  return normalizeContentType(type) !== null;
}

/**
 * A `Content-Disposition` value: an ASCII `filename` fallback plus the exact UTF-8 name as
 * `filename*` (RFC 6266 / 8187). The name is made safe first, so no quote, CR or LF ever gets in.
 */
export function contentDisposition(disposition: 'attachment' | 'inline', name: string): string {
  const safe = safeFileName(name);
  const fallback = safe.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(safe).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
