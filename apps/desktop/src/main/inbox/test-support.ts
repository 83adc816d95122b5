/**
 * Helpers for tests that run the inbox against real temporary folders. Waits are event-based with
 * generous limits, so a loaded 2-core machine makes tests slower, not red.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInbox, type Inbox, type InboxOptions } from './inbox.js';
import type { InboxEvent, Scan } from './scan.js';

/** An inbox under test with every event it reported. */
export interface RecordedInbox {
  inbox: Inbox;
  events: InboxEvent[];
  /** Resolves with the first recorded event (past or future) that matches. */
  next<E extends InboxEvent>(match: (event: InboxEvent) => event is E, timeoutMs?: number): Promise<E>;
  /** Resolves with the scan once a file at `relPath` has been added. */
  added(relPath: string, timeoutMs?: number): Promise<Scan>;
  /** Scans added for `relPath` so far. */
  addedCount(relPath: string): number;
}

/** Starts an inbox on `folder` and records its events. */
export async function startRecorded(options: InboxOptions): Promise<RecordedInbox> {
  const inbox = createInbox(options);
  const events: InboxEvent[] = [];
  const waiters = new Set<() => void>();
  inbox.subscribe((event) => {
    events.push(event);
    for (const wake of [...waiters]) wake();
  });
  await inbox.start();

  const next = <E extends InboxEvent>(
    match: (event: InboxEvent) => event is E,
    timeoutMs = 30_000,
  ): Promise<E> =>
    new Promise<E>((resolve, reject) => {
      const check = (): boolean => {
        const found = events.find(match);
        if (!found) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `No matching inbox event within ${timeoutMs} ms; saw ${JSON.stringify(events.map(brief))}`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      const wake = (): void => void check();
      if (!check()) waiters.add(wake);
    });

  const isAdded =
    (relPath: string) =>
    (event: InboxEvent): event is Extract<InboxEvent, { type: 'added' }> =>
      event.type === 'added' && event.scan.relPath === relPath;

  return {
    inbox,
    events,
    next,
    added: async (relPath, timeoutMs) => (await next(isAdded(relPath), timeoutMs)).scan,
    addedCount: (relPath) => events.filter(isAdded(relPath)).length,
  };
}

function brief(event: InboxEvent): string {
  if (event.type === 'error') return `error ${event.message}`;
  if (event.type === 'removed') return `removed ${event.id} ${event.reason}`;
  return `${event.type} ${event.scan.relPath}`;
}

/** A fresh temporary folder; remove it with {@link removeFolder}. */
export function tempFolder(prefix = 'vita-inbox-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Removes a temporary folder and everything in it. */
export function removeFolder(folder: string): Promise<void> {
  return rm(folder, { recursive: true, force: true, maxRetries: 3 });
}

/** Writes a file (creating its folders) with content unique to `seed`. */
export async function putFile(folder: string, relPath: string, seed: string = relPath): Promise<string> {
  const path = join(folder, ...relPath.split('/'));
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `%PDF-1.4 test scan ${seed}\n`);
  return path;
}
