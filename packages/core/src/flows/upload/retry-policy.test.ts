// What the product retries, and when (docs/behaviour.md#automatic-retries): plain values, no ports.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import type { ErrorCode } from '../../api/errors.js';
import { defaultRetryPolicy } from './retry-policy.js';

const http = (status: number, origin: 'api' | 'storage' = 'api') =>
  new ApiError('http', status, `HTTP ${status}`, { origin });

describe('the default retry policy', () => {
  it('makes a file without network wait for the connection', () => {
    expect(defaultRetryPolicy.shouldRetry(new ApiError('network', 0, 'Failed to fetch'))).toBe('wait');
  });

  it('sends again by itself what time may fix: server errors, timeouts, too many requests, an expired URL', () => {
    for (const error of [http(500), http(503), http(408), http(429), http(403, 'storage')]) {
      expect(defaultRetryPolicy.shouldRetry(error)).toBe('auto');
    }
  });

  it('never retries what sending again cannot fix: too large, a refused type, the API’s 403', () => {
    for (const error of [http(413), http(415), http(403), http(413, 'storage')]) {
      expect(defaultRetryPolicy.shouldRetry(error)).toBe('never');
    }
  });

  it('leaves anything else to the person’s Retry: other refusals, an answer outside the contract, a thrown error', () => {
    const outsideContract = new ApiError('response', 200, 'The server answered something unexpected.');
    for (const error of [http(400), http(409), outsideContract, new Error('disk full'), 'odd']) {
      expect(defaultRetryPolicy.shouldRetry(error)).toBe('manual');
    }
  });

  it('branches on the error’s code, not its status: a proxy’s 400 saying `unavailable` waits, a 503 saying `too_large` never', () => {
    const coded = (status: number, code: ErrorCode, origin: 'api' | 'storage' = 'api') =>
      new ApiError('http', status, 'x', { code, origin });
    expect(defaultRetryPolicy.shouldRetry(coded(400, 'unavailable'))).toBe('auto');
    expect(defaultRetryPolicy.shouldRetry(coded(503, 'too_large'))).toBe('never');
    expect(defaultRetryPolicy.shouldRetry(coded(400, 'link_expired', 'storage'))).toBe('auto');
    expect(defaultRetryPolicy.shouldRetry(coded(403, 'not_signed_in'))).toBe('manual');
  });

  it('pauses 0 s, 3 s, 5 s, 10 s, 20 s, then 30 s for every later try', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((attempt) => defaultRetryPolicy.delayMs(attempt))).toEqual([
      0, 3_000, 5_000, 10_000, 20_000, 30_000, 30_000, 30_000,
    ]);
  });
});
