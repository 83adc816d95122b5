/**
 * Which files in a scanner folder count as scans. Shared by the watched inbox and the folder drop,
 * so a file that the inbox would ignore is never queued by a drop either.
 */
import type { Stats } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

/** Extensions (lower case, with the dot) of the types the server accepts (PDF and the image types). */
const SUPPORTED_SCAN_EXTENSIONS: readonly string[] = [
  '.pdf',
  '.jpg',
  '.jpeg',
  '.png',
  '.webp',
  '.bmp',
  '.heic',
  '.heif',
  '.tif',
  '.tiff',
];

/** Name of the sub-folder of the watched folder that receives uploaded scans. */
export const UPLOADED_FOLDER = 'uploaded';

/** Sub-folders for duplicates and scans that could not be read, when a desk sets them aside. */
export const DUPLICATES_FOLDER = 'duplicates';
export const COULD_NOT_READ_FOLDER = 'could-not-read';

/** Top-level folders of the watched folder the inbox never looks into (all of our own making). */
const OWN_FOLDERS = new Set([UPLOADED_FOLDER, DUPLICATES_FOLDER, COULD_NOT_READ_FOLDER]);

const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

/** OS litter that shows up in folders next to real files. */
const SYSTEM_FILES = new Set(['thumbs.db', 'desktop.ini', '.ds_store', 'ehthumbs.db']);

/**
 * Suffixes of files still being written: our own temp files, browsers' partial downloads and the
 * temporary names scanner drivers and office programs write before renaming to the final name.
 */
const TEMPORARY_SUFFIXES = ['.~tmp', '.tmp', '.temp', '.part', '.partial', '.crdownload', '.download', '~'];

/** Lower-case extension with the dot, or '' (a leading dot alone, as in `.profile`, is no extension). */
function scanExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/**
 * True for names that are never scans whatever they contain: hidden (leading dot), temporary,
 * Office lock files (`~$…`) and OS litter. Applies to folders too (a hidden folder is skipped).
 */
export function isIgnoredName(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower.startsWith('.') || lower.startsWith('~$')) return true;
  if (SYSTEM_FILES.has(lower)) return true;
  return TEMPORARY_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}

/** True when a file of this name is a scan the kiosk uploads. */
export function isSupportedScan(name: string): boolean {
  return !isIgnoredName(name) && SUPPORTED_SCAN_EXTENSIONS.includes(scanExtension(name));
}

/** The content type of a scan, from its extension; octet-stream for names that are not scans. */
export function scanContentType(name: string): string {
  return CONTENT_TYPES[scanExtension(name)] ?? 'application/octet-stream';
}

/** Path helpers for watching one folder. */
export interface WatchFilter {
  /** `/`-separated path inside the folder; null for the folder itself or anything outside it. */
  relativeOf: (path: string) => string | null;
  /** chokidar's `ignored`: hidden/temporary names, our own folders (`uploaded` …), unsupported files. */
  ignored: (path: string, stats?: Stats) => boolean;
}

/** The watch filter for `folder` (an absolute, resolved path). */
export function watchFilter(folder: string): WatchFilter {
  const relativeOf = (path: string): string | null => {
    const rel = relative(folder, path);
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) return null;
    return rel.split(sep).join('/');
  };
  const ignored = (path: string, stats?: Stats): boolean => {
    const rel = relativeOf(path);
    if (rel === null) return false;
    const parts = rel.split('/');
    if (OWN_FOLDERS.has(parts[0]?.toLowerCase() ?? '')) return true;
    const name = parts[parts.length - 1] ?? '';
    if (isIgnoredName(name)) return true;
    // Without stats a path may be a folder, and folders have no extension to judge.
    return stats?.isFile() === true && !isSupportedScan(name);
  };
  return { relativeOf, ignored };
}
