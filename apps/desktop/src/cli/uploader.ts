/**
 * The headless intake loop: every ready scan of the inbox goes into one client's category through
 * core's upload queue (the same flow as the screens: images converted to PDF, a file that finds no
 * network waits and goes again by itself, server errors retried after growing pauses, a repeat of a
 * stored upload stored once). The inbox's ledger stays the source of truth for scans: a scan leaves
 * the inbox only once the server lists its bytes, and a failure stays in the ledger with its error.
 */
import { readFile } from 'node:fs/promises';
import { keyOrder, safeFileName } from '@vita-docs/core';
import type {
  ApiClient,
  Clock,
  ConvertImage,
  PutFile,
  UploadFlow,
  UploadState,
  UploadTarget,
} from '@vita-docs/core';
import type { Inbox, Scan } from '../main/inbox/index.js';
import { scanContentType } from '../main/inbox/index.js';
import { createHostFlow, failure, nothingUploading, systemClock } from './intake-flow.js';

/** One line per file, for the person at the desk. */
export type IntakeReport =
  | { kind: 'uploaded'; scan: Scan; uploadedAs: string; size: number }
  | { kind: 'already-there'; scan: Scan; uploadedAs: string }
  | { kind: 'failed'; scan: Scan; error: string; retryInMs: number | null }
  | { kind: 'skipped'; scan: Scan; reason: string };

/** Options for {@link startIntake}. */
export interface IntakeOptions {
  inbox: Inbox;
  target: UploadTarget;
  api: Pick<ApiClient, 'presignUpload' | 'completeUpload' | 'listDocs'>;
  putFile: PutFile;
  /** Image → Letter PDF; absent with `--no-convert` (images go as they are). */
  convert?: ConvertImage;
  report(line: IntakeReport): void;
  /** Called when the loop cannot go on (the session ended); the CLI exits. */
  onFatal(error: Error): void;
  /** Times the automatic retries (tests may pass a manual one). */
  clock?: Clock;
  /** How far back (ms) a server listing entry may predate an interrupted attempt and still count. */
  clockSkewMs?: number;
}

/** The running loop. */
export interface Intake {
  /** Stops taking new scans and resolves after the one being sent is done. */
  stop(): Promise<void>;
  /** Resolves when no scan is waiting (for tests and the end of a batch). */
  idle(): Promise<void>;
}

/**
 * How an upload attempt's destination is written into the inbox ledger.
 * @internal Exported for the intake's end-to-end test.
 */
export function attemptTarget(target: UploadTarget): string {
  return JSON.stringify([target.clientId, target.docType]);
}

async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Buffer.from(digest).toString('hex');
}

/** What the loop's parts share while it runs. */
interface IntakeRun {
  readonly options: IntakeOptions;
  readonly flow: UploadFlow;
  readonly clock: Clock;
  /** This loop's target as the ledger records it (see {@link attemptTarget}). */
  readonly targetKey: string;
  /** Queue item id → its scan, and the last state reported for it. */
  readonly tracked: Map<string, { scan: Scan; reported?: string }>;
  /** Confirmations under way (a stop waits for them: the ledger must hear how each ended). */
  readonly confirming: Set<Promise<void>>;
  /** Duplicates already reported as skipped. */
  readonly skipped: Set<string>;
  readonly idleWaiters: Set<() => void>;
  /** The pass that puts ready scans into the queue; passes run one after another. */
  adding: Promise<void>;
  stopped: boolean;
  fatal: boolean;
}

async function listed(run: IntakeRun) {
  const { api, target } = run.options;
  return (await api.listDocs({ params: { id: target.clientId }, query: { docType: target.docType } })).items;
}

/** After a stop mid-upload: is this scan already in the category? Then it must not go twice. */
async function alreadyUploaded(run: IntakeRun, scan: Scan): Promise<string | null> {
  if (!scan.attempt || scan.attempt.target !== run.targetKey) return null;
  const names = new Set([safeFileName(scan.name), safeFileName(scan.name.replace(/\.[^.]+$/, '.pdf'))]);
  const since = scan.attempt.startedAt - (run.options.clockSkewMs ?? 120_000);
  // The key's numeric prefix is when the server stored it (docs/behaviour.md#file-keys).
  const match = (await listed(run)).find((item) => names.has(item.filename) && keyOrder(item.key) >= since);
  return match ? match.filename : null;
}

const isIdle = (run: IntakeRun): boolean =>
  run.tracked.size === 0 && !run.options.inbox.list().some((s) => !s.duplicateOf);

function wakeIdle(run: IntakeRun): void {
  if (!isIdle(run)) return;
  for (const wake of [...run.idleWaiters]) wake();
}

function endSession(run: IntakeRun, message: string): void {
  if (run.fatal) return;
  run.fatal = true;
  run.stopped = true;
  run.flow.dispose();
  run.options.onFatal(new Error(`The server ended the session (${message}). Start intake again to sign in.`));
}

/** A file the queue stored: confirmed by the server's listing of its bytes, then it leaves the inbox. */
async function confirm(
  run: IntakeRun,
  itemId: string,
  scan: Scan,
  file: { arrayBuffer(): Promise<ArrayBuffer>; size: number },
): Promise<void> {
  const { inbox } = run.options;
  try {
    const sha = await sha256Hex(await file.arrayBuffer());
    const stored = (await listed(run)).find((item) => item.sha256 === sha);
    if (!stored) throw new Error('The server did not list the upload; it will be tried again.');
    await inbox.markUploaded(scan.id);
    run.options.report({ kind: 'uploaded', scan, uploadedAs: stored.filename, size: file.size });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (inbox.get(scan.id)) await inbox.markFailed(scan.id, message).catch(() => undefined);
    run.options.report({ kind: 'failed', scan, error: message, retryInMs: null });
  } finally {
    run.tracked.delete(itemId);
    wakeIdle(run);
    kick(run); // a scan whose confirmation failed is offered again
  }
}

/** Follows each scan's queue item: reports changes, tells the ledger, confirms what was stored. */
function follow(run: IntakeRun, state: UploadState): void {
  const { inbox } = run.options;
  // A scan queued just as a round ended waits for no one: start the next round.
  if (!run.stopped && state.status === 'idle' && state.queue.some((q) => q.progress.status === 'queued')) {
    setTimeout(() => void run.flow.send({ type: 'upload' }), 0);
  }
  for (const [itemId, entry] of run.tracked) {
    const item = state.queue.find((q) => q.id === itemId);
    if (!item) continue;
    const { progress } = item;
    const key = progress.status === 'failed' ? `failed:${progress.retryAt ?? ''}` : progress.status;
    if (entry.reported === key) continue;
    entry.reported = key;
    if (progress.status === 'done') {
      const done = confirm(run, itemId, entry.scan, item.file);
      run.confirming.add(done);
      void done.finally(() => run.confirming.delete(done));
      continue;
    }
    const failed = failure(progress, run.clock.now());
    if (!failed) continue;
    void inbox.markFailed(entry.scan.id, failed.error).catch(() => undefined);
    if (progress.status === 'failed' && progress.code === 'not_signed_in') {
      run.options.report({ kind: 'failed', scan: entry.scan, error: failed.error, retryInMs: null });
      endSession(run, failed.error);
      return;
    }
    run.options.report({ kind: 'failed', scan: entry.scan, ...failed });
  }
}

/** Puts one ready scan into the queue, unless the server already has it from an attempt a stop cut off. */
async function admit(run: IntakeRun, scan: Scan): Promise<void> {
  const { inbox } = run.options;
  try {
    const found = await alreadyUploaded(run, scan);
    if (found) {
      await inbox.markUploaded(scan.id);
      run.options.report({ kind: 'already-there', scan, uploadedAs: found });
      return;
    }
    const bytes = await readFile(scan.path);
    const file = new File([bytes], scan.name, { type: scanContentType(scan.name) });
    await inbox.markUploading(scan.id, run.targetKey);
    const { ids: added } = run.flow.addFiles([file], { keptByHost: true });
    const itemId = added[0];
    if (itemId) run.tracked.set(itemId, { scan });
  } catch (error) {
    // The scan could not be read or the server not asked: it stays in the inbox for the next pass.
    const message = error instanceof Error ? error.message : String(error);
    run.options.report({ kind: 'failed', scan, error: message, retryInMs: null });
  }
}

/** Puts every ready scan not yet in the queue into it (a duplicate is reported once and left), and starts the queue. */
function kick(run: IntakeRun): void {
  run.adding = run.adding.then(async () => {
    if (run.stopped) return;
    const inQueue = new Set([...run.tracked.values()].map((t) => t.scan.id));
    for (const scan of run.options.inbox.list()) {
      if (run.stopped) return;
      if (inQueue.has(scan.id)) continue;
      if (!scan.duplicateOf) {
        await admit(run, scan);
      } else if (!run.skipped.has(scan.id)) {
        run.skipped.add(scan.id);
        const { name, uploaded } = scan.duplicateOf;
        run.options.report({
          kind: 'skipped',
          scan,
          reason: `duplicate of ${name}${uploaded ? ' (already uploaded)' : ''}`,
        });
      }
    }
    if (!run.stopped && run.tracked.size > 0) void run.flow.send({ type: 'upload' });
    wakeIdle(run);
  });
}

/** Starts uploading whatever the inbox offers, now and later. */
export function startIntake(options: IntakeOptions): Intake {
  const clock = options.clock ?? systemClock;
  const run: IntakeRun = {
    options,
    flow: createHostFlow(options, clock),
    clock,
    targetKey: attemptTarget(options.target),
    tracked: new Map(),
    confirming: new Set(),
    skipped: new Set(),
    idleWaiters: new Set(),
    adding: Promise.resolve(),
    stopped: false,
    fatal: false,
  };
  const { flow, idleWaiters } = run;
  flow.subscribe((state) => follow(run, state));
  const unsubscribe = options.inbox.subscribe((event) => {
    if (event.type === 'added') kick(run);
  });
  kick(run);

  return {
    async stop() {
      run.stopped = true;
      unsubscribe();
      await run.adding;
      // What is not being sent leaves the queue (its scan stays in the inbox); the one being sent finishes.
      for (const item of flow.getState().queue) {
        if (item.progress.status !== 'uploading') await flow.send({ type: 'remove', id: item.id });
      }
      await nothingUploading(flow);
      flow.dispose();
      await Promise.all([...run.confirming]);
    },
    idle() {
      return new Promise((resolve) => {
        if (isIdle(run)) return resolve();
        const wake = (): void => {
          idleWaiters.delete(wake);
          resolve();
        };
        idleWaiters.add(wake);
      });
    },
  };
}
