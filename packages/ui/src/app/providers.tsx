import type { ReactNode } from 'react';
import { ServicesProvider } from './services';
import type { AppServices } from './services';
import { SessionProvider } from './session';

/** What every screen needs above it: the injected services and the session. Put the router inside. */
export function AppProviders({ services, children }: { services: AppServices; children: ReactNode }) {
  return (
    <ServicesProvider services={services}>
      <SessionProvider>{children}</SessionProvider>
    </ServicesProvider>
  );
}
