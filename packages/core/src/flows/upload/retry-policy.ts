/**
 * What becomes of a file whose upload failed (docs/behaviour.md#automatic-retries): it waits for the
 * network, goes again by itself after a pause, waits for the person's Retry, or stays failed. An
 * option of the upload flow (`retry`), like Uppy's `shouldRetry`; {@link defaultRetryPolicy} is the
 * product's.
 */
import { isApiError } from '../../api/errors.js';
import type { ErrorCode } from '../../api/errors.js';

/**
 * - `wait`: no network; it goes again by itself when the connection is back.
 * - `auto`: the server's or the way's failure, which time may fix: it goes again by itself after a
 *   pause (when the flow has a clock), and Retry may send it now.
 * - `manual`: only Retry sends it again.
 * - `never`: sending it again cannot help; no Retry.
 */
export type RetryDecision = 'wait' | 'auto' | 'manual' | 'never';

export interface RetryPolicy {
  /** What becomes of a file whose upload failed with `error`. */
  shouldRetry(error: unknown): RetryDecision;
  /** The pause (ms) before a file goes again by itself, after `attempt` automatic tries of it. */
  delayMs(attempt: number): number;
}

/** Seconds before each automatic retry of a file; the last repeats. */
export const RETRY_DELAYS_SECONDS: readonly number[] = [0, 3, 5, 10, 20, 30];

/** Refusals sending again cannot change: the file is too large or of a refused type. */
const NEVER: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['too_large', 'unsupported_type']);

/** The server's or the way's failures, which time may fix by itself. */
const BY_ITSELF: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'internal',
  'unavailable',
  'storage_full',
  'timeout',
  'rate_limited',
]);

/**
 * A refused link from the file store (`link_expired`, `link_invalid`, or S3's bare 403, read as
 * `forbidden`): the URL expired or no longer matches, and a retry asks for a new one.
 */
const STORE_LINK: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['link_expired', 'link_invalid', 'forbidden']);

/**
 * Whether sending the file again could work. Not for too large, a refused type or no permission
 * (`forbidden` from the API); a refused link from the file store is renewed by the retry. Branches
 * on the error's `code` (never its status or words: docs/architecture.md).
 */
function canRetry(error: unknown): boolean {
  if (!isApiError(error) || error.code === null) return true;
  if (NEVER.has(error.code)) return false;
  return !(error.code === 'forbidden' && error.origin === 'api');
}

/**
 * Whether the failure is the server's or the way's, which time may fix by itself: a server error,
 * too many requests, a timeout, or an expired upload URL (the retry asks for a new one).
 */
function retriesByItself(error: unknown): boolean {
  if (!isApiError(error) || error.kind !== 'http' || error.code === null) return false;
  return BY_ITSELF.has(error.code) || (error.origin === 'storage' && STORE_LINK.has(error.code));
}

/** The product's policy: no network waits; server errors, timeouts, too many requests and an expired URL go again by themselves. */
export const defaultRetryPolicy: RetryPolicy = {
  shouldRetry(error) {
    if (isApiError(error) && error.kind === 'network') return 'wait';
    if (retriesByItself(error)) return 'auto';
    return canRetry(error) ? 'manual' : 'never';
  },
  delayMs(attempt) {
    const last = RETRY_DELAYS_SECONDS.length - 1;
    return (RETRY_DELAYS_SECONDS[Math.min(attempt, last)] ?? 30) * 1000;
  },
};
