/**
 * What becomes of a file whose upload failed (docs/behaviour.md#automatic-retries): it waits for the
 * network, goes again by itself after a pause, waits for the person's Retry, or stays failed. An
 * option of the upload flow (`retry`), like Uppy's `shouldRetry`; {@link defaultRetryPolicy} is the
 * product's.
 */
import { isApiError } from '../../api/errors.js';

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

/**
 * Whether sending the file again could work. Not for too large (413), a refused type (415) or no
 * permission (403 from the API); a 403 from the file store is an expired URL, which a retry renews.
 */
function canRetry(error: unknown): boolean {
  if (!isApiError(error)) return true;
  if (error.status === 413 || error.status === 415) return false;
  return !(error.status === 403 && error.origin === 'api');
}

/**
 * Whether the failure is the server's or the way's, which time may fix by itself: a server error,
 * too many requests, a timeout, or an expired upload URL (the retry asks for a new one).
 */
function retriesByItself(error: unknown): boolean {
  if (!isApiError(error) || error.kind !== 'http') return false;
  const { status, origin } = error;
  return status >= 500 || status === 408 || status === 429 || (status === 403 && origin === 'storage');
}

/** The product's policy: no network waits; 5xx, 408, 429 and an expired URL go again by themselves. */
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
