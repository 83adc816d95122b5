import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findBinaries, type PostgresBinaries } from './binaries.js';
import { lockDataDir } from './lock.js';
import { clusterOwner, ensureReachable } from './owner.js';
import { commandLine, isAlive, run, tail, type RunAs } from './process.js';

interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(obj: object, message: string): void;
}

export interface EmbeddedPostgresOptions {
  /** The server's DATA_DIR: the cluster lives in `postgres/` inside it. */
  dataDir: string;
  log: Log;
  /**
   * false trades crash safety for speed (fsync off): only for throw-away test clusters. A
   * programme's data always runs durable.
   */
  durable?: boolean;
}

export interface EmbeddedPostgres {
  /** Connection settings for `pg` (Unix socket inside the data directory; loopback TCP on Windows). */
  connection(database?: string): pg.ClientConfig;
  /** The same as a `postgresql://` URL (socket directory in `?host=`). */
  connectionString(database?: string): string;
  /** Fast shutdown (clients disconnected, data flushed), then the data directory is released. */
  stop(): Promise<void>;
}

const USER = 'vita';
const DATABASE = 'vita';
const WINDOWS = process.platform === 'win32';
/** A Unix socket path must fit `sockaddr_un` (104 bytes on macOS, 108 on Linux). */
const MAX_SOCKET_PATH = 100;
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/**
 * Runs the server's own PostgreSQL: initialises the cluster on first start, recovers from a
 * previous server that was killed (an orphaned postmaster or a stale pid file), starts it on a
 * private socket, and forwards its FATAL/PANIC lines into the server log.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { dataDir, log } = options;
  const durable = options.durable ?? true;
  const binaries = await findBinaries();
  const owner = await clusterOwner(log);
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  await ensureReachable(dataDir, owner);
  await warnAboutPglite(dataDir, log);
  const lock = await lockDataDir(dataDir);
  const cluster = path.join(dataDir, 'postgres');
  const logFile = path.join(dataDir, 'postgres.log');
  const passwordFile = path.join(dataDir, 'postgres.password');
  let started = false;
  try {
    if (!(await exists(path.join(cluster, 'PG_VERSION')))) {
      log.info(`Creating the embedded PostgreSQL database in ${cluster}`);
      await initialise(binaries, cluster, passwordFile, owner, durable);
    }
    const password = await fs.readFile(passwordFile, 'utf8').then(
      (text) => text.trim(),
      () => {
        throw new Error(
          `${passwordFile} is missing, so the server cannot sign in to its database in ${cluster}. Restore the ` +
            'file from a backup of the data directory.',
        );
      },
    );
    const socketDir = WINDOWS ? undefined : await socketDirectory(cluster, owner);
    const port = WINDOWS ? await freePort() : 5432;
    await writeSettings(cluster, { socketDir, port, durable }, owner);
    await stopOrphan(binaries, cluster, owner, log);
    const logStart = await prepareLog(logFile, owner);
    const result = await run(
      binaries.pgCtl,
      ['start', '-w', '-t', '60', '-s', '-D', cluster, '-l', logFile],
      owner,
    );
    if (result.code !== 0) {
      throw new Error(
        `The embedded PostgreSQL did not start (${result.stderr.trim() || `pg_ctl exited with ${result.code}`}). ` +
          `The end of its log, ${logFile}:\n${await tail(logFile)}`,
      );
    }
    started = true;
    const connection = (database = DATABASE): pg.ClientConfig => ({
      host: socketDir ?? '127.0.0.1',
      port,
      user: USER,
      password,
      database,
    });
    await ensureDatabase(connection('postgres'));
    const follower = followLog(logFile, logStart, log);
    return {
      connection,
      connectionString(database = DATABASE) {
        const base = `postgresql://${USER}:${encodeURIComponent(password)}@localhost:${port}/${database}`;
        return socketDir
          ? `${base}?host=${encodeURIComponent(socketDir)}`
          : base.replace('localhost', '127.0.0.1');
      },
      async stop() {
        follower.stop();
        await stopCluster(binaries, cluster, owner, log);
        await lock.release();
      },
    };
  } catch (err) {
    if (started) await stopCluster(binaries, cluster, owner, log).catch(() => undefined);
    await lock.release();
    throw err;
  }
}

/**
 * initdb into a side folder and rename it into place, with the password file written first: a
 * start interrupted at any point leaves either no cluster (initialised again) or a complete one.
 */
async function initialise(
  binaries: PostgresBinaries,
  cluster: string,
  passwordFile: string,
  owner: RunAs,
  durable: boolean,
): Promise<void> {
  const staging = `${cluster}.init`;
  await fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(staging, { mode: 0o700 });
  await chownTo(staging, owner);
  const password = randomBytes(24).toString('base64url');
  const pwDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-initdb-'));
  const pwFile = path.join(pwDir, 'password');
  try {
    await fs.writeFile(pwFile, `${password}\n`, { mode: 0o600 });
    await chownTo(pwDir, owner);
    await chownTo(pwFile, owner);
    const args = [
      '-D',
      staging,
      '-U',
      USER,
      `--pwfile=${pwFile}`,
      '--auth=scram-sha-256',
      '-E',
      'UTF8',
      '--no-locale',
    ];
    if (!durable) args.push('--no-sync');
    const result = await run(binaries.initdb, args, owner);
    if (result.code !== 0) {
      throw new Error(
        `Creating the embedded PostgreSQL database failed:\n${(result.stderr || result.stdout).trim()}`,
      );
    }
  } finally {
    await fs.rm(pwDir, { recursive: true, force: true });
  }
  await fs.appendFile(
    path.join(staging, 'postgresql.conf'),
    "\n# Written by VITA Documents at every start.\ninclude_if_exists = 'vita.conf'\n",
  );
  const tmpPassword = `${passwordFile}.tmp`;
  await fs.writeFile(tmpPassword, `${password}\n`, { mode: 0o600 });
  await fs.rename(tmpPassword, passwordFile);
  await fs.rename(staging, cluster);
}

/** The socket lives in the cluster folder (owner-only), or in a private temp folder if that path is too long. */
async function socketDirectory(cluster: string, owner: RunAs): Promise<string> {
  if (Buffer.byteLength(path.join(cluster, '.s.PGSQL.5432')) <= MAX_SOCKET_PATH) return cluster;
  const dir = path.join(
    os.tmpdir(),
    `vita-pg-${createHash('sha256').update(cluster).digest('hex').slice(0, 16)}`,
  );
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await chownTo(dir, owner);
  return dir;
}

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** Settings owned by the server, rewritten at each start so they follow the code. */
async function writeSettings(
  cluster: string,
  { socketDir, port, durable }: { socketDir: string | undefined; port: number; durable: boolean },
  owner: RunAs,
): Promise<void> {
  const settings: Record<string, string | number> = {
    // No TCP listener to collide with or expose: the server talks over the Unix socket.
    listen_addresses: quote(socketDir ? '' : '127.0.0.1'),
    port,
    unix_socket_directories: quote(socketDir ?? ''),
    unix_socket_permissions: '0700',
    // A throw-away test cluster serves every package's test servers of one `npm test` at once (up to
    // 10 connections each); a programme's server keeps at most 10.
    max_connections: durable ? 50 : 200,
    // A programme's database is small; these keep an idle cluster light.
    shared_buffers: quote('32MB'),
    io_method: quote('sync'),
    max_worker_processes: 2,
    max_parallel_workers: 0,
    max_wal_senders: 0,
    wal_level: quote('minimal'),
    logging_collector: 'off',
    log_line_prefix: quote('%m [%p] '),
    fsync: durable ? 'on' : 'off',
    synchronous_commit: durable ? 'on' : 'off',
    full_page_writes: durable ? 'on' : 'off',
  };
  const text = Object.entries(settings)
    .map(([key, value]) => `${key} = ${value}`)
    .join('\n');
  const file = path.join(cluster, 'vita.conf');
  await fs.writeFile(file, `${text}\n`, { mode: 0o600 });
  await chownTo(file, owner);
}

/**
 * A server that was killed (SIGKILL, power loss of the process tree, a crash) leaves its postmaster
 * running or its pid file behind. This server holds the data-directory lock, so a live postmaster
 * here is nobody's: stop it (fast, then immediate) before starting. A stale pid file whose pid now
 * belongs to another program is removed, or PostgreSQL would refuse to start.
 */
async function stopOrphan(
  binaries: PostgresBinaries,
  cluster: string,
  owner: RunAs,
  log: Log,
): Promise<void> {
  const pidFile = path.join(cluster, 'postmaster.pid');
  const pid = Number.parseInt((await fs.readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || !isAlive(pid)) return;
  const cmd = await commandLine(pid);
  if (cmd !== undefined && !/postgres/.test(cmd)) {
    await fs.rm(pidFile, { force: true });
    return;
  }
  log.warn(
    `PostgreSQL (pid ${pid}) was left running by a server that ended without stopping it; stopping it first.`,
  );
  for (const mode of ['fast', 'immediate']) {
    const result = await run(
      binaries.pgCtl,
      ['stop', '-m', mode, '-w', '-t', '30', '-s', '-D', cluster],
      owner,
    );
    if (result.code === 0 || !isAlive(pid)) return;
  }
  throw new Error(
    `PostgreSQL (pid ${pid}) left running by an earlier server did not stop. Stop it, then start again.`,
  );
}

async function stopCluster(
  binaries: PostgresBinaries,
  cluster: string,
  owner: RunAs,
  log: Log,
): Promise<void> {
  const result = await run(
    binaries.pgCtl,
    ['stop', '-m', 'fast', '-w', '-t', '60', '-s', '-D', cluster],
    owner,
  );
  if (result.code !== 0) {
    log.warn(
      `Stopping the embedded PostgreSQL: ${result.stderr.trim() || `pg_ctl exited with ${result.code}`}`,
    );
  }
}

/** Creates the log file for the cluster's owner (rotating a large one); returns where this run begins. */
async function prepareLog(logFile: string, owner: RunAs): Promise<number> {
  const size = await fs.stat(logFile).then(
    (s) => s.size,
    () => 0,
  );
  if (size > LOG_ROTATE_BYTES) await fs.rename(logFile, `${logFile}.1`);
  const handle = await fs.open(logFile, 'a', 0o600);
  await handle.close();
  await chownTo(logFile, owner);
  return size > LOG_ROTATE_BYTES ? 0 : size;
}

async function ensureDatabase(config: pg.ClientConfig): Promise<void> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
}

/** Copies PostgreSQL's FATAL and PANIC lines from its log into the server log as they appear. */
function followLog(logFile: string, from: number, log: Log): { stop(): void } {
  let offset = from;
  let partial = '';
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    void (async () => {
      try {
        const handle = await fs.open(logFile, 'r');
        try {
          const { size } = await handle.stat();
          if (size < offset) offset = 0;
          if (size === offset) return;
          const buffer = Buffer.alloc(Math.min(size - offset, 1024 * 1024));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
          offset += bytesRead;
          const lines = (partial + buffer.toString('utf8', 0, bytesRead)).split('\n');
          partial = lines.pop() ?? '';
          for (const line of lines) {
            if (/\b(FATAL|PANIC):/.test(line))
              log.error({ postgres: line }, 'PostgreSQL reported a fatal error');
          }
        } finally {
          await handle.close();
        }
      } catch {
        // The log is diagnostics only; a read that fails is tried again on the next tick.
      } finally {
        reading = false;
      }
    })();
  }, 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * A data directory made by a server that embedded PGlite holds `pgdata`, which this server does not
 * read: say so, rather than start on an empty database without a word.
 */
async function warnAboutPglite(dataDir: string, log: Log): Promise<void> {
  const old = path.join(dataDir, 'pgdata');
  if (!(await exists(path.join(old, 'PG_VERSION')))) return;
  log.warn(
    `${old} holds a database from an earlier version of this server (PGlite). It is not read: this server ` +
      `keeps its data in ${path.join(dataDir, 'postgres')}. To start fresh, move both folders away ` +
      `(${old} and ${path.join(dataDir, 'files')}) and restart.`,
  );
}

async function chownTo(file: string, owner: RunAs): Promise<void> {
  if (owner.uid !== undefined && owner.gid !== undefined) await fs.chown(file, owner.uid, owner.gid);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
