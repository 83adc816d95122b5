/** What happens to a scan file once the server has confirmed its upload. */
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, extname, join, relative, sep } from 'node:path';
import { UPLOADED_FOLDER } from './rules.js';

/** `move`: into `uploaded/` inside the watched folder (keeping sub-folders); `delete`: removed. */
export type AfterUpload = 'move' | 'delete';

/**
 * Moves the scan at `relPath` into `<folder>/uploaded/<relPath>` (a free name is chosen when one
 * is taken) or deletes it. Returns where the file went, or null when deleted or already gone.
 * Windows briefly locks files that antivirus or the indexer are reading, hence the retries.
 */
export async function finishScanFile(
  folder: string,
  relPath: string,
  mode: AfterUpload,
): Promise<string | null> {
  const source = join(folder, ...relPath.split('/'));
  if (mode === 'delete') {
    await withRetries(() => rm(source, { force: true }));
    return null;
  }
  if (!(await exists(source))) return null;
  const target = await freeName(join(folder, UPLOADED_FOLDER, ...relPath.split('/')));
  await mkdir(dirname(target), { recursive: true });
  await withRetries(() => rename(source, target));
  return target;
}

/**
 * Moves the file at `relPath` into `<folder>/<sub>/<relPath>` (a free name chosen when one is
 * taken), for the scans set aside instead of listed (`duplicates/`, `could-not-read/`). Returns
 * the new path inside the folder, `/`-separated.
 */
export async function setAsideFile(folder: string, relPath: string, sub: string): Promise<string> {
  const target = await freeName(join(folder, sub, ...relPath.split('/')));
  await mkdir(dirname(target), { recursive: true });
  await withRetries(() => rename(join(folder, ...relPath.split('/')), target));
  return relative(folder, target).split(sep).join('/');
}

async function freeName(wanted: string): Promise<string> {
  if (!(await exists(wanted))) return wanted;
  const ext = extname(wanted);
  const stem = wanted.slice(0, wanted.length - ext.length);
  for (let n = 1; ; n += 1) {
    const candidate = `${stem} (${n})${ext}`;
    if (!(await exists(candidate))) return candidate;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

const TRANSIENT = new Set(['EBUSY', 'EPERM', 'EACCES']);

async function withRetries(action: () => Promise<void>, tries = 5): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await action();
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (attempt >= tries || !TRANSIENT.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
