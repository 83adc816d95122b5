/**
 * What the inbox's parts (watching, settling, handing over) share: the folder, the ledger once
 * loaded, which entries this run has offered, the listeners, and the background work a close waits for.
 */
import { join } from 'node:path';
import { finishScanFile, type AfterUpload } from './after-upload.js';
import type { Ledger, LedgerEntry } from './ledger.js';
import { createEmitter, scanOf, type InboxEvent, type Scan } from './scan.js';

/** `list`: shown on the desk until dismissed; `move`: into `duplicates/` or `could-not-read/`. */
export type ProblemScans = 'list' | 'move';

/** The inbox's shared state. */
export interface InboxContext {
  readonly folder: string;
  readonly now: () => number;
  /** Ids of ledger entries whose file has been seen and verified in this run. */
  readonly offered: Set<string>;
  readonly emit: (event: InboxEvent) => void;
  readonly subscribe: (listener: (event: InboxEvent) => void) => () => void;
  /** The ledger's entries; throws before the inbox has started. */
  entries(): Map<string, LedgerEntry>;
  /** The ledger, once loaded (null before start). */
  ledger: Ledger | null;
  /** Writes the ledger (nothing before start). */
  save(): Promise<void>;
  /** The absolute path of a `/`-separated path inside the folder. */
  absolute(relPath: string): string;
  /** The scan its users see for a ledger entry. */
  view(entry: LedgerEntry): Scan;
  /** The offered entry for the file at `relPath`, if any. */
  offeredAt(relPath: string): LedgerEntry | undefined;
  /** Tells the listeners that `what` failed. */
  reportError(what: string, error: unknown): void;
  /** Runs work that close() waits for; a failure becomes an `error` event. */
  background(what: string, work: () => Promise<void>): void;
  /** Resolves once the background work under way has ended. */
  settled(): Promise<void>;
  /** Set by close(): nothing new is offered. */
  closed: boolean;
  afterUpload: AfterUpload;
  /** Duplicates of uploaded scans and damaged scans: listed on the desk, or moved to sub-folders. */
  problemScans: ProblemScans;
  /** Moves or deletes an uploaded scan's file and records that it is done (a failure is reported, not thrown). */
  finishFile(entry: LedgerEntry): Promise<void>;
}

/** The shared state of an inbox on `folder`, before it has started. */
export function createInboxContext(
  folder: string,
  now: () => number,
  afterUpload: AfterUpload,
): InboxContext {
  const pendingWork = new Set<Promise<unknown>>();
  const { emit, subscribe } = createEmitter();
  const ctx: InboxContext = {
    folder,
    now,
    offered: new Set<string>(),
    emit,
    subscribe,
    ledger: null,
    closed: false,
    afterUpload,
    problemScans: 'list',
    entries() {
      if (!ctx.ledger) throw new Error('The scanner inbox has not been started.');
      return ctx.ledger.entries;
    },
    save: () => (ctx.ledger ? ctx.ledger.save() : Promise.resolve()),
    absolute: (relPath) => join(folder, ...relPath.split('/')),
    view: (entry) => scanOf(entry, ctx.absolute(entry.relPath), ctx.entries()),
    offeredAt: (relPath) =>
      [...ctx.offered].map((id) => ctx.entries().get(id)).find((e) => e?.relPath === relPath),
    reportError: (what, error) =>
      emit({ type: 'error', message: `${what}: ${error instanceof Error ? error.message : String(error)}` }),
    background(what, work) {
      const task = work().catch((error: unknown) => ctx.reportError(what, error));
      pendingWork.add(task);
      void task.finally(() => pendingWork.delete(task));
    },
    settled: async () => {
      await Promise.allSettled([...pendingWork]);
    },
    async finishFile(entry) {
      try {
        await finishScanFile(folder, entry.relPath, ctx.afterUpload);
        entry.fileDone = true;
        await ctx.save();
      } catch (error) {
        ctx.reportError(
          `Could not ${ctx.afterUpload === 'move' ? 'move' : 'delete'} uploaded scan ${entry.relPath}`,
          error,
        );
      }
    },
  };
  return ctx;
}
