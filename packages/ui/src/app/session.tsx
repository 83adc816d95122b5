import { createContext, use, useEffect } from 'react';
import type { ReactNode } from 'react';
import { createSessionFlow } from '../adapters/session';
import type { SessionFlow, SessionState } from '../adapters/session';
import { useFlow, useFlowInstance } from '../hooks/use-flow';
import { useServices } from './services';

const SessionContext = createContext<SessionFlow | null>(null);

/** Holds who is signed in for the whole app; asks the server once when the app starts. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const { api, platform } = useServices();
  const session = useFlowInstance(() => createSessionFlow({ api, platform }));
  useEffect(() => {
    void session.send({ type: 'check' });
  }, [session]);
  return <SessionContext value={session}>{children}</SessionContext>;
}

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
