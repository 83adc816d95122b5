/**
 * Deciding when a file a scanner is writing is finished. File-system events alone cannot tell:
 * a slow scanner appends for seconds, and some drivers write, pause, then write again. So a file is
 * ready only after its size and modification time have stayed the same for a whole window.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';

/** Size and modification time of a file at one moment. */
export interface FileSnapshot {
  size: number;
  mtimeMs: number;
}

/** Settling options. */
export interface SettleOptions {
  /** How long size and mtime must stay unchanged. */
  stableMs: number;
  /** How often to look; defaults to a quarter of the window, between 50 and 250 ms. */
  pollMs?: number;
  signal?: AbortSignal;
}

/** Poll interval used for a window when none is given. */
function defaultPollMs(stableMs: number): number {
  return Math.max(50, Math.min(250, Math.round(stableMs / 4)));
}

/**
 * Resolves with the file's snapshot once it has been non-empty and unchanged for `stableMs`; resolves
 * null if the file disappears or stops being a regular file, or when the signal aborts.
 * Empty files keep waiting: scanners create the file first and fill it afterwards.
 */
export async function waitUntilStable(path: string, options: SettleOptions): Promise<FileSnapshot | null> {
  const pollMs = options.pollMs ?? defaultPollMs(options.stableMs);
  let last: FileSnapshot | null = null;
  let unchangedSince = 0;
  // Counting polls as well as time keeps a stalled event loop (one late timer) from declaring a
  // file finished after a single look.
  let unchangedPolls = 0;
  const minPolls = Math.max(2, Math.ceil(options.stableMs / pollMs));
  for (;;) {
    if (options.signal?.aborted) return null;
    const now = await snapshot(path);
    if (!now) return null;
    const t = performance.now();
    if (!last || now.size !== last.size || now.mtimeMs !== last.mtimeMs || now.size === 0) {
      last = now;
      unchangedSince = t;
      unchangedPolls = 0;
    } else {
      unchangedPolls += 1;
      if (t - unchangedSince >= options.stableMs && unchangedPolls >= minPolls) return now;
    }
    await delay(pollMs, options.signal);
  }
}

/** Size and mtime of a regular file, or null when it is missing or not a file. */
export async function snapshot(path: string): Promise<FileSnapshot | null> {
  try {
    // lstat: a link in the folder is never followed (x.pdf → /any/file would upload that file).
    const s = await lstat(path);
    return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** True when two snapshots describe the same file state. */
export function sameSnapshot(a: FileSnapshot, b: FileSnapshot): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Hex sha256 of a file's bytes, streamed so large scans do not sit in memory. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  // O_NOFOLLOW: a file swapped for a link after it settled is not read through the link.
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  for await (const chunk of handle.createReadStream()) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
