/**
 * Process control for the reliability scenarios: the production build (`node dist/main.js`) started
 * as its own process on a fresh DATA_DIR, stopped or killed like a real one, restarted on the same
 * address, and its embedded PostgreSQL reached directly to check what the index holds.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '@vita-docs/test-server';
import pg from 'pg';

export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MB = 1024 * 1024;

/** The admin every scenario's server is started with. */
export const ADMIN = { email: 'admin@reliability.test', pin: 'reliable admin pin 1' } as const;
/** The PIN of every simulated volunteer. */
export const VOLUNTEER_PIN = 'reliable volunteer pin 1';
/**
 * The storage key of every server of this run (restarts on a data directory need the same one, and so
 * do `npm run backup` / `restore`, which authenticate a backup with a key derived from it).
 */
export const STORAGE_KEY = randomBytes(32).toString('base64');

/** `npm run backup|restore -- <folder>` as the production build runs it, with the server's environment. */
export function backupCommand(which: 'backup' | 'restore', folder: string, dataDir: string) {
  return promisify(execFile)(process.execPath, ['dist/backup/cli.js', which, folder], {
    cwd: serverDir,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', STORAGE_KEY },
  });
}

/** A fresh, private data directory straight under the temp folder (the embedded PostgreSQL's own user must reach it). */
export async function freshDataDir(label: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `vita-rel-${label}-`));
  await fs.chmod(dir, 0o700);
  return dir;
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
  // Generous: a start creates and starts a PostgreSQL cluster, slow on a loaded 2-core machine.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited()) throw new Error(`the server exited before answering:\n${output}`);
    if (Date.now() > deadline) {
      // Not left running behind the caller, who has no handle on it yet.
      child.kill('SIGKILL');
      throw new Error(`the server did not answer within 120 s:\n${output}`);
    }
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
  const next = await startServer({
    dataDir: server.dataDir,
    port: Number(new URL(server.url).port),
    env: { LOG_LEVEL: 'info' },
  });
  // The start's sweep says when it is done (a machine under load may take seconds).
  const deadline = Date.now() + 60_000;
  while (!/"job":"sweep".*"background job finished"/.test(next.log())) {
    if (next.exited()) throw new Error(`the server exited before its sweep finished:\n${next.log()}`);
    if (Date.now() > deadline) throw new Error('the sweep did not finish within 60 s of the start');
    await sleep(50);
  }
  return next;
}

/** Every file under `dir` (recursively), as paths relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}
