/** Rules about document files and their storage keys shared by the server and every client. */
import { isClientId } from './client-id.js';
import { fileTooLargeMessage } from './messages.js';

/** Longest file name part of a key, in UTF-8 bytes (well below the 255 most file systems allow). */
export const MAX_FILE_NAME_BYTES = 200;

const encoder = new TextEncoder();
const byteLength = (s: string): number => encoder.encode(s).length;

/** The extension of a file name including the dot (`.pdf`), or '' when there is none. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot) : '';
}

/**
 * A file name that is safe as the last part of a storage key and of a ZIP entry: no path
 * separators or control characters, no leading dots, at most {@link MAX_FILE_NAME_BYTES} bytes
 * (the extension is kept when shortening). Never empty.
 */
export function safeFileName(name: string): string {
  let cleaned = name
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    // Bidi overrides and isolates can make `fdp.cmd` display as `dmc.pdf`.
    .replace(/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/[/\\:*?"<>|]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  if (!cleaned) cleaned = 'file';
  if (byteLength(cleaned) <= MAX_FILE_NAME_BYTES) return cleaned;
  const ext = fileExtension(cleaned);
  const keepExt = byteLength(ext) <= 16 ? ext : '';
  let stem = keepExt ? cleaned.slice(0, -keepExt.length) : cleaned;
  while (stem && byteLength(stem) + byteLength(keepExt) > MAX_FILE_NAME_BYTES) {
    stem = Array.from(stem).slice(0, -1).join('');
  }
  return (stem.trim() || 'file') + keepExt;
}

/**
 * The rename rule (docs/behaviour.md#rename): the name is trimmed; when it lacks the original file's extension
 * (checked case-insensitively) the original extension is appended. Returns null for an empty name,
 * or one of nothing but dots and spaces.
 */
export function applyRenameRule(originalName: string, requested: string): string | null {
  const trimmed = requested.trim();
  if (isNoName(trimmed)) return null;
  const ext = fileExtension(originalName);
  if (!ext || trimmed.toLowerCase().endsWith(ext.toLowerCase())) return trimmed;
  return trimmed + ext;
}

/**
 * Why a file is refused before any upload is tried, or null when the server may take it. Today that
 * is its size over the server's limit (`GET /config`): `This file is larger than the 25 MB limit.`
 * A limit that is not a positive number (not known yet) refuses nothing; the server still decides.
 */
export function refusalBeforeUpload(file: { size: number }, maxUploadBytes: number): string | null {
  if (!Number.isFinite(maxUploadBytes) || maxUploadBytes <= 0) return null;
  return file.size > maxUploadBytes ? fileTooLargeMessage(maxUploadBytes) : null;
}

/**
 * What cannot stand in a file name: path separators, `:*?"<>|`, control characters (C0, DEL, C1),
 * bidi marks, overrides and isolates, and halves of surrogate pairs.
 */
const NOT_IN_FILE_NAMES =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** `<label> <number><extension>`, the number at most 9 digits. */
const NUMBERED_NAME = /^(.*) (\d{1,9})(\.[^.]*)?$/s;
const CAPTURE_EXTENSION = /^\.[A-Za-z0-9]{1,10}$/;

/** The label shortened (by whole characters) until `<label> <number><extension>` fits {@link MAX_FILE_NAME_BYTES}. */
function fittedLabel(label: readonly string[], number: string, extension: string): string {
  const suffixBytes = byteLength(` ${number}${extension}`);
  let end = label.length;
  let text = label.join('');
  while (end > 0 && byteLength(text) + suffixBytes > MAX_FILE_NAME_BYTES) {
    end -= 1;
    text = label.slice(0, end).join('').trimEnd();
  }
  return text;
}

/**
 * The name of a camera capture (docs/behaviour.md#category-screen): the category's name and the next
 * number, `Banking Info 1.pdf`, `Banking Info 2.pdf`… The number is one more than the highest one
 * the category's names already carry (`existingNames`: uploaded and queued files; compared ignoring
 * case), so numbers follow the order files were taken in. Characters a file name cannot hold become
 * `-` (`Michigan/Locality Intake 1.pdf` → `Michigan-Locality Intake 1.pdf`); white space is folded,
 * leading dots dropped, and a long name is shortened so the whole fits {@link MAX_FILE_NAME_BYTES}.
 * The result is already safe ({@link safeFileName} leaves it unchanged), so the server stores it as is.
 */
export function captureFileName(
  categoryLabel: string,
  existingNames: Iterable<string>,
  extension = '.pdf',
): string {
  if (!CAPTURE_EXTENSION.test(extension)) throw new RangeError(`Not a file extension: ${extension}`);
  const cleaned = categoryLabel
    .normalize('NFC')
    .replace(NOT_IN_FILE_NAMES, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '')
    .trimEnd();
  const label = Array.from(cleaned || 'Photo');
  let highest = 0;
  for (const existing of existingNames) {
    const name = existing.normalize('NFC');
    const [, , digits, ext = ''] = NUMBERED_NAME.exec(name) ?? [];
    if (digits === undefined) continue;
    const ours = `${fittedLabel(label, digits, ext)} ${digits}${ext}`;
    if (ours.toLowerCase() === name.toLowerCase()) highest = Math.max(highest, Number(digits));
  }
  const number = String(highest + 1);
  return `${fittedLabel(label, number, extension)} ${number}${extension}`;
}

/** A Content-Type's media type, parameters dropped, lower case: `Image/JPEG; q=1` → `image/jpeg`. */
export function mediaType(contentType: string | null | undefined): string {
  return ((contentType ?? '').split(';', 1)[0] ?? '').trim().toLowerCase();
}

/** Extensions of the document types the store accepts, by content type (first = canonical). */
const TYPE_EXTENSIONS: Record<string, readonly string[]> = {
  'application/pdf': ['.pdf'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
  'image/bmp': ['.bmp'],
  'image/heic': ['.heic', '.heif'],
  'image/heif': ['.heif', '.heic'],
  'image/tiff': ['.tif', '.tiff'],
};

/** True for a name of nothing but dots and white space: it names nothing once made safe. */
function isNoName(name: string): boolean {
  return /^[\s.]*$/.test(name);
}

/**
 * The name a document of `contentType` is stored, downloaded and zipped under: made safe
 * ({@link safeFileName}) and ending in an extension of that type, so a computer opening it runs the
 * viewer for what it really is. Any other extension (`statement.cmd`, a JPEG's `.png`) stays part
 * of the name and the type's own is appended: `statement.cmd.pdf`. Null for a name of nothing but
 * dots and spaces. An unknown type counts as PDF.
 */
export function documentFileName(name: string, contentType: string): string | null {
  if (isNoName(name)) return null;
  const safe = safeFileName(name);
  const allowed = TYPE_EXTENSIONS[mediaType(contentType)] ?? TYPE_EXTENSIONS['application/pdf'] ?? ['.pdf'];
  if (allowed.includes(fileExtension(safe).toLowerCase())) return safe;
  return safeFileName(safe + (allowed[0] ?? '.pdf'));
}

/** Upload content type: `.pdf` → application/pdf, else the file's own type, else image/jpeg. */
export function uploadContentType(name: string, ownType?: string | null): string {
  if (name.toLowerCase().endsWith('.pdf')) return 'application/pdf';
  return ownType ? ownType : 'image/jpeg';
}

/** The parts of a document storage key `{clientId}/{encodeURIComponent(docType)}/{millis}_{name}`. */
export interface DocKeyParts {
  clientId: string;
  docType: string;
  /** The numeric prefix (milliseconds at upload) that orders files. */
  order: number;
  filename: string;
}

/** Builds a storage key. `filename` must already be safe (see {@link safeFileName}). */
export function buildDocKey(clientId: string, docType: string, order: number, filename: string): string {
  return `${clientId}/${encodeURIComponent(docType)}/${order}_${filename}`;
}

/** Parses a storage key; null when it is malformed in any way (wrong shape, traversal, bad encoding). */
export function parseDocKey(key: string): DocKeyParts | null {
  if (key.length > 1024) return null;
  const parts = key.split('/');
  if (parts.length !== 3) return null;
  const [clientId, encodedType, file] = parts as [string, string, string];
  if (!isClientId(clientId)) return null;
  let docType: string;
  try {
    docType = decodeURIComponent(encodedType);
  } catch {
    return null;
  }
  if (!docType || encodeURIComponent(docType) !== encodedType) return null;
  const [, order, filename] = /^(\d{1,16})_(.+)$/.exec(file) ?? [];
  if (order === undefined || filename === undefined) return null;
  if (filename !== safeFileName(filename)) return null;
  return { clientId, docType, order: Number(order), filename };
}

/** Sort key for listing: the numeric prefix of the key's file name (docs/behaviour.md#file-keys). */
export function keyOrder(key: string): number {
  const file = key.slice(key.lastIndexOf('/') + 1);
  const match = /^(\d+)_/.exec(file);
  return match ? Number(match[1]) : Number.MAX_SAFE_INTEGER;
}
