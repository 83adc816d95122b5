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
   * Which kept files a page of this browser holds in its queues (`createWebLockClaims`): another page
   * (a second tab) neither offers nor resumes them, so a file is not sent twice. Without it every page
   * offers every kept file it does not hold itself.
   */
  fileClaims?: FileClaims;
}

/** Kept files claimed by the page whose queue holds them (docs/behaviour.md#kept-uploads). */
export interface FileClaims {
  /** Claims the file for this page: false when another page holds it. */
  claim(id: string): Promise<boolean>;
  /** Lets go of the file. */
  release(id: string): void;
  /** The files other pages hold now. */
  heldElsewhere(): Promise<ReadonlySet<string>>;
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
