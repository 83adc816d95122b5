import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { templateCopy } from './database.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/server');

/** A port nothing on 127.0.0.1 listens on now: every test and bench that needs one takes it from here. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

const coreDir = path.join(serverDir, '../../packages/core');

/** The newest modification time of any file below `dir` (0 when it does not exist). */
async function newestIn(dir) {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const times = await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => fs.stat(path.join(entry.parentPath, entry.name)).then((s) => s.mtimeMs)),
  );
  return Math.max(0, ...times);
}

const builtAt = (file) =>
  fs.stat(file).then(
    (s) => s.mtimeMs,
    () => 0,
  );

/**
 * The server's production build when it is newer than every source of it (turbo builds it before any
 * test that starts a server), else its sources through tsx: the build starts several seconds sooner
 * per server, and a source edited since the last build is still what runs.
 */
const serverCommand = (async () => {
  const [server, core, serverSources, coreSources] = await Promise.all([
    builtAt(path.join(serverDir, 'dist/main.js')),
    builtAt(path.join(coreDir, 'dist/index.js')),
    newestIn(path.join(serverDir, 'src')),
    newestIn(path.join(coreDir, 'src')),
  ]);
  const fresh = server > serverSources && core > coreSources;
  return fresh ? ['dist/main.js'] : ['--import', 'tsx', '--conditions=vita-source', 'src/main.ts'];
})();

async function launch({ port, dataDir, env, verbose }) {
  const child = spawn(process.execPath, await serverCommand, {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const onData = (chunk) => {
    const text = chunk.toString();
    log = (log + text).slice(-20_000);
    if (verbose) process.stderr.write(text);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let exited = false;
  child.once('exit', () => (exited = true));
  // Ready when the API answers, whatever the log level.
  const ready = (async () => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (exited) throw new Error(`server exited before listening:\n${log}`);
      if (Date.now() > deadline) throw new Error(`server did not start within 90 s:\n${log}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/me`).then(
        () => true,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return { child, ready };
}

/**
 * A server killed before it stopped its embedded PostgreSQL leaves the postmaster running; a test
 * run must not leak one (the server itself would stop it on its next start).
 */
async function stopOrphanedPostgres(dataDir) {
  const text = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid)) return;
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    // already gone
  }
}

/** @type {import('./index.js').startTestServer} */
export async function startTestServer(options = {}) {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'vita-server-')));
  // Under global-setup.js each server gets its own copy of the run's migrated template database;
  // otherwise (or when told a DATABASE_URL) it starts as in production, embedded cluster and all.
  const database = options.env?.DATABASE_URL ? null : await templateCopy();
  const env = { ...options.env, ...(database && { DATABASE_URL: database.url }) };
  const verbose = options.verbose ?? false;
  let current = await launch({ port, dataDir, env, verbose });
  await current.ready;
  const url = `http://127.0.0.1:${port}`;

  const outbox = async () => {
    const res = await fetch(`${url}/api/dev/outbox`);
    if (!res.ok) throw new Error(`outbox: ${res.status}`);
    return res.json();
  };

  const stopChild = async () => {
    const child = current.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    await stopOrphanedPostgres(dataDir);
  };

  return {
    url,
    get pid() {
      return current.child.pid;
    },
    apiUrl: `${url}/api`,
    port,
    dataDir,
    outbox,
    async latestCode(email, { after = 0, timeoutMs = 10_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      const target = email.trim().toLowerCase();
      for (;;) {
        const mails = (await outbox()).filter((m) => m.to === target && Date.parse(m.sentAt) >= after);
        const last = mails[mails.length - 1];
        const code = last && /\b(\d{6})\b/.exec(last.text)?.[1];
        if (code) return code;
        if (Date.now() > deadline) throw new Error(`no code mailed to ${email}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async query(text, values = []) {
      // Only a test's own copy of the template: a server on an embedded cluster has no URL to hand.
      if (!database) throw new Error('query() needs the test database of global-setup.js');
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    async stop({ keepData = true } = {}) {
      await stopChild();
      if (keepData) return;
      await database?.drop();
      if (!options.dataDir) await fs.rm(dataDir, { recursive: true, force: true });
    },
    async restart() {
      await stopChild();
      current = await launch({ port, dataDir, env, verbose });
      await current.ready;
    },
  };
}

/**
 * Launch options for playwright-core's `chromium.launch`: the system Chromium (CHROMIUM_PATH overrides),
 * quiet and sandbox-free for containers and CI. Plain options so this package needs no playwright-core.
 */
export function chromiumLaunchOptions() {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}
