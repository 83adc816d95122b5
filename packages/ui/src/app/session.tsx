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
    platform: quietOnSessionEnd(platform, session),
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
 * The platform without the alerts the login page already says: a call refused because the person's
 * role was changed, or because the session ended under the screen, ends the session and sends the
 * person to the login page, which says why; the screen that made the call alerting it would say it
 * twice. (A call sent after the first refusal dropped the session's cookie is answered `Please sign
 * in.`, not the role change.) The platform's own object stays the prototype: a host's platform may
 * keep state or methods on it.
 *
 * @internal Exported for its tests.
 */
export function quietOnSessionEnd<P extends { alert(message: string): void | Promise<void> }>(
  platform: P,
  session: Pick<SessionFlow, 'getState'>,
): P {
  const ended = () => {
    const state = session.getState();
    return state.status === 'signedOut' && (state.expired === true || state.reason === 'role_changed');
  };
  return Object.assign(Object.create(platform) as P, {
    alert: (message: string) =>
      message === messages.roleChanged || (message === messages.pleaseSignIn && ended())
        ? undefined
        : platform.alert(message),
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
