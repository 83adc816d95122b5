/**
 * One upload queue per client and category, made when first asked for, and the tray's summary of
 * them all (docs/behaviour.md#upload-tray); each queue is core's upload flow on the host's ports.
 */
import { ApiError } from '../../api/errors.js';
import type { ApiClient } from '../../api/client.js';
import type { UploadTarget } from '../../api/upload.js';
import { messages } from '../../domain/messages.js';
import type { SessionFlow } from '../session/session.js';
import type { KeptFile, OpenedJournal, UploadJournal } from '../upload/journal.js';
import { createUploadFlow } from '../upload/upload.js';
import type { UploadFlow } from '../upload/upload.js';
import type { ClaimSync } from './claims.js';
import type { KeptOffer, QueueScreen, TrayItem, UploadQueuesPorts, UploadQueuesShared } from './types.js';

export const IDLE_SCREEN: QueueScreen = {
  refresh: () => undefined,
  uploadedNames: () => [],
  clientName: () => undefined,
};

const key = (t: UploadTarget) => JSON.stringify([t.clientId, t.docType]);

/** Signed in on trust with no connection (see `SessionState`). */
export const isOffline = (session: SessionFlow) => {
  const state = session.getState();
  return state.status === 'signedIn' && state.offline === true;
};

/**
 * The API as a queue of `owner` uses it: only while `owner` is the one signed in. A retry that
 * comes due while nobody is, or just after someone else signed in (before their queues replace
 * these), waits as if offline rather than send one person's file with another's session.
 */
export function apiFor(
  api: UploadQueuesPorts['api'],
  signedIn: () => string | null,
  owner: string | null,
  /** Taken on trust with no connection: the browser's cookie may be someone else's by now. */
  trusted: () => boolean,
): Pick<ApiClient, 'presignUpload' | 'completeUpload'> {
  const check = () => {
    if (owner === null || signedIn() !== owner || trusted())
      throw new ApiError('network', 0, messages.waitingForConnection);
  };
  return {
    presignUpload: (args) => (check(), api.presignUpload(args)),
    completeUpload: (args) => (check(), api.completeUpload(args)),
  };
}

export interface QueueEntry {
  flow: UploadFlow;
  lent: { screen: QueueScreen };
  target: UploadTarget;
  stop: () => void;
}

/** Every file of every queue not uploaded yet, as a journal keeps it. */
export function pendingFiles(entries: Iterable<QueueEntry>) {
  return [...entries].flatMap(({ flow, lent, target }) => {
    const clientName = lent.screen.clientName();
    return flow
      .getState()
      .queue.filter((item) => item.progress.status !== 'done')
      .map(({ id, file }) => ({
        entry: {
          id,
          target,
          name: file.name,
          type: file.type,
          size: file.size,
          ...(clientName ? { clientName } : {}),
        },
        file,
      }));
  });
}

/**
 * What a just-opened journal offers: not a file of this page's queues, those uploaded meanwhile too
 * (a file is never offered twice), nor one it let go of, nor one another page holds.
 */
export async function offerOf(
  found: OpenedJournal,
  entries: Iterable<QueueEntry>,
  forgotten: ReadonlySet<string>,
  claims: ClaimSync,
): Promise<KeptOffer> {
  const elsewhere = await claims.elsewhere().catch(() => new Set<string>());
  const queued = [...entries].flatMap(({ flow }) => flow.getState().queue.map((item) => item.id));
  const taken = new Set([...queued, ...forgotten, ...elsewhere]);
  return {
    files: found.files.filter((kept) => !taken.has(kept.entry.id)),
    lost: found.lost.filter((entry) => !taken.has(entry.id)),
    deletedForOthers: found.deletedForOthers,
    ...(found.sealOnly && found.sealedCount ? { sealed: found.sealedCount } : {}),
  };
}

/** The files of every queue not uploaded yet. */
export const pendingIds = (entries: Iterable<QueueEntry>) =>
  new Set(pendingFiles(entries).map(({ entry }) => entry.id));

/** The tray's items: every file of every queue not uploaded yet. */
function trayItems(entries: Iterable<QueueEntry>, clientNames: Map<string, string>): TrayItem[] {
  const items: TrayItem[] = [];
  for (const { flow, lent, target } of entries) {
    // The name a screen lent stays known after the screen is gone.
    const lentName = lent.screen.clientName();
    if (lentName) clientNames.set(key(target), lentName);
    for (const item of flow.getState().queue) {
      if (item.progress.status === 'done') continue;
      const { id, file, progress, saved } = item;
      items.push({
        id,
        target,
        clientName: clientNames.get(key(target)),
        name: file.name,
        size: file.size,
        progress,
        saved,
        flow,
      });
    }
  }
  return items;
}

/** What a queue needs besides the services: whose API calls it makes and where it keeps its files. */
interface QueueSetParts extends Pick<UploadQueuesShared, 'summary' | 'announceStored'> {
  api: () => Pick<ApiClient, 'presignUpload' | 'completeUpload'>;
  journal: () => UploadJournal | undefined;
  claims: ClaimSync;
}

/** One upload queue per client and category, made when first asked for, and the tray's summary of them all. */
export function createQueueSet(
  ports: UploadQueuesPorts,
  { summary, announceStored, api, journal, claims }: QueueSetParts,
) {
  const { platform, photos, storage, clock, connectivity, newId } = ports;
  const entries = new Map<string, QueueEntry>();
  let limit: number | null = null;
  let asked = false;
  /** Client names the kept files brought, for queues no screen has lent its name to yet. */
  const clientNames = new Map<string, string>();

  /** The tray's view, after any queue changed; files that finish count towards `Uploading n of N`. */
  function summarise(finished: readonly { size: number }[] = []): void {
    const items = trayItems(entries.values(), clientNames);
    claims.sync(new Set(items.map((item) => item.id)));
    summary.setState((s) => {
      const done = s.finished + finished.length;
      const doneBytes = s.finishedBytes + finished.reduce((sum, f) => sum + f.size, 0);
      // All done and nothing left: the next batch counts from one again.
      return items.length === 0
        ? { items, finished: 0, finishedBytes: 0 }
        : { items, finished: done, finishedBytes: doneBytes };
    });
  }

  /** The server's upload limit, asked once: until it answers the server alone refuses large files. */
  function askLimit(): void {
    if (asked) return;
    asked = true;
    ports.api.config().then(
      ({ maxUploadBytes }) => (limit = maxUploadBytes),
      () => (asked = false),
    );
  }

  function entryFor(target: UploadTarget): QueueEntry {
    const found = entries.get(key(target));
    if (found) return found;
    askLimit();
    const lent = { screen: IDLE_SCREEN };
    const kept = journal();
    const flow = createUploadFlow({
      api: api(),
      putFile: ports.putFile,
      convert: photos.convert,
      ...(photos.inspect ? { inspect: photos.inspect } : {}),
      storage,
      platform,
      target,
      refresh: () => lent.screen.refresh(),
      uploadedNames: () => lent.screen.uploadedNames(),
      maxUploadBytes: () => limit,
      clientName: () => lent.screen.clientName() ?? clientNames.get(key(target)),
      clock,
      newId,
      ...(kept ? { journal: kept } : {}),
      ...(connectivity ? { connectivity } : {}),
    });
    const stop = flow.subscribe((state, previous) => {
      const finished = state.queue.filter(
        (item) =>
          item.progress.status === 'done' &&
          previous.queue.find((p) => p.id === item.id)?.progress.status !== 'done',
      );
      summarise(finished.map((item) => item.file));
      if (finished.length > 0) announceStored(target);
    });
    const created = { flow, lent, target, stop };
    entries.set(key(target), created);
    return created;
  }

  return {
    entryFor,
    summarise,
    /** Every queue. */
    each: () => entries.values(),
    /** The client's name a kept file brought, for its queue. */
    rememberName: (target: UploadTarget, name: string) => clientNames.set(key(target), name),
    /** After the same person signed in again: see {@link resumeAfterSignIn}. */
    resumeAfterSignIn: () => resumeAfterSignIn(entries.values()),
    /** Drops every queue (their uploads and timers stop). */
    dropAll(): void {
      for (const entry of entries.values()) {
        entry.stop();
        entry.flow.dispose();
      }
      entries.clear();
    },
  };
}

/**
 * After the same person signed in again: sends the files that failed only because the session had
 * ended (`not_signed_in`), and those that waited meanwhile (the queues wait while nobody is signed
 * in), one after the other in each queue.
 */
function resumeAfterSignIn(entries: Iterable<QueueEntry>): void {
  for (const { flow } of entries) {
    const ids = flow
      .getState()
      .queue.filter(
        ({ progress }) =>
          progress.status === 'waiting' ||
          (progress.status === 'failed' && progress.code === 'not_signed_in'),
      )
      .map((item) => item.id);
    void ids.reduce<Promise<unknown>>(
      (previous, id) => previous.then(() => flow.send({ type: 'retry', id })),
      Promise.resolve(),
    );
  }
}

/**
 * Queues the offered kept files again, each in its category's queue, and uploads them; resolves once
 * they are queued.
 */
async function resumeKept(files: readonly KeptFile[], queues: QueueSet) {
  const byTarget = new Map<string, KeptFile[]>();
  for (const kept of files)
    byTarget.set(key(kept.entry.target), [...(byTarget.get(key(kept.entry.target)) ?? []), kept]);
  const restored: Promise<unknown>[] = [];
  for (const group of byTarget.values()) {
    const [first] = group;
    if (!first) continue;
    if (first.entry.clientName) queues.rememberName(first.entry.target, first.entry.clientName);
    const { flow } = queues.entryFor(first.entry.target);
    const restore = flow.send({ type: 'restore', files: group });
    void restore.then(() => flow.send({ type: 'upload' }));
    restored.push(restore);
  }
  await Promise.allSettled(restored);
}

/**
 * Resumes the kept files this page can claim (a file another page resumed meanwhile is left to it),
 * then lets them go with the queues.
 */
export async function resumeClaimed(files: readonly KeptFile[], claims: ClaimSync, queues: QueueSet) {
  const ours = await claims.take(files.map((file) => file.entry.id));
  await resumeKept(
    files.filter((file) => ours.has(file.entry.id)),
    queues,
  );
  claims.settle(ours, pendingIds(queues.each()));
}

export type QueueSet = ReturnType<typeof createQueueSet>;
