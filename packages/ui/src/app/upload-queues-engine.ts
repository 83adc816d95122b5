/**
 * The upload queues (core's `createUploadQueues`, docs/behaviour.md#kept-uploads) on the browser's
 * ports, in a chunk of their own with the upload flow: the landing page never downloads them.
 * `upload-queues.tsx` loads this at sign-in and before any screen that queues files.
 */
import { createUploadQueues as createQueues } from '@vita-docs/core';
import type { SessionFlow, UploadQueuesEngine, UploadQueuesShared } from '@vita-docs/core';
import type { PhotoTools } from '../screens/documents/lazy-converter';
import { createWebLockClaims } from '../adapters/file-claims';
import type { AppServices } from './services';

/** What the queues share with the part of them that loads with the page (the header reads these from the start). */
export interface SharedParts extends UploadQueuesShared {
  photos: PhotoTools;
}

let ids = 0;
/** Unique across the pages of the browser (they share one journal); a counter where `randomUUID` is missing (http). */
const newId = () => globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${++ids}`;

/** The signed-in person's upload queues on the host's services: its IndexedDB journals and Web Locks. */
export function createUploadQueues(
  services: AppServices,
  session: SessionFlow,
  { photos, ...shared }: SharedParts,
): UploadQueuesEngine {
  const { api, platform, localStorage, clock, connectivity, uploadJournals, locks } = services;
  return createQueues(
    {
      api,
      putFile: platform.putFile,
      platform,
      photos,
      storage: localStorage,
      clock,
      newId,
      ...(connectivity ? { connectivity } : {}),
      ...(uploadJournals ? { journals: uploadJournals } : {}),
      ...(locks ? { claims: createWebLockClaims(locks) } : {}),
    },
    session,
    shared,
  );
}
