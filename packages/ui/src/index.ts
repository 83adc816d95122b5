/**
 * `@vita-docs/ui`: the React screens of the VITA document collector. An app (web, desktop) builds
 * the {@link AppServices} for its platform, renders {@link AppRoutes} inside its router and
 * {@link AppProviders}, and that is all.
 */
export { AppRoutes } from './app/routes';
export { preloadScreen } from './app/lazy-screens';
export { BrowserRouter, HashRouter } from './app/router';
export { AppProviders } from './app/providers';
export { ServicesProvider, useServices, usePlatform } from './app/services';
export type { AppServices, AppConfig, Locks } from './app/services';
export { SessionProvider, useSession, useSessionFlow } from './app/session';
export { paths, loginFor, safeNext, nextQuery } from './app/paths';
export { useFlow, useFlowInstance } from './hooks/use-flow';
export type { Observable } from './hooks/use-flow';
export type { ExpandedDrop, InboxScanView, Platform, ScannerInbox, ScannerInboxSnapshot } from './platform';
export { createXhrPutFile } from './transport/xhr-put-file';
export { saveAsDownload } from './transport/save-download';
export { browserClock, browserConnectivity, DEFAULT_PROGRAMME_URL, readProgrammeUrl } from './host';
export { createIndexedDbJournals, UPLOAD_JOURNAL_DB } from './adapters/upload-journal';
export { createStoredRememberedUser } from './adapters/remembered-user';
export type { IndexedDbJournalsOptions } from './adapters/upload-journal';
export { PRODUCT_TITLE } from './texts';
