/**
 * The embedded PostgreSQL's lifecycle, with the server run as `npm start` runs it: its own process on
 * a fresh DATA_DIR, stopped by signals — including SIGKILL, after which nothing may be lost. Whole
 * server processes with clusters of their own (an initdb each): the second tier.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '@vita-docs/test-server';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, PIN } from '../harness.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Running {
  child: ChildProcess;
  url: string;
  log(): string;
  exited: Promise<number | null>;
}

/**
 * Starts the production build (`dist/main.js`, as `npm start` runs it) on `dataDir` (its storage key made beside it, in `<dataDir>-config`, as `npm
 * start` makes one in the user's config directory); resolves once `/api/me` answers (or rejects with the log).
 */
async function launch(dataDir: string, { waitReady = true } = {}): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      XDG_CONFIG_HOME: `${dataDir}-config`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const running = { child, url, log: () => log, exited };
  if (!waitReady) return running;
  for (const deadline = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`);
    if (
      await fetch(`${url}/api/me`).then(
        () => true,
        () => false,
      )
    )
      return running;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const text = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  return Number.isInteger(pid) ? pid : undefined;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function signUpWithClient(url: string): Promise<Agent> {
  const agent = await new Agent(url).prime();
  await agent.post('/api/auth/register', {
    firstName: 'Kim',
    lastName: 'Ill',
    email: 'kim@example.org',
    pin: PIN,
  });
  await agent.post('/api/auth/login-init', { email: 'kim@example.org', pin: PIN });
  const mails = (await (await fetch(`${url}/api/dev/outbox`)).json()) as Array<{ text: string }>;
  const code = /(\d{6})/.exec(mails.at(-1)?.text ?? '')?.[1] ?? '';
  expect((await agent.post('/api/auth/login-verify', { email: 'kim@example.org', code })).status).toBe(200);
  const client = await agent.post('/api/clients/new', {
    firstName: 'Dora',
    lastName: 'Client',
    email: 'dora@example.org',
    phone: '555 0100',
  });
  expect(client.status).toBe(200);
  return agent;
}

// Each test starts whole server processes (initdb, PostgreSQL, migrations), once or twice: on a
// loaded two-core machine one such start alone can take most of the default 30 s.
describe('the embedded PostgreSQL', { timeout: 120_000 }, () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const tempDir = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-embedded-'));
    dirs.push(dir);
    return dir;
  };
  // One cluster is created (the first test's, or one made here when it did not run); the other tests
  // start on a copy of it, as a server restarted on its DATA_DIR does: creating one costs an initdb
  // and every migration, which the first test already proves.
  let created: Promise<string> | undefined;
  const createdCluster = () =>
    (created ??= (async () => {
      const dataDir = await tempDir();
      const server = await launch(dataDir);
      children.push(server.child);
      server.child.kill('SIGTERM');
      await server.exited;
      return dataDir;
    })());
  const copyOfCluster = async () => {
    const from = await createdCluster();
    const dir = `${await tempDir()}-copy`;
    dirs.push(dir);
    // `cp -a` keeps the owner: run as root, the cluster belongs to the unprivileged user that runs it.
    await promisify(execFile)('cp', ['-a', from, dir]);
    await promisify(execFile)('cp', ['-a', `${from}-config`, `${dir}-config`]);
    return dir;
  };
  afterAll(async () => {
    // Each server stops its PostgreSQL on SIGTERM; any postmaster still alive after it exited is killed below.
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    await Promise.all(
      running.map((child) => {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        return exited;
      }),
    );
    for (const dir of dirs) {
      const pid = await postmasterPid(dir);
      if (pid && alive(pid)) process.kill(pid, 'SIGQUIT');
      await fs.rm(dir, { recursive: true, force: true });
      await fs.rm(`${dir}-config`, { recursive: true, force: true });
    }
  });

  it('is created on first start and stopped with the server on SIGTERM', async () => {
    const dataDir = await tempDir();
    const server = await launch(dataDir);
    children.push(server.child);
    expect(server.log()).toContain('Creating the embedded PostgreSQL database');
    expect(server.log()).toContain(`Ready: open ${server.url}`);
    const pid = await postmasterPid(dataDir);
    expect(pid && alive(pid)).toBe(true);
    expect((await fs.stat(path.join(dataDir, 'postgres.password'))).mode & 0o077).toBe(0);
    expect((await fs.stat(path.join(dataDir, 'postgres'))).mode & 0o077).toBe(0);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(await postmasterPid(dataDir)).toBeUndefined();
    // The postmaster removes its pid file just before it exits (and is reaped).
    await expect.poll(() => pid && alive(pid), { timeout: 5000 }).toBe(false);
    await expect(fs.stat(path.join(dataDir, 'server.pid'))).rejects.toThrow();
    created ??= Promise.resolve(dataDir);
  });

  it('serves every account, session and client again after the server was killed with SIGKILL', async () => {
    const dataDir = await copyOfCluster();
    const first = await launch(dataDir);
    children.push(first.child);
    const agent = await signUpWithClient(first.url);
    const orphan = await postmasterPid(dataDir);
    first.child.kill('SIGKILL');
    await first.exited;
    // The postmaster outlives its server: the next start must find and stop it.
    expect(orphan && alive(orphan)).toBe(true);

    const second = await launch(dataDir);
    children.push(second.child);
    expect(second.log()).toContain(`PostgreSQL (pid ${orphan}) was left running`);
    const again = agent.at(second.url);
    expect((await again.get('/api/me')).body.user.email).toBe('kim@example.org');
    expect(
      (await again.get('/api/clients')).body.items.map((c: { firstName: string }) => c.firstName),
    ).toEqual(['Dora']);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('refuses a second server on the same data directory, and says why', async () => {
    const dataDir = await copyOfCluster();
    const first = await launch(dataDir);
    children.push(first.child);
    const second = await launch(dataDir, { waitReady: false });
    children.push(second.child);
    expect(await second.exited).toBe(1);
    expect(second.log()).toContain(
      `Another server (pid ${first.child.pid}) is using the data directory ${dataDir}`,
    );
    // The first one is untouched.
    expect((await fetch(`${first.url}/api/me`)).status).toBe(401);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });

  it('names a database left by the earlier embedded engine instead of reading it', async () => {
    const dataDir = await copyOfCluster();
    await fs.mkdir(path.join(dataDir, 'pgdata'), { recursive: true });
    await fs.writeFile(path.join(dataDir, 'pgdata', 'PG_VERSION'), '17\n');
    const server = await launch(dataDir);
    children.push(server.child);
    expect(server.log()).toContain(
      `${path.join(dataDir, 'pgdata')} holds a database from an earlier version`,
    );
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('stops with a clear message when the database password file is gone', async () => {
    const dataDir = await copyOfCluster();
    const first = await launch(dataDir);
    children.push(first.child);
    first.child.kill('SIGTERM');
    await first.exited;
    await fs.rm(path.join(dataDir, 'postgres.password'));
    const second = await launch(dataDir, { waitReady: false });
    children.push(second.child);
    expect(await second.exited).toBe(1);
    expect(second.log()).toContain('postgres.password is missing');
    expect(await postmasterPid(dataDir)).toBeUndefined();
  });
});
