/** Whole-file writes that a crash or power cut cannot leave half done. */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/**
 * Writes `data` (text as UTF-8) to a temp file beside `path` (same folder, so the rename stays on
 * one file system), flushes it to disk, then renames it over `path`: readers see the old or the new
 * file. `mode` is the new file's permissions (before the umask).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o666): Promise<void> {
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'w', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
