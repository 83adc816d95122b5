/**
 * Load recording for the scenarios that put the server under load: latencies by family and
 * endpoint, errors grouped, the server's resident memory over time, and CPU time of the server,
 * its PostgreSQL and the whole machine.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ServerProcess } from './server-process.js';

/** Percentile of sorted-or-not numbers (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** What an error under load is grouped by: the status (or `network`/`timeout`), the endpoint and the message. */
function errorKey(endpoint: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // fetch rejects with the TimeoutError itself; node:http with an AbortError whose cause it is.
  const timedOut =
    error instanceof Error &&
    [error.name, error.cause instanceof Error ? error.cause.name : ''].includes('TimeoutError');
  const status = timedOut
    ? 'timeout'
    : error instanceof Error && 'status' in error && typeof error.status === 'number' && error.status > 0
      ? String(error.status)
      : 'network';
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${status} ${endpoint}: ${message.slice(0, 160)}${cause}`;
}

/** Latencies by family and by endpoint, and errors grouped, for scenarios that put the server under load. */
export interface Recorder {
  /** Runs `work` as one request of `endpoint` in `family`: its time is kept when it succeeds, its error counted and rethrown otherwise. */
  time<T>(family: string, endpoint: string, work: () => Promise<T>): Promise<T>;
  /** Milliseconds of the successful requests of each family. */
  readonly families: Map<string, number[]>;
  readonly endpoints: Map<string, number[]>;
  /** Error descriptions (see {@link errorKey}) with their counts. */
  readonly errors: Map<string, number>;
  /** Requests made, failed ones included. */
  requests(): number;
  errorCount(): number;
}

export function createRecorder(): Recorder {
  const families = new Map<string, number[]>();
  const endpoints = new Map<string, number[]>();
  const errors = new Map<string, number>();
  let requests = 0;
  const push = (map: Map<string, number[]>, key: string, ms: number) => {
    const list = map.get(key);
    if (list) list.push(ms);
    else map.set(key, [ms]);
  };
  return {
    families,
    endpoints,
    errors,
    requests: () => requests,
    errorCount: () => [...errors.values()].reduce((sum, n) => sum + n, 0),
    async time(family, endpoint, work) {
      requests += 1;
      const began = performance.now();
      try {
        const result = await work();
        const ms = performance.now() - began;
        push(families, family, ms);
        push(endpoints, endpoint, ms);
        return result;
      } catch (error) {
        const key = errorKey(endpoint, error);
        errors.set(key, (errors.get(key) ?? 0) + 1);
        throw error;
      }
    },
  };
}

/** "p50 3 / p95 9 / p99 21 ms" of a list of milliseconds. */
export function latencySummary(values: readonly number[]): string {
  const at = (p: number) => {
    const ms = percentile(values, p);
    return ms < 10 ? ms.toFixed(1) : ms.toFixed(0);
  };
  return `p50 ${at(50)} / p95 ${at(95)} / p99 ${at(99)} ms`;
}

/** The errors of a recorder as "count × description" lines, most frequent first. */
export function errorLines(recorder: Recorder): string[] {
  return [...recorder.errors.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([key, count]) => `${count} × ${key}`);
}

/** A server's resident memory sampled every `everyMs` until `stop`. */
export interface RssWatch {
  readonly before: number;
  peak(): number;
  /** Stops sampling; `after` is one last sample. */
  stop(): Promise<{ before: number; peak: number; after: number }>;
}

export async function watchRss(server: ServerProcess, everyMs = 500): Promise<RssWatch> {
  const before = await server.rssMb();
  let peak = before;
  const timer = setInterval(() => {
    void server.rssMb().then((mb) => (peak = Math.max(peak, mb)));
  }, everyMs);
  return {
    before,
    peak: () => peak,
    async stop() {
      clearInterval(timer);
      const after = await server.rssMb();
      peak = Math.max(peak, after);
      return { before, peak, after };
    },
  };
}

/**
 * CPU time (user + system, in seconds) process `pid` has used so far; 0 once it is gone. With
 * `reaped`, also that of its children that have ended (and been waited for).
 */
export async function cpuSeconds(pid: number, options: { reaped?: boolean } = {}): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  const children = options.reaped ? Number(fields[13] ?? 0) + Number(fields[14] ?? 0) : 0;
  return (own + children) / 100;
}

/**
 * CPU time (seconds) used so far by the embedded PostgreSQL of `dataDir`: its postmaster, every live
 * child, and the children that have ended (a backend whose pooled connection closed while idle).
 */
export async function postgresCpuSeconds(dataDir: string): Promise<number> {
  const pidFile = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '');
  const postmaster = Number.parseInt(pidFile.split('\n')[0] ?? '', 10);
  if (!Number.isInteger(postmaster)) return 0;
  let total = await cpuSeconds(postmaster, { reaped: true });
  for (const entry of await fs.readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === postmaster) total += await cpuSeconds(Number(entry));
  }
  return total;
}

/** CPU time (seconds, all cores together) the whole machine has been busy so far: everyone's work, not only the scenario's. */
export async function machineCpuSeconds(): Promise<number> {
  const line = (await fs.readFile('/proc/stat', 'utf8').catch(() => '')).split('\n')[0] ?? '';
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) / 100;
}
