/**
 * What the reliability scenarios share: the production build (`node dist/main.js`) started as its
 * own process on a fresh DATA_DIR (killed or stopped like a real one), simulated volunteers that
 * drive it only over HTTP through core's typed client and a cookie jar each (signed in through the
 * real PIN + emailed-code flow, reading the code from the dev outbox), random PDFs with the SHA-256
 * the client recorded, and the one-row-per-scenario report.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  createApiClient,
  createFetchPutFile,
  uploadDocument,
  type ApiClient,
  type FileLike,
} from '@vita-docs/core';
import { createCookieJarFetch } from '@vita-docs/core/testing';

export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MB = 1024 * 1024;

/** The admin every scenario's server is started with. */
export const ADMIN = { email: 'admin@reliability.test', pin: 'reliable admin pin 1' } as const;
/** The PIN of every simulated volunteer. */
export const VOLUNTEER_PIN = 'reliable volunteer pin 1';
/** The storage key of every server of this run (restarts on a data directory need the same one). */
const STORAGE_KEY = randomBytes(32).toString('base64');

/** How a scenario runs: the full report form, or the short form the test suite runs. */
export interface ScenarioOptions {
  short: boolean;
  /** Progress lines (the report prints them; the tests stay quiet). */
  log: (line: string) => void;
}

/** One scenario: a file in `reliability/scenarios/` exporting `scenario`. */
export interface Scenario {
  name: string;
  run(options: ScenarioOptions): Promise<Row>;
}

/** One line of the report. */
export interface Row {
  scenario: string;
  /** What was done, with the numbers. */
  done: string;
  /** What held. */
  held: string;
  /** What broke; empty when nothing did. */
  broke: string;
}

/** A fresh, private data directory straight under the temp folder (the embedded PostgreSQL's own user must reach it). */
export async function freshDataDir(label: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `vita-rel-${label}-`));
  await fs.chmod(dir, 0o700);
  return dir;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A running `node dist/main.js`. */
export interface ServerProcess {
  readonly url: string;
  readonly dataDir: string;
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  log(): string;
  /** Whether it has exited, by itself or killed by a signal. */
  exited(): boolean;
  /** SIGTERM and wait (a clean stop). */
  stop(): Promise<void>;
  /** SIGKILL and wait: no shutdown code runs (its embedded PostgreSQL is left behind, as after a crash). */
  kill(): Promise<void>;
  /** Resident memory of the server process in MB. */
  rssMb(): Promise<number>;
  /**
   * What the server still holds after full collections (MB): the V8 heap in use, and memory outside
   * it held by array buffers and other external objects. Only for a server started with `memoryProbe`.
   */
  retainedMb(): Promise<RetainedMemory>;
}

/** {@link ServerProcess.retainedMb}: MB held after full collections. */
export interface RetainedMemory {
  heapUsed: number;
  /** Outside the V8 heap, as far as V8 is told: array buffers (Buffers) and other external memory. */
  external: number;
  /** The array buffers' part of {@link external}. */
  arrayBuffers: number;
  /** Heap in use and external together. */
  total: number;
  /** Of every HTTP response and socket the server has had, how many are still alive. */
  live: { responses: number; sockets: number };
}

export interface StartOptions {
  dataDir: string;
  env?: Record<string, string>;
  /** Port to listen on (a restart keeps its address so clients can carry on); a free one by default. */
  port?: number;
  /** Preload `memory-probe.mjs`, so {@link ServerProcess.retainedMb} can ask what the server holds. */
  memoryProbe?: boolean;
}

const memoryProbe = new URL('memory-probe.mjs', import.meta.url).href;

let probeRequests = 0;

/** Starts the production build and resolves once `/api/me` answers. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  // RELIABILITY_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops (to see where its time goes).
  const profile = process.env.RELIABILITY_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.RELIABILITY_CPU_PROF)}`]
    : [];
  const probe = options.memoryProbe ? ['--expose-gc', '--import', memoryProbe] : [];
  const child = spawn(process.execPath, [...profile, ...probe, 'dist/main.js'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PIN: ADMIN.pin,
      // Each simulated volunteer comes from its own address (X-Forwarded-For), as at real sites.
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'warn',
      STORAGE_KEY,
      ...(options.memoryProbe && { RELIABILITY_MEMORY_PROBE: '1' }),
      ...options.env,
    },
    stdio: options.memoryProbe ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited()) throw new Error(`the server exited before answering:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer within 60 s:\n${output}`);
    const res = await fetch(`${url}/api/me`).catch(() => null);
    if (res) {
      await res.body?.cancel();
      break;
    }
    await sleep(25);
  }
  const waitExit = (signal: NodeJS.Signals) => {
    if (exited()) return Promise.resolve();
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    return done;
  };
  return {
    url,
    dataDir: options.dataDir,
    child,
    log: () => output,
    exited,
    stop: () => waitExit('SIGTERM'),
    kill: () => waitExit('SIGKILL'),
    async rssMb() {
      const status = await fs.readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
      return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
    },
    retainedMb() {
      if (!options.memoryProbe)
        return Promise.reject(new Error('the server was started without the memory probe'));
      if (!child.connected || exited())
        return Promise.reject(new Error('the server is gone: it cannot say what it holds'));
      const id = (probeRequests += 1);
      return new Promise<RetainedMemory>((resolve, reject) => {
        const finish = (error: Error | null, held?: RetainedMemory) => {
          clearTimeout(timer);
          child.off('message', onMessage);
          child.off('exit', onExit);
          if (held) resolve(held);
          else reject(error ?? new Error('no answer from the memory probe'));
        };
        const timer = setTimeout(
          () => finish(new Error('the server did not say what it holds within 10 s')),
          10_000,
        );
        const onMessage = (message: unknown) => {
          const answer = message as {
            type?: unknown;
            id?: unknown;
            usage?: NodeJS.MemoryUsage;
            live?: RetainedMemory['live'];
          } | null;
          if (answer?.type !== 'memory' || answer.id !== id || !answer.usage || !answer.live) return;
          const { heapUsed, external, arrayBuffers } = answer.usage;
          const total = (heapUsed + external) / MB;
          finish(null, {
            heapUsed: heapUsed / MB,
            external: external / MB,
            arrayBuffers: arrayBuffers / MB,
            total,
            live: answer.live,
          });
        };
        const onExit = () => finish(new Error('the server exited before saying what it holds'));
        child.on('message', onMessage);
        child.once('exit', onExit);
        child.send({ type: 'memory', id }, (error) => {
          if (error) finish(error);
        });
      });
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The newest sign-in code mailed to `email` after the outbox held `after` mails. */
export async function latestCode(url: string, email: string, after = 0): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const res = await fetch(`${url}/api/dev/outbox`);
    const mails = (await res.json()) as Array<{ to: string; text: string }>;
    const text = mails
      .slice(after)
      .filter((mail) => mail.to === email && /\b\d{6}\b/.test(mail.text))
      .at(-1)?.text;
    const code = text ? /\b(\d{6})\b/.exec(text)?.[1] : undefined;
    if (code) return code;
    await sleep(50);
  }
  throw new Error(`no code was mailed to ${email}`);
}

export async function outboxLength(url: string): Promise<number> {
  const res = await fetch(`${url}/api/dev/outbox`);
  return ((await res.json()) as unknown[]).length;
}

let addresses = 0;

/** A browser: its own cookie jar and address, the typed API client on top. */
export interface Browser {
  readonly api: ApiClient;
  /** fetch with this browser's cookies and address (for URLs the API hands out, and raw requests). */
  readonly fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** Who signed in on it ('' for none). */
  readonly email: string;
  /** The address it comes from (sent as `X-Forwarded-For`). */
  readonly address: string;
  /** The Cookie header it sends to the server (for raw node:http requests on its session). */
  cookieHeader(): string;
}

/** A new browser for `url`, coming from its own address. */
export function openBrowser(url: string, email = ''): Browser {
  addresses += 1;
  const ip = `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
  const withAddress = (input: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', ip);
    return fetch(input, { ...init, headers });
  };
  const jar = createCookieJarFetch(withAddress, { pageUrl: url });
  return {
    api: createApiClient({ baseUrl: `${url}/api`, fetch: jar.fetch, getCookie: jar.getCookie }),
    fetch: jar.fetch,
    email,
    address: ip,
    cookieHeader: jar.cookieHeader,
  };
}

/**
 * Signs `email` in through PIN + emailed code on a new browser. The mail is read at `outbox` (a
 * server process itself: the outbox answers no request relayed by a proxy).
 */
export async function signIn(url: string, email: string, pin: string, outbox = url): Promise<Browser> {
  const browser = openBrowser(url, email);
  const before = await outboxLength(outbox);
  await browser.api.loginInit({ body: { email, pin } });
  await browser.api.loginVerify({ body: { email, code: await latestCode(outbox, email, before) } });
  return browser;
}

/** The admin, and `count` approved volunteers each signed in on its own browser. */
export async function setUpProgramme(
  url: string,
  count: number,
  outbox = url,
): Promise<{ admin: Browser; volunteers: Browser[] }> {
  const admin = await signIn(url, ADMIN.email, ADMIN.pin, outbox);
  const volunteers: Browser[] = [];
  for (let i = 0; i < count; i += 1) {
    const email = `volunteer${i}@reliability.test`;
    await openBrowser(url).api.register({
      body: { firstName: 'Vol', lastName: `Number ${i}`, email, pin: VOLUNTEER_PIN },
    });
    await admin.api.approveUser({ params: { email }, body: { approved: true } });
    volunteers.push(await signIn(url, email, VOLUNTEER_PIN, outbox));
  }
  return { admin, volunteers };
}

/** A new client of `browser`'s volunteer; returns its id. */
export async function newClient(browser: Browser, label: string): Promise<string> {
  const created = await browser.api.createClient({
    body: {
      firstName: 'Client',
      lastName: label,
      email: `${label.toLowerCase().replace(/[^a-z0-9]/g, '')}@client.test`,
      phone: '555 010 0100',
    },
  });
  return created.client.clientId;
}

/** A `size`-byte PDF: the `%PDF-1.7` line, then random bytes. */
export function randomPdf(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.write('%PDF-1.7\n', 0, 'latin1');
  return bytes;
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const asFile = (name: string, bytes: Buffer): FileLike => ({
  name,
  type: 'application/pdf',
  size: bytes.length,
  arrayBuffer: async () =>
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
});

/** Uploads as the app does (presign with size and SHA-256, PUT, complete); returns the key. */
export async function upload(
  browser: Browser,
  clientId: string,
  docType: string,
  name: string,
  bytes: Buffer,
): Promise<string> {
  return uploadDocument(
    browser.api,
    createFetchPutFile(browser.fetch),
    { clientId, docType },
    asFile(name, bytes),
  );
}

/** Reads a whole response body from a URL the API handed out. */
export async function download(browser: Browser, url: string): Promise<Buffer> {
  const res = await browser.fetch(url, { credentials: 'omit' });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Percentile of sorted-or-not numbers (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** Prints the rows as a Markdown table (the form `docs/reliability.md` keeps). */
export function formatTable(rows: readonly Row[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  return [
    '| Scenario | Done | Held | Broke |',
    '|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${cell(row.scenario)} | ${cell(row.done)} | ${cell(row.held)} | ${cell(row.broke) || 'nothing'} |`,
    ),
  ].join('\n');
}

/**
 * A direct connection to the embedded PostgreSQL of a running server's DATA_DIR, for checking what
 * the index holds after a scenario (its socket and port are in the cluster's postmaster.pid).
 */
export async function databaseOf(dataDir: string): Promise<pg.Client> {
  const pid = (await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n');
  const password = (await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
  const client = new pg.Client({
    host: pid[4],
    port: Number(pid[3]),
    user: 'vita',
    password,
    database: 'vita',
  });
  await client.connect();
  return client;
}

/**
 * Reaches "after the sweeper's grace period" without waiting an hour: ages pending rows and every
 * stored or temp file, then restarts the server on the same address, whose start sweeps.
 */
export async function sweepNow(server: ServerProcess): Promise<ServerProcess> {
  const db = await databaseOf(server.dataDir);
  try {
    await db.query(`UPDATE documents SET expires_at = now() - interval '1 day' WHERE state = 'pending'`);
  } finally {
    await db.end();
  }
  const files = path.join(server.dataDir, 'files');
  const old = new Date(Date.now() - 2 * 24 * 3600_000);
  for (const file of await filesUnder(files)) await fs.utimes(path.join(files, file), old, old);
  await server.stop();
  const next = await startServer({ dataDir: server.dataDir, port: Number(new URL(server.url).port) });
  await sleep(500);
  return next;
}

/** Every file under `dir` (recursively), as paths relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
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
