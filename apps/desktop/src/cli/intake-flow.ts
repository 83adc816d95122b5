/**
 * Core's upload queue as the headless intake drives it: kept by the intake itself (no journal, the
 * inbox ledger is the record), failures told per file rather than as dialogs, and what a queue
 * item's progress means for the report line.
 */
import { createUploadFlow } from '@vita-docs/core';
import type { Clock, FileProgress, UploadFlow } from '@vita-docs/core';
import type { IntakeOptions } from './uploader.js';

/** The real clock, for the queue's automatic retries. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** What a failed or waiting file says, for the report line. */
export function failure(
  progress: FileProgress,
  now: number,
): { error: string; retryInMs: number | null } | null {
  if (progress.status === 'waiting')
    return { error: 'cannot reach the server; waiting for it', retryInMs: null };
  if (progress.status !== 'failed') return null;
  return {
    error: progress.error,
    retryInMs: progress.retryAt === undefined ? null : Math.max(0, progress.retryAt - now),
  };
}

/** Core's upload queue for the host: kept by the host (no journal), failures reported per file, not as dialogs. */
export function createHostFlow(options: IntakeOptions, clock: Clock): UploadFlow {
  let ids = 0;
  const memory = new Map<string, string>();
  const flow = createUploadFlow({
    api: options.api,
    putFile: options.putFile,
    convert: options.convert ?? (async (file) => file),
    storage: {
      getItem: (key) => memory.get(key) ?? null,
      setItem: (key, value) => void memory.set(key, value),
      removeItem: (key) => void memory.delete(key),
    },
    platform: { alert: () => undefined },
    target: options.target,
    refresh: () => undefined,
    clock,
    newId: () => `scan-item-${++ids}`,
  });
  void flow.send({ type: 'setConvertToPdf', enabled: options.convert !== undefined });
  return flow;
}

/** Resolves once no file of the queue is being sent. */
export function nothingUploading(flow: UploadFlow): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = () => !flow.getState().queue.some((item) => item.progress.status === 'uploading');
    if (check()) return resolve();
    const off = flow.subscribe(() => {
      if (!check()) return;
      off();
      resolve();
    });
  });
}
