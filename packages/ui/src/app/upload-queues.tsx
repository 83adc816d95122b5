import { createUploadFlow } from '@vita-docs/core';
import type { UploadFlow, UploadTarget } from '@vita-docs/core';
import { createContext, use, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { createLazyConverter } from '../screens/documents/lazy-converter';
import type { PhotoTools } from '../screens/documents/lazy-converter';
import { useServices } from './services';
import { useSession } from './session';

/** What the category screen on display lends its queue: the list to refresh and the names it holds. */
export interface QueueScreen {
  refresh: () => unknown;
  uploadedNames: () => readonly string[];
}

/** The upload queues of the signed-in person, one per client and category, and the photo tools. */
export interface UploadQueues {
  photos: PhotoTools;
  /** The queue of a category: the same one each time the screen is opened again. */
  queueFor(target: UploadTarget): UploadFlow;
  /** The screen showing `target` lends its list; returns the function that takes it back. */
  attach(target: UploadTarget, screen: QueueScreen): () => void;
}

const UploadQueuesContext = createContext<UploadQueues | null>(null);

const IDLE_SCREEN: QueueScreen = { refresh: () => undefined, uploadedNames: () => [] };

/**
 * Keeps each category's upload queue alive while the person moves between screens: files go on
 * uploading, and a queue left by a screen (or by a session that expired and was signed into again)
 * is there when the screen opens again. The queues belong to one person: a sign-out or another
 * person signing in drops them.
 */
export function UploadQueuesProvider({ children }: { children: ReactNode }) {
  const { api, platform, localStorage } = useServices();
  const session = useSession();
  const [queues] = useState(() => {
    const photos = createLazyConverter(console);
    const entries = new Map<string, { flow: UploadFlow; lent: { screen: QueueScreen } }>();
    let limit: number | null = null;
    let asked = false;
    const key = (t: UploadTarget) => JSON.stringify([t.clientId, t.docType]);
    const entryFor = (target: UploadTarget) => {
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
        api,
        putFile: platform.putFile,
        convert: photos.convert,
        inspect: photos.inspect,
        storage: localStorage,
        platform,
        target,
        refresh: () => lent.screen.refresh(),
        uploadedNames: () => lent.screen.uploadedNames(),
        maxUploadBytes: () => limit,
      });
      const created = { flow, lent };
      entries.set(key(target), created);
      return created;
    };
    return {
      photos,
      queueFor: (target: UploadTarget) => entryFor(target).flow,
      attach(target: UploadTarget, screen: QueueScreen) {
        const entry = entryFor(target);
        entry.lent.screen = screen;
        return () => {
          if (entry.lent.screen === screen) entry.lent.screen = IDLE_SCREEN;
        };
      },
      clear: () => entries.clear(),
      dispose: () => photos.dispose(),
      /** Files in any queue that are not stored yet. */
      waiting: () =>
        [...entries.values()].reduce(
          (count, { flow }) => count + flow.getState().queue.filter((item) => item.progress.status !== 'done').length,
          0,
        ),
    };
  });

  // Whose queues these are: kept through an expired session, dropped for anyone else or a sign-out.
  const [owner, setOwner] = useState<string | null>(null);
  const person = session.status === 'signedIn' ? session.user.email : null;
  const keep = session.status === 'checking' || (session.status === 'signedOut' && session.expired);
  if (person !== owner && !(person === null && keep)) {
    if (owner !== null) queues.clear();
    setOwner(person);
  }
  useEffect(() => () => queues.dispose(), [queues]);
  // Reloading or closing the tab would lose files not stored yet: the browser asks first.
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (queues.waiting() > 0) event.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [queues]);
  return <UploadQueuesContext value={queues}>{children}</UploadQueuesContext>;
}

/** The upload queues (inside `<AppProviders>`). */
export function useUploadQueues(): UploadQueues {
  const queues = use(UploadQueuesContext);
  if (!queues) throw new Error('useUploadQueues needs <AppProviders> above it.');
  return queues;
}
