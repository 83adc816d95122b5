/**
 * What the device read from the documents of this page, kept in the page only (never stored or
 * sent): each queued file's verdict by its queue id, and by the SHA-256 of the bytes it uploads so
 * the Uploaded row of the same file says it too. An ID's expiry is the only thing from an ID held.
 */
import type { FileLike, ReadingVerdict } from '@vita-docs/core';
import { useSyncExternalStore } from 'react';

const byId = new Map<string, ReadingVerdict | null>();
const shaOfId = new Map<string, string>();
const dismissed = new Set<string>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version += 1;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Re-renders on every change of the readings. */
function useReadingsVersion(): number {
  const read = () => version;
  return useSyncExternalStore(subscribe, read, read);
}

/** The verdict on a queued file, unless dismissed. */
export function useQueuedVerdict(id: string): ReadingVerdict | undefined {
  useReadingsVersion();
  return dismissed.has(id) ? undefined : (byId.get(id) ?? undefined);
}

/** The verdict on an uploaded file, by the SHA-256 of its bytes, unless dismissed. */
export function useUploadedVerdict(sha256: string | undefined): ReadingVerdict | undefined {
  useReadingsVersion();
  if (!sha256) return undefined;
  for (const [id, sha] of shaOfId) {
    if (sha !== sha256 || dismissed.has(id)) continue;
    const verdict = byId.get(id);
    if (verdict) return verdict;
  }
  return undefined;
}

/** `Keep here` (or a move done): the file's verdict is not said again. */
export function dismissVerdict(idOrSha: string): void {
  dismissed.add(idOrSha);
  for (const [id, sha] of shaOfId) if (sha === idOrSha) dismissed.add(id);
  changed();
}

async function sha256Hex(file: FileLike): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Marks a queued file as being read; false when it was already (each file is read once). */
export function startReading(id: string): boolean {
  if (byId.has(id)) return false;
  byId.set(id, null);
  return true;
}

/** The verdict on a queued file once read (null: nothing to say). */
export function recordVerdict(id: string, verdict: ReadingVerdict | null): void {
  byId.set(id, verdict);
  changed();
}

/** Remembers the SHA-256 of what a queued file uploads (the PDF made of a photo), for its Uploaded row. */
export function noteUploadedBytes(id: string, file: FileLike): void {
  if (shaOfId.has(id)) return;
  shaOfId.set(id, '');
  void sha256Hex(file).then((sha) => {
    shaOfId.set(id, sha);
    changed();
  });
}
