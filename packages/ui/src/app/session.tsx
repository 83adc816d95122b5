import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { createSessionFlow } from '@vita-docs/core';
import { useFlowInstance } from '../hooks/use-flow';
import { ServicesProvider, useServices } from './services';
import { SessionContext } from './session-context';
import { watchSession } from './session-watch';
import { UploadQueuesProvider } from './upload-queues';

/**
 * Holds who is signed in for the whole app; asks the server once when the app starts. Below it, the
 * API client reports a 401 on any signed-in call as the session's end (the screens then go to login
 * and come back), and the upload queues live for the signed-in person across screens.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const services = useServices();
  const { api, platform } = services;
  const session = useFlowInstance(() => createSessionFlow({ api, platform }));
  const [watched] = useState(() => ({ ...services, api: watchSession(api, () => void session.send({ type: 'expired' })) }));
  useEffect(() => {
    void session.send({ type: 'check' });
  }, [session]);
  return (
    <SessionContext value={session}>
      <ServicesProvider services={watched}>
        <UploadQueuesProvider>{children}</UploadQueuesProvider>
      </ServicesProvider>
    </SessionContext>
  );
}
