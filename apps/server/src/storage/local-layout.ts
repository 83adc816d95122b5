/**
 * Where a document key lives on disk: `{root}/{clientId}/{categoryDir}/{millis}_{name}`, temp files in
 * `{root}/.tmp`. The mapping is injective and can never leave the root, whatever the key says.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { assertDocKey } from './keys.js';
import { StorageError } from './types.js';

/** Temp files live inside the root so the final rename never crosses file systems. */
export const TEMP_DIR = '.tmp';
/** Holds the encoded category of a hashed category directory (see {@link categoryDir}). */
const CATEGORY_MARKER = '.key';
/** Longest category directory name kept verbatim; file systems allow 255 bytes per name. */
const MAX_DIR_NAME = 200;

/**
 * The directory name of an encoded category. `.` and `*` are escaped (`encodeURIComponent` leaves them
 * as they are, so `%2E`/`%2A` never occur otherwise): `..` and `.` can never name a directory. A
 * category too long for one file name becomes `#` + its hash, with the real name in a marker file.
 */
function categoryDir(encodedDocType: string): string {
  const escaped = encodedDocType.replace(/\./g, '%2E').replace(/\*/g, '%2A');
  if (escaped.length <= MAX_DIR_NAME) return escaped;
  return `#${createHash('sha256').update(encodedDocType).digest('base64url')}`;
}

/** The encoded category a directory holds; null for anything that is not a category directory. */
export async function categoryFromDir(clientDir: string, dirName: string): Promise<string | null> {
  if (dirName.startsWith('.')) return null;
  if (!dirName.startsWith('#')) return dirName.replace(/%2E/g, '.').replace(/%2A/g, '*');
  try {
    const encoded = (await readFile(path.join(clientDir, dirName, CATEGORY_MARKER), 'utf8')).trim();
    return categoryDir(encoded) === dirName ? encoded : null;
  } catch {
    return null;
  }
}

/** Resolves `target` under `root`, refusing anything that would land outside it. */
function inside(root: string, ...segments: string[]): string {
  const target = path.resolve(root, ...segments);
  const relative = path.relative(root, target);
  if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new StorageError('invalid_key', 'That file reference is not valid.');
  }
  return target;
}

/** The file of a document key (validated with `parseDocKey`, then confined to the root). */
export function objectPath(root: string, key: string): string {
  const parts = assertDocKey(key);
  const [, encodedDocType, file] = key.split('/') as [string, string, string];
  return inside(root, parts.clientId, categoryDir(encodedDocType), file);
}

/** The directory of a client, or of one of its categories. */
export function prefixPath(root: string, clientId: string, encodedDocType: string | null): string {
  return encodedDocType === null
    ? inside(root, clientId)
    : inside(root, clientId, categoryDir(encodedDocType));
}

/** True for the error of a file or directory that is not there. */
export const isMissing = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');

/** Flushes a directory entry (a rename) to disk; a no-op where directories cannot be opened (Windows). */
export async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Durability of the rename is best effort; atomicity does not depend on it.
  } finally {
    await handle?.close();
  }
}

/** Creates a key's category directory (and its marker when hashed) before a file is renamed into it. */
export async function ensureCategoryDir(root: string, key: string): Promise<string> {
  const file = objectPath(root, key);
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (path.basename(dir).startsWith('#')) {
    const marker = path.join(dir, CATEGORY_MARKER);
    // The key's category segment: parseDocKey accepts a key only when it is exactly this encoding.
    const encoded = encodeURIComponent(assertDocKey(key).docType);
    const existing = await readFile(marker, 'utf8').catch(() => null);
    if (existing !== encoded) {
      const tmp = `${marker}.${randomUUID()}`;
      await writeFile(tmp, encoded, { flag: 'wx', mode: 0o600 });
      await rename(tmp, marker);
    }
  }
  return file;
}

/** A fresh temp file path inside the root (created by the caller with `wx`). */
export async function tempPath(root: string): Promise<string> {
  const dir = path.join(root, TEMP_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return path.join(dir, `${Date.now()}-${randomUUID()}.part`);
}
