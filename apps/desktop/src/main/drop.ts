/**
 * Folder drop: a person drops folders and files on the window and every supported file inside is
 * queued, recursively, with the same rules as the scanner inbox.
 */
import { lstat, readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { isIgnoredName, isSupportedScan, UPLOADED_FOLDER } from './inbox/rules.js';

/** Limits that keep a drop of a whole drive from freezing the kiosk. */
export interface ExpandOptions {
  /** Stop after this many files; default 500. */
  maxFiles?: number;
  /** Do not descend deeper than this below a dropped folder; default 8. */
  maxDepth?: number;
}

/** The result of a drop: the files to queue and what was left out, for the person to see. */
export interface ExpandedDrop {
  /** Absolute paths of supported files, dropped order, then by name inside each folder. */
  files: string[];
  /** Dropped paths that were not supported files (or could not be read). */
  skipped: string[];
  /** True when `maxFiles` cut the list short. */
  truncated: boolean;
}

/**
 * Expands dropped paths into supported files. Folders are walked recursively, skipping hidden and
 * temporary entries and any `uploaded` folder (already sent scans). Symbolic links are not followed
 * (no loops, no escaping the dropped folder); a file appears once even when dropped twice.
 */
export async function expandDroppedPaths(
  paths: readonly string[],
  options: ExpandOptions = {},
): Promise<ExpandedDrop> {
  const maxFiles = options.maxFiles ?? 500;
  const maxDepth = options.maxDepth ?? 8;
  const seen = new Set<string>();
  const result: ExpandedDrop = { files: [], skipped: [], truncated: false };

  const addFile = (path: string): void => {
    if (seen.has(path)) return;
    if (result.files.length >= maxFiles) {
      result.truncated = true;
      return;
    }
    seen.add(path);
    result.files.push(path);
  };

  const walk = async (dir: string, depth: number): Promise<void> => {
    let names: string[];
    try {
      names = (await readdir(dir)).sort((a, b) => a.localeCompare(b));
    } catch {
      result.skipped.push(dir);
      return;
    }
    for (const name of names) {
      if (result.truncated) return;
      if (isIgnoredName(name)) continue;
      const path = join(dir, name);
      const kind = await kindOf(path);
      if (kind === 'file' && isSupportedScan(name)) addFile(path);
      else if (kind === 'dir' && depth < maxDepth && name.toLowerCase() !== UPLOADED_FOLDER)
        await walk(path, depth + 1);
    }
  };

  for (const dropped of paths) {
    if (result.truncated) break;
    const path = resolve(dropped);
    const kind = await kindOf(path);
    const name = basename(path);
    if (kind === 'dir') await walk(path, 0);
    else if (kind === 'file' && isSupportedScan(name)) addFile(path);
    else result.skipped.push(path);
  }
  return result;
}

async function kindOf(path: string): Promise<'file' | 'dir' | 'other'> {
  try {
    const s = await lstat(path);
    return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'other';
  }
}
