/**
 * The upload queues themselves (docs/behaviour.md#kept-uploads), in a chunk of their own with the
 * upload flow: the landing page never downloads them. `upload-queues.tsx` loads this at sign-in and
 * before any screen that queues files; see {@link createUploadQueues}.
 */
import { ApiError, createUploadFlow, logoutWithWaitingConfirm, messages } from '@vita-docs/core';
import type {
  ApiClient,
  KeptFile,
  OpenedJournal,
  SessionFlow,
  Store,
  UploadFlow,
  UploadJournal,
  UploadTarget,
} from '@vita-docs/core';
import type { PhotoTools } from '../screens/documents/lazy-converter';
import { createWebLockClaims } from '../adapters/file-claims';
import type { FileClaims } from '../adapters/file-claims';
import type { AppServices } from './services';
import { NO_OFFER } from './upload-queues';
import type { KeptOffer, QueueScreen, QueuesSummary, TrayItem, UploadQueues } from './upload-queues';

/** What the queues share with the part of them that loads with the page (the header reads these from the start). */
export interface SharedParts {
  photos: PhotoTools;
  summary: Store<QueuesSummary>;
  offer: Store<KeptOffer>;
  /** Tells the screens that a file of `target`'s queue was stored ({@link UploadQueues.onStored}). */
  announceStored: (target: UploadTarget) => void;
}

const IDLE_SCREEN: QueueScreen = {
  refresh: () => undefined,
  uploadedNames: () => [],
  clientName: () => undefined,
};

const key = (t: UploadTarget) => JSON.stringify([t.clientId, t.docType]);

/** Signed in on trust with no connection (see `SessionState`). */
const isOffline = (session: SessionFlow) => {
  const state = session.getState();
  return state.status === 'signedIn' && state.offline === true;
};

/**
 * The API as a queue of `owner` uses it: only while `owner` is the one signed in. A retry that
 * comes due while nobody is, or just after someone else signed in (before their queues replace
 * these), waits as if offline rather than send one person's file with another's session.
 */
function apiFor(
  api: AppServices['api'],
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

/**
 * The files this page's queues hold, claimed for as long as they are queued: another page of the same
 * browser neither offers nor resumes them (docs/behaviour.md#kept-uploads). Without the host's claims
 * every call answers as if no other page existed.
 */
function createClaimSync(claims: FileClaims | undefined) {
  /** Claimed (or being claimed) by this page. */
  const mine = new Set<string>();
  /** Of those, the ones seen in a queue: let go of once they leave it. */
  const queued = new Set<string>();
  const sync = (ids: ReadonlySet<string>) => {
    if (!claims) return;
    for (const id of ids) {
      queued.add(id);
      if (!mine.has(id)) {
        mine.add(id);
        void claims.claim(id);
      }
    }
    for (const id of queued)
      if (!ids.has(id)) {
        queued.delete(id);
        mine.delete(id);
        claims.release(id);
      }
  };
  return {
    /** Claims the files newly queued and lets go of those that left every queue (`ids`: all queued now). */
    sync,
    /** Claims kept files before this page acts on them; answers those it got (another page holds the rest). */
    async take(ids: readonly string[]): Promise<ReadonlySet<string>> {
      if (!claims) return new Set(ids);
      const got = await Promise.all(
        ids.map(async (id) => {
          if (mine.has(id)) return true;
          mine.add(id);
          const claimed = await claims.claim(id);
          if (!claimed) mine.delete(id);
          return claimed;
        }),
      );
      return new Set(ids.filter((_, i) => got[i]));
    },
    /** Files taken that are now queued or not (restored, or deleted): from now on they are let go of with the queues. */
    settle(ids: Iterable<string>, queuedNow: ReadonlySet<string>) {
      for (const id of ids) if (mine.has(id)) queued.add(id);
      sync(queuedNow);
    },
    elsewhere: async (): Promise<ReadonlySet<string>> => (claims ? claims.heldElsewhere() : new Set()),
    releaseAll() {
      for (const id of mine) claims?.release(id);
      mine.clear();
      queued.clear();
    },
  };
}

type ClaimSync = ReturnType<typeof createClaimSync>;

interface QueueEntry {
  flow: UploadFlow;
  lent: { screen: QueueScreen };
  target: UploadTarget;
  stop: () => void;
}

/** Every file of every queue not uploaded yet, as a journal keeps it. */
function pendingFiles(entries: Iterable<QueueEntry>) {
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
async function offerOf(
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
  };
}

/** The files of every queue not uploaded yet. */
const pendingIds = (entries: Iterable<QueueEntry>) =>
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
interface QueueSetParts extends Pick<SharedParts, 'photos' | 'summary' | 'announceStored'> {
  api: () => Pick<ApiClient, 'presignUpload' | 'completeUpload'>;
  journal: () => UploadJournal | undefined;
  claims: ClaimSync;
}

let ids = 0;
const newId = () => globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${++ids}`;

/** One upload queue per client and category, made when first asked for, and the tray's summary of them all. */
function createQueueSet(
  services: AppServices,
  { photos, summary, announceStored, api, journal, claims }: QueueSetParts,
) {
  const { platform, localStorage, clock, connectivity } = services;
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
    services.api.config().then(
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
      putFile: platform.putFile,
      convert: photos.convert,
      inspect: photos.inspect,
      storage: localStorage,
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
async function resumeKept(files: readonly KeptFile[], queues: ReturnType<typeof createQueueSet>) {
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

interface QueuesApiParts {
  services: AppServices;
  session: SessionFlow;
  shared: SharedParts;
  set: ReturnType<typeof createQueueSet>;
  /** The signed-in person's journal as their queues use it now. */
  journal: () => UploadJournal;
  /**
   * Resolves once the offer holds everything the device keeps for the signed-in person (an open
   * under way waited for, a missing or failed one made again): false when that cannot be read.
   */
  keptKnown: () => Promise<boolean>;
  claims: ClaimSync;
  clear: () => void;
}

/** The {@link UploadQueues} the screens use (but `onStored`, whose listeners the facade in upload-queues.tsx holds from the start). */
function queuesApi({
  services,
  session,
  shared,
  set,
  journal,
  keptKnown,
  claims,
  clear,
}: QueuesApiParts): Omit<UploadQueues, 'onStored'> {
  const { photos, summary, offer } = shared;
  return {
    photos,
    queueFor: (target) => set.entryFor(target).flow,
    attach(target, screen) {
      const entry = set.entryFor(target);
      entry.lent.screen = screen;
      set.summarise();
      return () => {
        if (entry.lent.screen === screen) entry.lent.screen = IDLE_SCREEN;
      };
    },
    summary,
    offer,
    resume() {
      const { files } = offer.getState();
      offer.setState((s) => ({ ...s, files: [] }));
      // A file another page resumed meanwhile is left to it.
      void claims.take(files.map((file) => file.entry.id)).then(async (ours) => {
        await resumeKept(
          files.filter((file) => ours.has(file.entry.id)),
          set,
        );
        claims.settle(ours, pendingIds(set.each()));
      });
    },
    async discard() {
      const { files, lost } = offer.getState();
      offer.setState((s) => ({ ...s, files: [], lost: [] }));
      const kept = journal();
      // Not a file another page has queued meanwhile: its journal record is that page's now.
      const ours = await claims.take([...files.map((file) => file.entry.id), ...lost.map((e) => e.id)]);
      await Promise.all([...ours].map((id) => kept.remove(id).catch(() => undefined)));
      claims.settle(ours, pendingIds(set.each()));
    },
    chooseAgain(entry, file) {
      offer.setState((s) => ({ ...s, lost: s.lost.filter((e) => e.id !== entry.id) }));
      void journal()
        .remove(entry.id)
        .catch(() => undefined);
      void set.entryFor(entry.target).flow.send({ type: 'add', files: [file] });
    },
    dismissDeleted() {
      offer.setState((s) => ({ ...s, deletedForOthers: 0 }));
    },
    async logout() {
      // What the device keeps is known only once its journal is open, which right after a page load
      // may still be under way (its key comes from the server): decided before, the question would
      // be skipped and the kept files deleted unasked.
      const known = await keptKnown();
      const { files, lost } = offer.getState();
      const waiting = summary.getState().items.length + files.length + lost.length; // items: none done
      const question =
        waiting > 0 ? logoutWithWaitingConfirm(waiting) : known ? null : messages.logoutKeptUnknownConfirm;
      if (question !== null && !(await services.platform.confirm(question))) return false;
      await session.send({ type: 'logout' });
      const signedOut = session.getState().status === 'signedOut';
      if (!signedOut) return false;
      clear();
      await services.uploadJournals?.destroy().catch(() => undefined);
      return true;
    },
  };
}

/**
 * Once the live key is back after a seal-only open: every queued file is kept again under it, since
 * what was sealed with no connection went to a key the server may have destroyed meanwhile (a
 * sign-out on another device) and was then deleted at this open. A file let go of meanwhile is
 * forgotten again, so nothing uploaded is left kept.
 */
function keepAgain(
  journal: UploadJournal,
  pending: ReturnType<typeof pendingFiles>,
  forgotten: ReadonlySet<string>,
): void {
  for (const { entry, file } of pending)
    void journal
      .save(entry, file)
      .then(() => (forgotten.has(entry.id) ? journal.remove(entry.id) : undefined))
      .catch(() => undefined);
}

/** The same person signing in again after their session ended: their queues pick up where they stopped. */
function resumeWhenBack(
  session: SessionFlow,
  signedIn: () => string | null,
  set: Pick<ReturnType<typeof createQueueSet>, 'resumeAfterSignIn'>,
): () => void {
  let lastPerson = signedIn();
  let signedOutSince = lastPerson === null;
  let trusted = isOffline(session);
  return session.subscribe(() => {
    const now = signedIn();
    if (now === null) {
      signedOutSince = true;
      return;
    }
    // Taken on trust until now: the files that waited for the server's word go.
    const vouched = trusted && !isOffline(session);
    trusted = isOffline(session);
    if ((signedOutSince || vouched) && now === lastPerson) set.resumeAfterSignIn();
    signedOutSince = false;
    lastPerson = now;
  });
}

/** The signed-in person's email, or null. */
function signedInAs(session: SessionFlow): string | null {
  const state = session.getState();
  return state.status === 'signedIn' ? state.user.email : null;
}

/**
 * Keeps each category's upload queue alive while the person moves between screens: files go on
 * uploading, and a queue left by a screen (or by a session that expired and was signed into again)
 * is there when the screen opens again. With the host's journals (the browser's IndexedDB) every
 * queued file is also kept on the device, so a reload or a closed tab loses nothing: signing in
 * again offers them back. The queues belong to one person: a sign-out deletes them, another
 * person signing in drops them (and their kept files).
 */
export function createUploadQueues(services: AppServices, session: SessionFlow, shared: SharedParts) {
  const { uploadJournals } = services;
  const { summary, offer } = shared;
  const signedIn = () => signedInAs(session);
  /** The signed-in person's journal once opened (null: none, or not opened yet). */
  let opened: Promise<OpenedJournal | null> = Promise.resolve(null);
  let openedFor: string | null = null;
  /** The last open failed (its key comes from the server, which may not have answered): the next use tries again. */
  let openFailed = false;
  /** The last open had no connection: it seals, but read nothing kept; opened again once the session is live. */
  let openedSealOnly = false;
  /** The last open and the offer made from it: what a sign-out waits for before it decides to ask. */
  let offering: Promise<void> = Promise.resolve();
  /** Files this page's queues let go of (uploaded, removed): an open under way may still read them. */
  const forgotten = new Set<string>();
  /**
   * Whose queues these are, counted: `clear` (another person, a sign-out) starts a new generation.
   * A queue of an older generation — a conversion still finishing after the person changed — can
   * never write into the new person's journal.
   */
  let generation = 0;
  const journalOf = (mine: number): UploadJournal => ({
    save: async (entry, file, bytes) => {
      if (mine === generation && (openFailed || openedSealOnly) && openedFor !== null)
        void openFor(openedFor);
      const current = mine === generation ? await opened : null;
      if (!current || mine !== generation) throw new Error('Nothing is kept on this device.');
      return current.journal.save(entry, file, bytes);
    },
    remove: async (id) => {
      forgotten.add(id);
      const current = mine === generation ? await opened : null;
      if (current && mine === generation) await current.journal.remove(id);
    },
  });
  const claims = createClaimSync(services.locks && createWebLockClaims(services.locks));
  const set = createQueueSet(services, {
    ...shared,
    claims,
    api: () => apiFor(services.api, signedIn, signedIn(), () => isOffline(session)),
    journal: () => (uploadJournals ? journalOf(generation) : undefined),
  });

  const stopWatch = resumeWhenBack(session, signedIn, set);
  const journal = () => journalOf(generation);

  function clear(): void {
    generation += 1;
    // The next sign-in (the same person too) opens the journal afresh and is offered what it keeps.
    openedFor = null;
    openFailed = false;
    openedSealOnly = false;
    forgotten.clear();
    opened = Promise.resolve(null);
    set.dropAll();
    offer.setState(NO_OFFER);
    set.summarise();
    claims.releaseAll();
  }

  /**
   * Opens the person's kept files and offers those not already in a queue (kept through an expired
   * session, or added with no connection on this page). Resolves once they are offered (an open
   * already under way too).
   */
  function openFor(person: string): Promise<void> {
    const live = session.getState().status === 'signedIn' && !isOffline(session);
    if (!uploadJournals || (openedFor === person && !openFailed && !(openedSealOnly && live)))
      return offering;
    const wasSealOnly = openedSealOnly;
    openedFor = person;
    openFailed = false;
    openedSealOnly = !live;
    const mine = generation;
    opened = uploadJournals.open(person).catch(() => {
      if (mine === generation) openFailed = true;
      return null;
    });
    return (offering = opened.then(async (found) => {
      if (!found || openedFor !== person) return;
      if (found.sealOnly) openedSealOnly = true;
      else if (wasSealOnly) keepAgain(found.journal, pendingFiles(set.each()), forgotten);
      const offered = await offerOf(found, set.each(), forgotten, claims);
      if (openedFor === person && mine === generation) offer.setState(offered);
    }));
  }

  /** See {@link QueuesApiParts.keptKnown}: opens (again) a journal not open, waits for one opening. */
  async function keptKnown(person = signedIn()): Promise<boolean> {
    if (!uploadJournals || person === null) return !uploadJournals;
    await openFor(person).catch(() => undefined);
    return openedFor === person && !openFailed && !openedSealOnly;
  }

  return {
    queues: queuesApi({ services, session, shared, set, journal, keptKnown, claims, clear }),
    clear,
    openFor,
    dispose: () => [stopWatch, clear].forEach((stop) => stop()),
    /** Whether a reload would lose a file: one not kept on the device and not uploaded yet. */
    wouldLose: () => summary.getState().items.some((item) => !item.saved),
  };
}
