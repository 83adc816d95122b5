import { createContext, use, useEffect, useLayoutEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { createSessionFlow, messages } from '@vita-docs/core';
import type { SessionFlow, SessionState } from '@vita-docs/core';
import { useFlow, useFlowInstance } from '../hooks/use-flow';
import { clearFormDrafts } from './form-drafts';
import { ServicesProvider, useServices } from './services';
import { watchSession } from './session-watch';
import { UploadQueuesProvider } from './upload-queues';

const SessionContext = createContext<SessionFlow | null>(null);

/**
 * Holds who is signed in for the whole app; asks the server once when the app starts. Below it, the
 * API client reports a 401 on any signed-in call as the session's end (the screens then go to login
 * and come back), and the upload queues live for the signed-in person across screens.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const services = useServices();
  const { api, platform, rememberedUser } = services;
  const session = useFlowInstance(() =>
    createSessionFlow({ api, platform, ...(rememberedUser ? { remembered: rememberedUser } : {}) }),
  );
  const [watched] = useState(() => ({
    ...services,
    api: watchSession(api, (error) => void session.send({ type: 'expired', error })),
    platform: quietOnRoleChange(platform),
  }));
  // Asked in the first commit, before the screens' own effects ask the server for anything (effects
  // run child first): the answer decides the most, and its request should leave first.
  useLayoutEffect(() => {
    void session.send({ type: 'check' });
  }, [session]);
  // A sign-out (not a session that ended by itself) deletes the forms' kept drafts.
  useEffect(
    () =>
      session.subscribe((state) => {
        if (state.status === 'signedOut' && !state.expired) clearFormDrafts();
      }),
    [session],
  );
  return (
    <SessionContext value={session}>
      <ServicesProvider services={watched}>
        <UploadQueuesProvider session={session}>{children}</UploadQueuesProvider>
      </ServicesProvider>
    </SessionContext>
  );
}

/**
 * The platform with one alert fewer: a call refused because the person's role was changed ends the
 * session, and the login page the person is sent to says so; the screen that made the call alerting
 * the same sentence would say it twice. (The platform's own object stays the prototype: a host's
 * platform may keep state or methods on it.)
 */
function quietOnRoleChange<P extends { alert(message: string): void | Promise<void> }>(platform: P): P {
  return Object.assign(Object.create(platform) as P, {
    alert: (message: string) => (message === messages.roleChanged ? undefined : platform.alert(message)),
  });
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
