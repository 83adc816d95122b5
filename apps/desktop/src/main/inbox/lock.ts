/**
 * One watcher per scanner folder. Two (the kiosk app and a headless intake, or two kiosks on a
 * shared folder) would each upload every scan, so the inbox holds a lock file while it runs.
 */
import { hostname, uptime } from 'node:os';
import { open, readFile, rm } from 'node:fs/promises';

/** Who holds a folder. */
interface LockOwner {
  pid: number;
  host: string;
  startedAt: number;
}

/** The folder is watched by someone else. */
class FolderLockedError extends Error {
  override readonly name = 'FolderLockedError';
}

/** A held lock; release it when the inbox closes. */
export interface FolderLock {
  release(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(path: string): Promise<LockOwner | null> {
  try {
    const owner = JSON.parse(await readFile(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string'
      ? { pid: owner.pid, host: owner.host, startedAt: Number(owner.startedAt) || 0 }
      : null;
  } catch {
    return null;
  }
}

/**
 * Takes the lock file at `path` (created exclusively). A lock left by a process of this machine
 * that is no longer running is taken over; a live one, or one from another machine (whose process
 * cannot be checked from here), is refused with a message that says what to do.
 */
export async function lockFolder(path: string): Promise<FolderLock> {
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: Date.now() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const handle = await open(path, 'wx');
      try {
        await handle.writeFile(JSON.stringify(me));
      } finally {
        await handle.close();
      }
      return {
        async release() {
          const owner = await readOwner(path);
          if (owner?.pid === me.pid && owner.host === me.host) await rm(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(path);
    if (owner && owner.host !== me.host) {
      throw new FolderLockedError(
        `Another computer (${owner.host}) is watching this scanner folder. If it no longer is, delete ${path}.`,
      );
    }
    // A lock from before the last boot is stale even if its pid was reused since.
    const sinceBoot = owner !== null && owner.startedAt >= Date.now() - uptime() * 1000;
    if (owner && sinceBoot && isAlive(owner.pid)) {
      throw new FolderLockedError(
        `Another intake (process ${owner.pid}) is already watching this scanner folder.`,
      );
    }
    // Stale (its process is gone) or unreadable (a crash while writing it): take it over.
    await rm(path, { force: true });
  }
  throw new FolderLockedError(`Could not lock the scanner folder (${path}).`);
}
