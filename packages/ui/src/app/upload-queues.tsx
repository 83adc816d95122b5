import { createStore, logoutWithWaitingConfirm, messages, NO_OFFER } from '@vita-docs/core';
import type { KeptOffer, QueuesSummary, SessionFlow, UploadQueueSet, UploadTarget } from '@vita-docs/core';
import { createContext, use, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { preloadUploadParts } from '../components/lazy-parts';
import { useFlow } from '../hooks/use-flow';
import { createLazyConverter } from '../screens/documents/lazy-converter';
import type { PhotoTools } from '../screens/documents/lazy-converter';
import { useServices } from './services';
import type { AppServices } from './services';
import { loadedUploadQueues, loadUploadQueues } from './upload-queues-loader';
import type * as EngineCode from './upload-queues-engine';

/** The upload queues of the signed-in person, one per client and category, and the photo tools. */
export interface UploadQueues extends UploadQueueSet {
  photos: PhotoTools;
  /**
   * Calls `listener` each time a file of a queue is stored on the server (with its queue's target),
   * so every screen showing that client's documents updates as uploads land; returns the unsubscribe.
   */
  onStored(listener: (target: UploadTarget) => void): () => void;
}

const UploadQueuesContext = createContext<UploadQueues | null>(null);

type Engine = ReturnType<typeof EngineCode.createUploadQueues>;

/**
 * The queues as the app holds them from its first render: the tray's summary and the offer (empty
 * until the queues' code runs), and everything else handed to the queues once their code is loaded.
 */
function createQueuesFacade(services: AppServices, session: SessionFlow) {
  const summary = createStore<QueuesSummary>({ items: [], finished: 0, finishedBytes: 0 });
  const offer = createStore<KeptOffer>(NO_OFFER);
  const photos = createLazyConverter(console);
  const storedListeners = new Set<(target: UploadTarget) => void>();
  const announceStored = (target: UploadTarget) => {
    for (const listener of [...storedListeners]) listener(target);
  };
  let engine: Engine | null = null;
  /** Whose kept files to open as soon as the queues' code runs. */
  let owner: string | null = null;
  const started = (): Engine => {
    if (!engine) {
      const code = loadedUploadQueues();
      if (!code)
        throw new Error('The upload queues were used before their code loaded (await loadUploadQueues()).');
      engine = code.createUploadQueues(services, session, { photos, summary, offer, announceStored });
      if (owner) void engine.openFor(owner);
    }
    return engine;
  };
  const queues: UploadQueues = {
    photos,
    summary,
    offer,
    onStored(listener) {
      storedListeners.add(listener);
      return () => storedListeners.delete(listener);
    },
    queueFor: (target) => started().queues.queueFor(target),
    attach: (target, screen) => started().queues.attach(target, screen),
    resume: () => started().queues.resume(),
    discard: () => started().queues.discard(),
    chooseAgain: (entry, file) => started().queues.chooseAgain(entry, file),
    dismissDeleted: () => offer.setState((s) => ({ ...s, deletedForOthers: 0 })),
    async logout() {
      if (engine || loadedUploadQueues()) return started().queues.logout();
      // Their code never loaded (offline since sign-in): nothing was queued on this page, but the
      // device may keep files from an earlier visit, which signing out deletes: asked first, as the
      // queues would (when they can be read).
      const journals = services.uploadJournals;
      const kept = journals && owner ? await journals.open(owner).catch(() => null) : undefined;
      const waiting = kept ? kept.files.length + kept.lost.length : 0;
      // Kept files that could not be read (no key from the server, no connection) may still be there.
      const unknown = kept === null || kept?.sealOnly === true;
      const question =
        waiting > 0 ? logoutWithWaitingConfirm(waiting) : unknown ? messages.logoutKeptUnknownConfirm : null;
      if (question !== null && !(await services.platform.confirm(question))) return false;
      await session.send({ type: 'logout' });
      if (session.getState().status !== 'signedOut') return false;
      await services.uploadJournals?.destroy().catch(() => undefined);
      return true;
    },
  };
  return {
    queues,
    clear: () => {
      owner = null;
      engine?.clear();
    },
    /** Opens the person's kept files: now if the queues' code is loaded, else when it is. */
    openFor: (person: string) => {
      owner = person;
      if (loadedUploadQueues()) void started().openFor(person);
    },
    dispose: () => {
      engine?.dispose();
      photos.dispose();
    },
    /** Whether a reload would lose a file: one not kept on the device and not uploaded yet. */
    wouldLose: () => engine?.wouldLose() ?? false,
  };
}

/**
 * Provides {@link UploadQueues} for the signed-in person; `SessionProvider` renders it with its session
 * flow (given, not read from the session's context: this module and `session.tsx` import one way only).
 */
export function UploadQueuesProvider({
  session: sessionFlow,
  children,
}: {
  session: SessionFlow;
  children: ReactNode;
}) {
  const services = useServices();
  const session = useFlow(sessionFlow);
  const [holder] = useState(() => createQueuesFacade(services, sessionFlow));

  // Whose queues these are: kept through an expired session, dropped for anyone else.
  const [owner, setOwner] = useState<string | null>(null);
  const person = session.status === 'signedIn' ? session.user.email : null;
  const keep = session.status === 'checking' || (session.status === 'signedOut' && session.expired);
  if (person !== owner && !(person === null && keep)) setOwner(person);
  // Taken on trust with no connection until the server vouches: then what the device kept opens.
  const live = session.status === 'signedIn' && !session.offline;
  // Before anything paints for the new owner: the old one's queues go, the new one's kept files open.
  const previous = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (previous.current !== null && previous.current !== owner) holder.clear();
    previous.current = owner;
    if (!owner) return;
    holder.openFor(owner);
    preloadUploadParts();
    let current = true;
    loadUploadQueues().then(
      () => current && holder.openFor(owner),
      () => undefined, // offline: the queues load with the first screen that needs them
    );
    return () => {
      current = false;
    };
  }, [holder, owner, live]);
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
