/**
 * Polling a scanner folder: one walk of the folder per pass (directories read, each candidate file
 * `lstat`ed, nothing read or hashed), compared with the pass before. Kept here rather than
 * chokidar's `usePolling`, which keeps one `fs.watchFile` timer per file (5 000 scans = 5 000
 * independent stats every interval over the network, with no notion of a pass) and stops for good
 * when the watched folder goes away. Here passes never overlap (the next starts an interval after
 * the last ended), at most {@link STAT_CONCURRENCY} stats are in flight, and a folder that cannot
 * be read ends the pass without reporting anything gone.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isSupportedScan, type WatchFilter } from './rules.js';
import type { FileSnapshot } from './settle.js';

/** Stats in flight at once during a pass (a share answers each one over the network). */
const STAT_CONCURRENCY = 16;

/** Folder levels a pass goes down (as a drop does; a scanner never nests deeper). */
const MAX_DEPTH = 16;

/** What a pass found: file snapshots by absolute path. */
export type PassResult = Map<string, FileSnapshot>;

/**
 * Walks the folder once; rejects when the folder itself cannot be read.
 * @internal Exported for its tests (the pass over 5 000 files).
 */
export async function pollPass(folder: string, filter: WatchFilter): Promise<PassResult> {
  const files: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    let dirents: Dirent[];
    try {
      dirents = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (dir === folder) throw error;
      return; // A sub-folder removed during the pass: its files are simply not there now.
    }
    for (const dirent of dirents) {
      const path = join(dir, dirent.name);
      if (filter.ignored(path)) continue;
      // Links are never followed nor offered (see settle.ts).
      if (dirent.isDirectory() && depth < MAX_DEPTH) await walk(path, depth + 1);
      else if (dirent.isFile() && isSupportedScan(dirent.name)) files.push(path);
    }
  };
  await walk(folder, 0);
  const found: PassResult = new Map();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const path = files[next++] as string;
      try {
        const s = await lstat(path);
        if (s.isFile()) found.set(path, { size: s.size, mtimeMs: s.mtimeMs });
      } catch {
        // Gone between the listing and the stat.
      }
    }
  };
  await Promise.all(Array.from({ length: STAT_CONCURRENCY }, worker));
  return found;
}

/** What the poller reports. */
export interface PollerEvents {
  add: (path: string) => void;
  change: (path: string) => void;
  unlink: (path: string) => void;
  /** After every pass (or failed pass): how long it took and how many files it saw. */
  pass?: (info: { ms: number; files: number; ok: boolean }) => void;
}

/** A running poller. */
export interface Poller {
  /** Resolves after the first pass (its files reported as added). */
  readonly ready: Promise<void>;
  /** Forgets what the last pass saw: the next one reports every file as added (a folder back). */
  forget(): void;
  close(): Promise<void>;
}

/** Reports the differences between two passes. */
function diff(before: PassResult, now: PassResult, events: PollerEvents): void {
  for (const [path, snap] of now) {
    const old = before.get(path);
    if (!old) events.add(path);
    else if (old.size !== snap.size || old.mtimeMs !== snap.mtimeMs) events.change(path);
  }
  for (const path of before.keys()) if (!now.has(path)) events.unlink(path);
}

/**
 * Polls `folder` every `intervalMs` until closed. `reachable` is asked before each pass: while it
 * says no, nothing is reported (files of a share that went away are not "deleted").
 */
export function startPoller(
  folder: string,
  filter: WatchFilter,
  intervalMs: number,
  options: { reachable: () => Promise<boolean>; events: PollerEvents },
): Poller {
  let last: PassResult = new Map();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const runPass = async (): Promise<void> => {
    const started = performance.now();
    let ok = false;
    try {
      if (await options.reachable()) {
        const now = await pollPass(folder, filter);
        if (closed) return;
        diff(last, now, options.events);
        last = now;
        ok = true;
      }
    } catch {
      // The folder could not be read: the next pass asks `reachable` again.
    }
    options.events.pass?.({ ms: performance.now() - started, files: last.size, ok });
  };
  const schedule = (): void => {
    if (closed) return;
    timer = setTimeout(() => {
      running = runPass().finally(schedule);
    }, intervalMs);
  };
  const ready = runPass().finally(schedule);
  running = ready;
  return {
    ready,
    forget() {
      last = new Map();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await running.catch(() => {});
    },
  };
}
