/**
 * A slow client for the reliability scenarios: one download read at a trickle with node:http, on a
 * connection of its own, so the server's socket really backs up (a phone on a bad network).
 */
import http from 'node:http';
import { sleep } from './harness.js';

/** How fast a slow reader takes what it downloads. */
export const SLOW_BYTES_PER_SECOND = 10 * 1024;
/** Reads per second of a slow reader (each a tenth of its per-second share). */
const READS_PER_SECOND = 10;

/** One ZIP download read at a trickle with node:http, so the server's socket really backs up. */
export interface SlowReader {
  /** Bytes taken so far. */
  received(): number;
  /** The status, once the answer's head arrived. */
  status(): number | undefined;
  /** The error the request ended with, if any (before it was aborted). */
  error(): Error | undefined;
  /** True when the archive ended before it was aborted (it should not, at this speed). */
  ended(): boolean;
  /** Hangs up. */
  abort(): void;
}

function slowReader(url: string, headers: Record<string, string>): SlowReader {
  let received = 0;
  let status: number | undefined;
  let failure: Error | undefined;
  let ended = false;
  let aborted = false;
  let timer: NodeJS.Timeout | undefined;
  // A connection of its own: nothing else shares it, and aborting it is what a phone going away does.
  const request = http.get(url, { headers, agent: false });
  request.on('response', (response) => {
    status = response.statusCode;
    // Paused, the response takes nothing beyond its small buffer, so the socket's receive window
    // fills and the server's writes back up: the server sees a slow reader, not a fast one.
    response.pause();
    response.on('end', () => (ended = true));
    response.on('close', () => clearInterval(timer));
    response.on('error', (err) => {
      if (!aborted) failure = err;
    });
    const share = SLOW_BYTES_PER_SECOND / READS_PER_SECOND;
    timer = setInterval(() => {
      let budget = share;
      while (budget > 0) {
        const chunk = response.read(Math.min(budget, response.readableLength || budget)) as Buffer | null;
        if (!chunk) break;
        received += chunk.length;
        budget -= chunk.length;
      }
    }, 1000 / READS_PER_SECOND);
  });
  request.on('error', (err) => {
    if (!aborted) failure = err;
  });
  return {
    received: () => received,
    status: () => status,
    error: () => failure,
    ended: () => ended,
    abort() {
      aborted = true;
      clearInterval(timer);
      request.destroy();
    },
  };
}

/** Starts `count` slow readers of `url` and waits until each receives (the archive started) or fails. */
export async function startReaders(
  count: number,
  url: string,
  headers: Record<string, string>,
): Promise<SlowReader[]> {
  const readers = Array.from({ length: count }, () => slowReader(url, headers));
  const started = Date.now();
  while (readers.some((r) => r.received() === 0 && !r.error()) && Date.now() - started < 30_000)
    await sleep(100);
  return readers;
}
