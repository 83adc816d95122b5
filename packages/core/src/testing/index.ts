/**
 * Helpers for tests of code built on `@vita-docs/core`: a manual clock, in-memory ports, a fake
 * server typed as the real API client, and a cookie-keeping `fetch` for Node.
 */
export { createManualClock } from './clock.js';
export type { ManualClock } from './clock.js';
export {
  createMemoryStorage,
  createRecordingDialogs,
  createRecordingLogger,
  createManualConnectivity,
} from './ports.js';
export type { MemoryStorage, RecordingDialogs, RecordingLogger, ManualConnectivity } from './ports.js';
export { createMemoryClaims } from './claims.js';
export type { MemoryClaims, MemoryPageClaims } from './claims.js';
export { createMemoryJournals } from './journal.js';
export type { MemoryJournals } from './journal.js';
export { createFakeJournalKeys } from './journal-keys.js';
export type { FakeJournalKeys } from './journal-keys.js';
export { createCookieJarFetch } from './cookie-jar.js';
export type { CookieJarFetch, CookieJarFetchOptions } from './cookie-jar.js';
export { createFakeApi } from './fake-api.js';
export type { FakeApi, FakeCall, FakeWorld } from './fake-api.js';
export {
  recordStatuses,
  createTestFile,
  createTestUser,
  createTestAuditEntry,
  createDeferred,
} from './flow-helpers.js';
