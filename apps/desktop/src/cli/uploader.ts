/**
 * The headless intake loop: takes each ready scan from the inbox, uploads it into one client's
 * category and lets it leave the inbox only once the server's listing shows it. Failures stay in
 * the inbox and are retried with a growing pause, so a server that is down for a while just
 * delays the scans. One scan at a time: a desk's scanner is slower than the upload anyway.
 */
import { readFile } from 'node:fs/promises';
import { isApiError, keyOrder, safeFileName } from '@vita-docs/core';
import type { FileLike, UploadTarget } from '@vita-docs/core';
import type { Inbox, Scan } from '../main/inbox/index.js';
import { scanContentType } from '../main/inbox/index.js';

/** The server calls the loop needs (core's upload helper and client provide them). */
export interface IntakePorts {
  /** Presign, PUT and complete; resolves with the key the server assigned. */
  upload(file: FileLike): Promise<string>;
  /** The category's current listing. */
  list(): Promise<ReadonlyArray<{ key: string; filename: string }>>;
  /** Image → Letter PDF (returns other files unchanged); absent with `--no-convert`. */
  convert?: (file: FileLike) => Promise<FileLike>;
}

/** One line per file, for the person at the desk. */
export type IntakeReport =
  | { kind: 'uploaded'; scan: Scan; uploadedAs: string; size: number }
  | { kind: 'already-there'; scan: Scan; uploadedAs: string }
  | { kind: 'failed'; scan: Scan; error: string; retryInMs: number | null }
  | { kind: 'skipped'; scan: Scan; reason: string };

/** Options for {@link startIntake}. */
export interface IntakeOptions extends IntakePorts {
  inbox: Inbox;
  target: UploadTarget;
  report(line: IntakeReport): void;
  /** Called when the loop cannot go on (the session ended); the CLI exits. */
  onFatal(error: Error): void;
  /** First retry pause; doubles per failure up to `maxRetryMs`. Defaults 2 s and 60 s. */
  retryMs?: number;
  maxRetryMs?: number;
  /** How far back (ms) a server listing entry may predate an interrupted attempt and still count. */
  clockSkewMs?: number;
}

/** The running loop. */
export interface Intake {
  /** Stops taking new scans and resolves after the one in flight is done. */
  stop(): Promise<void>;
  /** Resolves when no scan is waiting (for tests and the end of a batch). */
  idle(): Promise<void>;
}

/** An error whose HTTP status says the session is gone: retrying cannot help. */
const isSessionError = (error: unknown): boolean => isApiError(error) && error.status === 401;

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // core's ApiError says `network` when no answer came at all; "fetch failed" alone tells a person nothing.
  return isApiError(error) && error.kind === 'network' ? `cannot reach the server (${message})` : message;
}

/**
 * How an upload attempt's destination is written into the inbox ledger.
 * @internal Exported for the intake's end-to-end test.
 */
export function attemptTarget(target: UploadTarget): string {
  return JSON.stringify([target.clientId, target.docType]);
}

/** Starts uploading whatever the inbox offers, now and later. */
export function startIntake(options: IntakeOptions): Intake {
  const { inbox, target } = options;
  const retryMs = options.retryMs ?? 2000;
  const maxRetryMs = options.maxRetryMs ?? 60_000;
  const skew = options.clockSkewMs ?? 120_000;
  const targetKey = attemptTarget(target);

  const failures = new Map<string, number>();
  const notBefore = new Map<string, number>();
  const skipped = new Set<string>();
  let stopped = false;
  let running: Promise<void> | null = null;
  let wakeTimer: ReturnType<typeof setTimeout> | null = null;
  const idleWaiters = new Set<() => void>();

  const nextScan = (): Scan | undefined =>
    inbox.list().find((scan) => {
      if (scan.duplicateOf) {
        if (!skipped.has(scan.id)) {
          skipped.add(scan.id);
          const { name, uploaded } = scan.duplicateOf;
          options.report({ kind: 'skipped', scan, reason: `duplicate of ${name}${uploaded ? ' (already uploaded)' : ''}` });
        }
        return false;
      }
      return (notBefore.get(scan.id) ?? 0) <= Date.now();
    });

  const fileOf = async (scan: Scan): Promise<FileLike> => {
    const bytes = await readFile(scan.path);
    return new File([bytes], scan.name, { type: scanContentType(scan.name) });
  };

  /** After a stop mid-upload: is this scan already in the category? Then it must not go twice. */
  const alreadyUploaded = async (scan: Scan): Promise<string | null> => {
    if (!scan.attempt || scan.attempt.target !== targetKey) return null;
    const names = new Set([safeFileName(scan.name), safeFileName(scan.name.replace(/\.[^.]+$/, '.pdf'))]);
    const since = scan.attempt.startedAt - skew;
    const items = await options.list();
    // The key's numeric prefix is when the server stored it (docs/behaviour.md#file-keys).
    const match = items.find((item) => names.has(item.filename) && keyOrder(item.key) >= since);
    return match ? match.filename : null;
  };

  const uploadOne = async (scan: Scan): Promise<void> => {
    try {
      const found = await alreadyUploaded(scan);
      if (found) {
        await inbox.markUploaded(scan.id);
        options.report({ kind: 'already-there', scan, uploadedAs: found });
        return;
      }
      await inbox.markUploading(scan.id, targetKey);
      let file = await fileOf(scan);
      if (options.convert) file = await options.convert(file);
      const key = await options.upload(file);
      // Confirmed means the server lists it, not merely that the PUT answered 200.
      const items = await options.list();
      const stored = items.find((item) => item.key === key);
      if (!stored) throw new Error('The server did not list the upload; it will be tried again.');
      await inbox.markUploaded(scan.id);
      failures.delete(scan.id);
      options.report({ kind: 'uploaded', scan, uploadedAs: stored.filename, size: file.size });
    } catch (error) {
      const message = messageOf(error);
      if (inbox.get(scan.id)) await inbox.markFailed(scan.id, message).catch(() => undefined);
      if (isSessionError(error)) {
        options.report({ kind: 'failed', scan, error: message, retryInMs: null });
        stopped = true;
        options.onFatal(new Error(`The server ended the session (${message}). Start intake again to sign in.`));
        return;
      }
      const count = (failures.get(scan.id) ?? 0) + 1;
      failures.set(scan.id, count);
      const pause = Math.min(maxRetryMs, retryMs * 2 ** (count - 1));
      notBefore.set(scan.id, Date.now() + pause);
      options.report({ kind: 'failed', scan, error: message, retryInMs: pause });
    }
  };

  const drain = async (): Promise<void> => {
    for (let scan = nextScan(); scan && !stopped; scan = nextScan()) await uploadOne(scan);
    if (stopped) return;
    // Scans waiting out a retry pause: come back when the earliest one is due.
    const due = inbox.list().filter((s) => !s.duplicateOf).map((s) => notBefore.get(s.id) ?? 0);
    if (due.length) {
      wakeTimer = setTimeout(kick, Math.max(0, Math.min(...due) - Date.now()));
    } else {
      for (const wake of [...idleWaiters]) wake();
    }
  };

  function kick(): void {
    if (wakeTimer) clearTimeout(wakeTimer);
    wakeTimer = null;
    if (stopped || running) return;
    running = drain()
      .catch((error: unknown) => options.onFatal(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        running = null;
        // Something may have arrived while this pass was finishing.
        if (!stopped && nextScan()) kick();
      });
  }

  const unsubscribe = inbox.subscribe((event) => {
    if (event.type === 'added') kick();
  });
  kick();

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      if (wakeTimer) clearTimeout(wakeTimer);
      await running;
    },
    idle() {
      return new Promise((resolve) => {
        if (!running && !inbox.list().some((s) => !s.duplicateOf)) return resolve();
        const wake = (): void => {
          idleWaiters.delete(wake);
          resolve();
        };
        idleWaiters.add(wake);
      });
    },
  };
}
