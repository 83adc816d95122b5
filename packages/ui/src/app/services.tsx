import { createContext, use } from 'react';
import type { ReactNode } from 'react';
import type {
  ApiClient,
  Clock,
  Connectivity,
  KeyValueStorage,
  RememberedUser,
  UploadJournals,
} from '@vita-docs/core';
import type { Platform } from '../platform';

/** Settings the host decides. */
export interface AppConfig {
  /** The programme's website, linked from the landing page. */
  programmeUrl: string;
}

/** Everything the screens receive from the composition root (apps/web, apps/desktop). */
export interface AppServices {
  api: ApiClient;
  platform: Platform;
  clock: Clock;
  /** Per-tab storage: the emails kept between the login and forgot-password pages. */
  sessionStorage: KeyValueStorage;
  /** Lasting storage: preferences such as convert-to-PDF (docs/behaviour.md#browser-storage). */
  localStorage: KeyValueStorage;
  config: AppConfig;
  /**
   * Where queued files are kept across reloads (docs/behaviour.md#kept-uploads): the browser's
   * IndexedDB (`createIndexedDbJournals`). Without it queues live in memory only.
   */
  uploadJournals?: UploadJournals;
  /** Tells when the network comes back, so files waiting for it go again (`browserConnectivity`). */
  connectivity?: Connectivity;
  /**
   * Who last signed in here (`createStoredRememberedUser`): with it, a page opened with no connection
   * shows their screens that work offline; without it, every screen says it needs a connection.
   */
  rememberedUser?: RememberedUser;
  /**
   * The browser's Web Locks (`navigator.locks`): a page holds a lock per file its queues hold
   * (`adapters/file-claims.ts`), so another page (a second tab) neither offers nor resumes it and a
   * file is not sent twice. Without it every page offers every kept file it does not hold itself.
   */
  locks?: Locks;
}

/** The part of the Web Locks API the upload queues use (`navigator.locks` is one). */
export interface Locks {
  request<T>(
    name: string,
    options: { ifAvailable: true },
    callback: (lock: Lock | null) => T | Promise<T>,
  ): Promise<T>;
  query(): Promise<LockManagerSnapshot>;
}

const ServicesContext = createContext<AppServices | null>(null);

/** Provides the services to every screen below it. */
export function ServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <ServicesContext value={services}>{children}</ServicesContext>;
}

/** The services given to {@link ServicesProvider}. */
export function useServices(): AppServices {
  const services = use(ServicesContext);
  if (!services) throw new Error('useServices needs a <ServicesProvider> above it.');
  return services;
}

/** The platform port (alert, confirm, …). */
export function usePlatform(): Platform {
  return useServices().platform;
}
