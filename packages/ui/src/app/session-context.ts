import type { SessionFlow, SessionState } from '@vita-docs/core';
import { createContext, use } from 'react';
import { useFlow } from '../hooks/use-flow';

/**
 * The session flow `SessionProvider` (`session.tsx`) holds, apart from the provider so that what lives
 * below it (the upload queues, the header's parts) can read it without importing the provider back.
 */
export const SessionContext = createContext<SessionFlow | null>(null);

/** The session flow, to send `check`, `signedIn` or `logout`. */
export function useSessionFlow(): SessionFlow {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession needs a <SessionProvider> above it.');
  return session;
}

/** Who is signed in. */
export function useSession(): SessionState {
  return useFlow(useSessionFlow());
}
