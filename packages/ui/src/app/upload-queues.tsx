import { ApiError, createStore, createUploadFlow, logoutWithWaitingConfirm, messages } from '@vita-docs/core';
import type {
  ApiClient,
  FileLike,
  FileProgress,
  JournalEntry,
  KeptFile,
  OpenedJournal,
  Store,
  UploadFlow,
  UploadJournal,
  UploadTarget,
} from '@vita-docs/core';
import { createContext, use, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { preloadUploadParts } from '../components/lazy-parts';
import { createLazyConverter } from '../screens/documents/lazy-converter';
import type { PhotoTools } from '../screens/documents/lazy-converter';
import { useServices } from './services';
import type { AppServices } from './services';
import { useSession, useSessionFlow } from './session';
import type { SessionFlow } from '../adapters/session';

/** What the category screen on display lends its queue: the list to refresh, the names it holds, the client's name. */
export interface QueueScreen {
  refresh: () => unknown;
  uploadedNames: () => readonly string[];
  clientName: () => string | undefined;
}

/** One file of any queue, as the upload tray lists it. */
export interface TrayItem {
  id: string;
  target: UploadTarget;
  clientName: string | undefined;
  name: string;
  size: number;
  progress: FileProgress;
  /** Kept on the device: a reload would not lose it. */
  saved: boolean;
  flow: UploadFlow;
}

/** Every queue at once: what the tray in the header shows. */
export interface QueuesSummary {
  items: readonly TrayItem[];
  /** Files stored since the queues were last empty, and their bytes: `Uploading 3 of 5`. */
  finished: number;
  finishedBytes: number;
}

/** Files kept on this device from an earlier visit, offered after sign-in (docs/behaviour.md#kept-uploads). */
export interface KeptOffer {
  files: readonly KeptFile[];
  /** Kept by name only: their bytes could not be kept or read back. */
  lost: readonly JournalEntry[];
  /** How many were deleted because someone else signed in here meanwhile. */
  deletedForOthers: number;
}

const NO_OFFER: KeptOffer = { files: [], lost: [], deletedForOthers: 0 };

/** The upload queues of the signed-in person, one per client and category, and the photo tools. */
export interface UploadQueues {
  photos: PhotoTools;
  /** The queue of a category: the same one each time the screen is opened again. */
  queueFor(target: UploadTarget): UploadFlow;
  /** The screen showing `target` lends its list; returns the function that takes it back. */
  attach(target: UploadTarget, screen: QueueScreen): () => void;
  summary: Pick<Store<QueuesSummary>, 'getState' | 'subscribe'>;
  offer: Pick<Store<KeptOffer>, 'getState' | 'subscribe'>;
  /** Queues the offered files again and uploads them. */
  resume(): void;
  /** Deletes the offered files from the device. */
  discard(): Promise<void>;
  /** A lost file chosen again: queued for its category, the lost entry forgotten. */
  chooseAgain(entry: JournalEntry, file: FileLike): void;
  /** Dismisses the note about files deleted for someone else's sign-in. */
  dismissDeleted(): void;
  /**
   * Signs out: asks first when files are not uploaded yet; then empties every queue and deletes
   * what the device kept. Resolves to whether the person is signed out.
   */
  logout(): Promise<boolean>;
}

const UploadQueuesContext = createContext<UploadQueues | null>(null);

const IDLE_SCREEN: QueueScreen = { refresh: () => undefined, uploadedNames: () => [], clientName: () => undefined };

/**
 * Keeps each category's upload queue alive while the person moves between screens: files go on
 * uploading, and a queue left by a screen (or by a session that expired and was signed into again)
 * is there when the screen opens again. With the host's journals (the browser's IndexedDB) every
 * queued file is also kept on the device, so a reload or a closed tab loses nothing: signing in
 * again offers them back. The queues belong to one person: a sign-out deletes them, another
 * person signing in drops them (and their kept files).
 */
function createUploadQueues(services: AppServices, session: SessionFlow) {
  const { api, platform, localStorage, clock, uploadJournals, connectivity } = services;
  const signedIn = () => {
    const state = session.getState();
    return state.status === 'signedIn' ? state.user.email : null;
  };
  /**
   * The API as a queue of `owner` uses it: only while `owner` is the one signed in. A retry that
   * comes due while nobody is, or just after someone else signed in (before their queues replace
   * these), waits as if offline rather than send one person's file with another's session.
   */
  const apiFor = (owner: string | null): Pick<ApiClient, 'presignUpload' | 'completeUpload'> => {
    const check = () => {
      if (owner === null || signedIn() !== owner) throw new ApiError('network', 0, messages.waitingForConnection);
    };
    return {
      presignUpload: (args) => (check(), api.presignUpload(args)),
      completeUpload: (args) => (check(), api.completeUpload(args)),
    };
  };
  const photos = createLazyConverter(console);
  const entries = new Map<string, { flow: UploadFlow; lent: { screen: QueueScreen }; target: UploadTarget; stop: () => void }>();
  const summary = createStore<QueuesSummary>({ items: [], finished: 0, finishedBytes: 0 });
  const offer = createStore<KeptOffer>(NO_OFFER);
  let limit: number | null = null;
  let asked = false;
  /** The signed-in person's journal once opened (null: none, or not opened yet). */
  let opened: Promise<OpenedJournal | null> = Promise.resolve(null);
  let openedFor: string | null = null;
  /**
   * Whose queues these are, counted: `clear` (another person, a sign-out) starts a new generation.
   * A queue of an older generation — a conversion still finishing after the person changed — can
   * never write into the new person's journal.
   */
  let generation = 0;
  const journalOf = (mine: number): UploadJournal => ({
    save: async (entry, file) => {
      const current = mine === generation ? await opened : null;
      if (!current || mine !== generation) throw new Error('Nothing is kept on this device.');
      return current.journal.save(entry, file);
    },
    remove: async (id) => {
      const current = mine === generation ? await opened : null;
      if (current && mine === generation) await current.journal.remove(id);
    },
  });
  const key = (t: UploadTarget) => JSON.stringify([t.clientId, t.docType]);
  /** Client names the kept files brought, for queues no screen has lent its name to yet. */
  const clientNames = new Map<string, string>();
  let ids = 0;
  const newId = () => globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${++ids}`;

  /** The tray's view, after any queue changed; files that finish count towards `Uploading n of N`. */
  function summarise(finished: readonly { size: number }[] = []): void {
    const items: TrayItem[] = [];
    for (const { flow, lent, target } of entries.values()) {
      // The name a screen lent stays known after the screen is gone.
      const lentName = lent.screen.clientName();
      if (lentName) clientNames.set(key(target), lentName);
      for (const item of flow.getState().queue) {
        if (item.progress.status === 'done') continue;
        items.push({
          id: item.id,
          target,
          clientName: clientNames.get(key(target)),
          name: item.file.name,
          size: item.file.size,
          progress: item.progress,
          saved: item.saved,
          flow,
        });
      }
    }
    summary.setState((s) => {
      const done = s.finished + finished.length;
      const doneBytes = s.finishedBytes + finished.reduce((sum, f) => sum + f.size, 0);
      // All done and nothing left: the next batch counts from one again.
      return items.length === 0 ? { items, finished: 0, finishedBytes: 0 } : { items, finished: done, finishedBytes: doneBytes };
    });
  }

  function entryFor(target: UploadTarget) {
    const found = entries.get(key(target));
    if (found) return found;
    if (!asked) {
      asked = true;
      // The server's upload limit, asked once: until it answers the server alone refuses large files.
      api.config().then(
        ({ maxUploadBytes }) => (limit = maxUploadBytes),
        () => (asked = false),
      );
    }
    const lent = { screen: IDLE_SCREEN };
    const flow = createUploadFlow({
      api: apiFor(signedIn()),
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
      ...(uploadJournals ? { journal: journalOf(generation) } : {}),
      ...(connectivity ? { connectivity } : {}),
    });
    const stop = flow.subscribe((state, previous) => {
      const finished = state.queue.filter(
        (item) => item.progress.status === 'done' && previous.queue.find((p) => p.id === item.id)?.progress.status !== 'done',
      );
      summarise(finished.map((item) => item.file));
    });
    const created = { flow, lent, target, stop };
    entries.set(key(target), created);
    return created;
  }

  function clear(): void {
    generation += 1;
    // The next sign-in (the same person too) opens the journal afresh and is offered what it keeps.
    openedFor = null;
    opened = Promise.resolve(null);
    for (const entry of entries.values()) {
      entry.stop();
      entry.flow.dispose();
    }
    entries.clear();
    offer.setState(NO_OFFER);
    summarise();
  }

  /** Opens the person's kept files and offers those not already in a queue (kept through an expired session). */
  function openFor(person: string): void {
    if (!uploadJournals || openedFor === person) return;
    openedFor = person;
    opened = uploadJournals.open(person).catch(() => null);
    void opened.then((found) => {
      if (!found || openedFor !== person) return;
      const present = new Set(summary.getState().items.map((item) => item.id));
      const files = found.files.filter((kept) => !present.has(kept.entry.id));
      const lost = found.lost.filter((entry) => !present.has(entry.id));
      offer.setState({ files, lost, deletedForOthers: found.deletedForOthers });
    });
  }

  const queues: UploadQueues = {
    photos,
    queueFor: (target) => entryFor(target).flow,
    attach(target, screen) {
      const entry = entryFor(target);
      entry.lent.screen = screen;
      summarise();
      return () => {
        if (entry.lent.screen === screen) entry.lent.screen = IDLE_SCREEN;
      };
    },
    summary,
    offer,
    resume() {
      const { files } = offer.getState();
      offer.setState((s) => ({ ...s, files: [] }));
      const byTarget = new Map<string, KeptFile[]>();
      for (const kept of files) byTarget.set(key(kept.entry.target), [...(byTarget.get(key(kept.entry.target)) ?? []), kept]);
      for (const group of byTarget.values()) {
        const [first] = group;
        if (!first) continue;
        if (first.entry.clientName) clientNames.set(key(first.entry.target), first.entry.clientName);
        const { flow } = entryFor(first.entry.target);
        void flow.send({ type: 'restore', files: group }).then(() => flow.send({ type: 'upload' }));
      }
    },
    async discard() {
      const { files, lost } = offer.getState();
      offer.setState((s) => ({ ...s, files: [], lost: [] }));
      const journal = journalOf(generation);
      await Promise.all([...files.map((kept) => kept.entry), ...lost].map((entry) => journal.remove(entry.id).catch(() => undefined)));
    },
    chooseAgain(entry, file) {
      offer.setState((s) => ({ ...s, lost: s.lost.filter((e) => e.id !== entry.id) }));
      void journalOf(generation).remove(entry.id).catch(() => undefined);
      void entryFor(entry.target).flow.send({ type: 'add', files: [file] });
    },
    dismissDeleted() {
      offer.setState((s) => ({ ...s, deletedForOthers: 0 }));
    },
    async logout() {
      const { files, lost } = offer.getState();
      const waiting = summary.getState().items.length + files.length + lost.length; // items: none done
      if (waiting > 0 && !(await platform.confirm(logoutWithWaitingConfirm(waiting)))) return false;
      await session.send({ type: 'logout' });
      const signedOut = session.getState().status === 'signedOut';
      if (!signedOut) return false;
      clear();
      await uploadJournals?.destroy().catch(() => undefined);
      return true;
    },
  };
  return {
    queues,
    clear,
    openFor,
    dispose: () => {
      clear();
      photos.dispose();
    },
    /** Whether a reload would lose a file: one not kept on the device and not uploaded yet. */
    wouldLose: () => summary.getState().items.some((item) => !item.saved),
  };
}

/** Provides {@link UploadQueues} for the signed-in person (inside the session). */
export function UploadQueuesProvider({ children }: { children: ReactNode }) {
  const services = useServices();
  const session = useSession();
  const sessionFlow = useSessionFlow();
  const [holder] = useState(() => createUploadQueues(services, sessionFlow));

  // Whose queues these are: kept through an expired session, dropped for anyone else.
  const [owner, setOwner] = useState<string | null>(null);
  const person = session.status === 'signedIn' ? session.user.email : null;
  const keep = session.status === 'checking' || (session.status === 'signedOut' && session.expired);
  if (person !== owner && !(person === null && keep)) setOwner(person);
  // Before anything paints for the new owner: the old one's queues go, the new one's kept files open.
  const previous = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (previous.current !== null && previous.current !== owner) holder.clear();
    previous.current = owner;
    if (!owner) return;
    holder.openFor(owner);
    preloadUploadParts();
  }, [holder, owner]);
  useEffect(() => () => holder.dispose(), [holder]);
  // Reloading or closing the tab would lose files not kept on the device: the browser asks first.
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (holder.wouldLose()) event.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [holder]);
  return <UploadQueuesContext value={holder.queues}>{children}</UploadQueuesContext>;
}

/** The upload queues (inside `<AppProviders>`). */
export function useUploadQueues(): UploadQueues {
  const queues = use(UploadQueuesContext);
  if (!queues) throw new Error('useUploadQueues needs <AppProviders> above it.');
  return queues;
}
