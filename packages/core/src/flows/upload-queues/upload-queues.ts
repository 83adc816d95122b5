/**
 * The upload queues of the signed-in person (docs/behaviour.md#kept-uploads): each category's queue
 * stays alive while the person moves between screens; with the host's journals every queued file is
 * also kept on the device, and with its claims two pages of one browser never send a file twice.
 * Headless: the host gives the ports (the browser's IndexedDB journals and Web Locks in the web app,
 * in-memory ones in tests) and renders the summary and the offer.
 */
import { logoutWithWaitingConfirm, messages } from '../../domain/messages.js';
import type { SessionFlow } from '../session/session.js';
import type { OpenedJournal, UploadJournal } from '../upload/journal.js';
import { createClaimSync } from './claims.js';
import type { ClaimSync } from './claims.js';
import {
  apiFor,
  createQueueSet,
  IDLE_SCREEN,
  isOffline,
  offerOf,
  pendingFiles,
  pendingIds,
  resumeClaimed,
} from './queue-set.js';
import type { QueueSet } from './queue-set.js';
import { NO_OFFER } from './types.js';
import type { UploadQueueSet, UploadQueuesPorts, UploadQueuesShared } from './types.js';

interface QueuesApiParts {
  ports: UploadQueuesPorts;
  session: SessionFlow;
  shared: UploadQueuesShared;
  set: QueueSet;
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

/** The {@link UploadQueueSet} the screens use. */
function queuesApi({
  ports,
  session,
  shared,
  set,
  journal,
  keptKnown,
  claims,
  clear,
}: QueuesApiParts): UploadQueueSet {
  const { summary, offer } = shared;
  return {
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
      void resumeClaimed(files, claims, set);
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
      if (question !== null && !(await ports.platform.confirm(question))) return false;
      await session.send({ type: 'logout' });
      const signedOut = session.getState().status === 'signedOut';
      if (!signedOut) return false;
      clear();
      await ports.journals?.destroy().catch(() => undefined);
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
  set: Pick<QueueSet, 'resumeAfterSignIn'>,
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

/** The queues and what their host does with them: who they belong to, and whether a reload would lose a file. */
export interface UploadQueuesEngine {
  /** What the screens use. */
  queues: UploadQueueSet;
  /** Drops the queues of the person who was signed in (a sign-out, someone else signing in). */
  clear(): void;
  /** Opens `person`'s kept files and offers them; resolves once offered. */
  openFor(person: string): Promise<void>;
  dispose(): void;
  /** Whether a reload would lose a file: one not kept on the device and not uploaded yet. */
  wouldLose(): boolean;
}

/** Where the signed-in person's journal stands on this page. */
interface Opening {
  /** The signed-in person's journal once opened (null: none, or not opened yet). */
  opened: Promise<OpenedJournal | null>;
  openedFor: string | null;
  /** The last open failed (its key comes from the server, which may not have answered): the next use tries again. */
  openFailed: boolean;
  /** The last open had no connection: it seals, but read nothing kept; opened again once the session is live. */
  openedSealOnly: boolean;
  /** The last open and the offer made from it: what a sign-out waits for before it decides to ask. */
  offering: Promise<void>;
  /** Files this page's queues let go of (uploaded, removed): an open under way may still read them. */
  forgotten: Set<string>;
  /**
   * Whose queues these are, counted: `clear` (another person, a sign-out) starts a new generation.
   * A queue of an older generation — a conversion still finishing after the person changed — can
   * never write into the new person's journal.
   */
  generation: number;
}

/** The journal the queues of generation `mine` write to; a save after a failed or seal-only open opens it again. */
function journalFor(kept: Opening, mine: number, reopen: (person: string) => void): UploadJournal {
  return {
    save: async (entry, file, bytes) => {
      if (mine === kept.generation && (kept.openFailed || kept.openedSealOnly) && kept.openedFor !== null)
        reopen(kept.openedFor);
      const current = mine === kept.generation ? await kept.opened : null;
      if (!current || mine !== kept.generation) throw new Error('Nothing is kept on this device.');
      return current.journal.save(entry, file, bytes);
    },
    remove: async (id) => {
      kept.forgotten.add(id);
      const current = mine === kept.generation ? await kept.opened : null;
      if (current && mine === kept.generation) await current.journal.remove(id);
    },
  };
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
export function createUploadQueues(
  ports: UploadQueuesPorts,
  session: SessionFlow,
  shared: UploadQueuesShared,
): UploadQueuesEngine {
  const { journals: uploadJournals } = ports;
  const { summary, offer } = shared;
  const signedIn = () => signedInAs(session);
  const kept: Opening = {
    opened: Promise.resolve(null),
    openedFor: null,
    openFailed: false,
    openedSealOnly: false,
    offering: Promise.resolve(),
    forgotten: new Set(),
    generation: 0,
  };
  const journalOf = (mine: number) => journalFor(kept, mine, (person) => void openFor(person));
  const claims = createClaimSync(ports.claims);
  const set = createQueueSet(ports, {
    ...shared,
    claims,
    api: () => apiFor(ports.api, signedIn, signedIn(), () => isOffline(session)),
    journal: () => (uploadJournals ? journalOf(kept.generation) : undefined),
  });

  const stopWatch = resumeWhenBack(session, signedIn, set);
  const journal = () => journalOf(kept.generation);

  function clear(): void {
    kept.generation += 1;
    // The next sign-in (the same person too) opens the journal afresh and is offered what it keeps.
    kept.openedFor = null;
    kept.openFailed = false;
    kept.openedSealOnly = false;
    kept.forgotten.clear();
    kept.opened = Promise.resolve(null);
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
    if (!uploadJournals || (kept.openedFor === person && !kept.openFailed && !(kept.openedSealOnly && live)))
      return kept.offering;
    const wasSealOnly = kept.openedSealOnly;
    kept.openedFor = person;
    kept.openFailed = false;
    kept.openedSealOnly = !live;
    const mine = kept.generation;
    kept.opened = uploadJournals.open(person).catch(() => {
      if (mine === kept.generation) kept.openFailed = true;
      return null;
    });
    return (kept.offering = kept.opened.then(async (found) => {
      if (!found || kept.openedFor !== person) return;
      if (found.sealOnly) kept.openedSealOnly = true;
      else if (wasSealOnly) keepAgain(found.journal, pendingFiles(set.each()), kept.forgotten);
      const offered = await offerOf(found, set.each(), kept.forgotten, claims);
      if (kept.openedFor !== person || mine !== kept.generation) return;
      // Kept while this page had no connection and the same session is live again: what the page
      // promised (they upload when the connection returns) happens without asking. Files kept
      // through a session that ended are offered instead (a sign-out or another person clears first).
      const promised = wasSealOnly && !found.sealOnly;
      offer.setState(promised ? { ...offered, files: [] } : offered);
      if (promised) void resumeClaimed(offered.files, claims, set);
    }));
  }

  /** See {@link QueuesApiParts.keptKnown}: opens (again) a journal not open, waits for one opening. */
  async function keptKnown(person = signedIn()): Promise<boolean> {
    if (!uploadJournals || person === null) return !uploadJournals;
    await openFor(person).catch(() => undefined);
    return kept.openedFor === person && !kept.openFailed && !kept.openedSealOnly;
  }

  return {
    queues: queuesApi({ ports, session, shared, set, journal, keptKnown, claims, clear }),
    clear,
    openFor,
    dispose: () => [stopWatch, clear].forEach((stop) => stop()),
    wouldLose: () => summary.getState().items.some((item) => !item.saved),
  };
}
