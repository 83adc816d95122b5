/**
 * Entry names for a client's download-all archive: `{docType}/{filename}`, each part made safe for
 * every extractor (Windows included) and every name unique within the archive.
 */
import { fileExtension, safeFileName } from '@vita-docs/core/contract';

/** Device names Windows refuses as file or folder names, with or without an extension. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * One path segment: slashes (as in `Michigan/Locality Intake`) become `-`, then the file-name rules
 * of core apply (no control or reserved characters, no leading dots, bounded length); trailing dots
 * and spaces go (Windows drops them), and a reserved device name gets a `_` prefix. The season
 * archive names its client folders with it too.
 */
export function safeSegment(raw: string, fallback: string): string {
  const slashesReplaced = raw.replace(/[/\\]+/g, '-');
  // safeFileName turns nothing into 'file'; decide emptiness first so a category falls back well.
  // eslint-disable-next-line no-control-regex -- control characters do not count as content
  const meaningful = slashesReplaced.replace(/[\u0000-\u001f\u007f\s.]/g, '');
  if (!meaningful) return fallback;
  let segment = safeFileName(slashesReplaced).replace(/[. ]+$/, '');
  if (!segment) return fallback;
  if (WINDOWS_RESERVED.test(segment)) segment = `_${segment}`;
  return segment;
}

/** Hands out unique entry names for one archive; compare is case-insensitive, like Windows and macOS. */
export interface ZipNamer {
  /** The entry name for a document of `docType` called `filename`. */
  name(docType: string, filename: string): string;
  /** An entry at the top of the archive, beside the category folders (a note about the download). */
  topLevel(filename: string): string;
}

/** A fresh {@link ZipNamer}: duplicates become `name (2).pdf`, `name (3).pdf`, … */
export function createZipNamer(): ZipNamer {
  const used = new Set<string>();
  const claim = (candidate: string): boolean => {
    const folded = candidate.normalize('NFC').toLowerCase();
    if (used.has(folded)) return false;
    used.add(folded);
    return true;
  };
  const unique = (folder: string | null, file: string): string => {
    const at = (base: string) => (folder === null ? base : `${folder}/${base}`);
    if (claim(at(file))) return at(file);
    const ext = fileExtension(file);
    const stem = ext ? file.slice(0, -ext.length) : file;
    for (let n = 2; ; n += 1) {
      const candidate = at(`${stem} (${n})${ext}`);
      if (claim(candidate)) return candidate;
    }
  };
  return {
    name: (docType, filename) => unique(safeSegment(docType, 'Documents'), safeSegment(filename, 'file')),
    topLevel: (filename) => unique(null, safeSegment(filename, 'file')),
  };
}
