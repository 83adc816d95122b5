/**
 * Starts the real server in-process on a random port, each on its own database copied from the
 * migrated template (see global-setup.ts), and gives tests a cookie-keeping agent.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readCsrfToken } from '@vita-docs/core';
import { createCookieJarFetch, type CookieJarFetch } from '@vita-docs/core/testing';
import { templateCopy } from '@vita-docs/test-server/database';
import { expect, vi } from 'vitest';
import { buildServer, loadConfig, type BuildOptions, type Config, type Server } from '../src/app.js';

export interface TestApp {
  url: string;
  server: Server;
  config: Config;
  /** The URL of this server's own database. */
  databaseUrl: string;
  /** Drops that database (what `close` does after stopping the server). */
  dropDatabase(): Promise<void>;
  /** A new browser; with `address`, one at that network address (sent as `X-Forwarded-For`: needs `TRUST_PROXY`). */
  agent(address?: string): Agent;
  outbox(): Promise<Array<{ to: string; subject: string; text: string; sentAt: string }>>;
  /** The newest code mailed to `email`; with `since` (an outbox length), waits for a mail after it. */
  latestCode(email: string, since?: number): Promise<string>;
  /** Stops the server only (once); its database and data directory stay. */
  stop(): Promise<void>;
  /** Stops the server, drops its database and removes its data directory. */
  close(): Promise<void>;
}

export { adminQuery } from '@vita-docs/test-server/database';

/** A database of its own, copied from the migrated template (global-setup.ts). */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const database = await templateCopy();
  if (!database) throw new Error('no test database: run the tests through vitest (test/global-setup.ts)');
  return database;
}

/** The storage key test servers use unless told otherwise (never the one in the user's config directory). */
export const TEST_STORAGE_KEY = randomBytes(32).toString('base64');

/** How a test server is built, beyond its environment. */
export interface StartOptions {
  /** Collects the server's log lines (at `info`) instead of discarding them. */
  logLines?: string[];
  /** A local store that keeps files in plain, as before encryption (see `BuildOptions`). */
  unencryptedStorage?: boolean;
  /** Shorter request deadlines (see `BuildOptions`). */
  deadlines?: BuildOptions['deadlines'];
}

/** Starts a server. `env` is applied on top of test defaults (quiet logs, temp data dir, {@link TEST_STORAGE_KEY}). */
export async function startApp(
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-test-'));
  const database = await freshDatabase();
  try {
    return await startOn({ dataDir, database }, env, options);
  } catch (error) {
    // Nothing else refers to them.
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Stops `app`'s server (keeping its database and data directory) and starts another on them, as a
 * restart with a changed configuration would. A start that fails throws and leaves both in place:
 * `app.close()` (or the new app's) still removes them.
 */
export async function restartApp(
  app: TestApp,
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<TestApp> {
  await app.stop();
  return startOn(
    { dataDir: app.config.dataDir, database: { url: app.databaseUrl, drop: () => app.dropDatabase() } },
    env,
    options,
  );
}

/**
 * A second server process on `app`'s database and data directory, running beside it (as a programme
 * with several processes behind a load balancer). Its `close` only stops it.
 */
export async function startSibling(app: TestApp, env: Record<string, string> = {}): Promise<TestApp> {
  const sibling = await startOn(
    { dataDir: app.config.dataDir, database: { url: app.databaseUrl, drop: async () => {} } },
    env,
    {},
  );
  return { ...sibling, close: () => sibling.stop() };
}

async function startOn(
  { dataDir, database }: { dataDir: string; database: { url: string; drop: () => Promise<void> } },
  env: Record<string, string>,
  options: StartOptions,
): Promise<TestApp> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    STORAGE_KEY: TEST_STORAGE_KEY,
    ...env,
  });
  const lines = options.logLines;
  const server = await buildServer(config, {
    database: database.url,
    ...(lines && { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } }),
    ...(options.unencryptedStorage && { unencryptedStorage: true }),
    ...(options.deadlines && { deadlines: options.deadlines }),
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const outbox = async () => (await fetch(`${url}/api/dev/outbox`)).json() as ReturnType<TestApp['outbox']>;
  let stopped: Promise<void> | undefined;
  const app: TestApp = {
    url,
    server,
    config,
    databaseUrl: database.url,
    dropDatabase: database.drop,
    agent: (address) => new Agent(url, undefined, address),
    outbox,
    async latestCode(email, since = 0) {
      // Some mails (forgot-password) are sent in the background: poll briefly for them.
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const mails = (await outbox()).slice(since).filter((m) => m.to === email && /\b\d{6}\b/.test(m.text));
        const code = /\b(\d{6})\b/.exec(mails.at(-1)?.text ?? '')?.[1];
        if (code) return code;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no code mailed to ${email}`);
    },
    stop() {
      stopped ??= server.close();
      return stopped;
    },
    async close() {
      await app.stop();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  return app;
}

export interface Reply<T = any> {
  status: number;
  body: T;
  /** The body as it came. */
  text: string;
  headers: Headers;
}

/** A browser stand-in: keeps cookies, echoes the CSRF cookie as a header unless told not to. */
export class Agent {
  private readonly browser: CookieJarFetch;

  constructor(
    readonly base: string,
    jar?: CookieJarFetch['jar'],
    /** The network address the requests come from, told to a server behind a trusted proxy. */
    readonly address?: string,
  ) {
    this.browser = createCookieJarFetch(
      (url, init) => fetch(url, init),
      jar ? { pageUrl: base, jar } : { pageUrl: base },
    );
  }

  /** The cookies a request to the server carries, HttpOnly ones included. */
  get cookies(): ReadonlyMap<string, string> {
    return new Map(Object.entries(this.browser.cookies()));
  }

  /** The same browser at another address of the same host (a restarted server): cookies keep to the host, not the port. */
  at(base: string): Agent {
    return new Agent(base, this.browser.jar, this.address);
  }

  /** The same browser on another network (a laptop taken elsewhere): same cookies, another `X-Forwarded-For`. */
  from(address: string): Agent {
    return new Agent(this.base, this.browser.jar, address);
  }

  async call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    options: { csrf?: boolean | string; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = {
      ...(this.address && { 'x-forwarded-for': this.address }),
      ...options.headers,
    };
    const csrf = options.csrf ?? true;
    const token =
      typeof csrf === 'string'
        ? csrf
        : csrf
          ? readCsrfToken((name) => this.browser.getCookie(name))
          : undefined;
    if (token !== undefined) headers['x-csrf-token'] = token;
    let payload: string | undefined = options.raw;
    if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const res = await this.browser.fetch(this.base + path, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  }

  get = <T = any>(path: string) => this.call<T>('GET', path);
  post = <T = any>(path: string, body?: unknown, options?: Parameters<Agent['call']>[3]) =>
    this.call<T>('POST', path, body ?? {}, options);
  del = <T = any>(path: string) => this.call<T>('DELETE', path);

  /** Primes cookies the way the web app does on load (GET /api/me). */
  async prime(): Promise<this> {
    await this.get('/api/me');
    return this;
  }
}

/** Registers, approves (with `admin`) and signs in an account; returns its signed-in agent. */
export async function signIn(app: TestApp, email: string, pin = 'correct horse battery'): Promise<Agent> {
  const agent = await app.agent().prime();
  const init = await agent.post('/api/auth/login-init', { email, pin });
  if (init.status !== 200)
    throw new Error(`login-init ${email}: ${init.status} ${JSON.stringify(init.body)}`);
  const code = await app.latestCode(email);
  const verify = await agent.post('/api/auth/login-verify', { email, code });
  if (verify.status !== 200)
    throw new Error(`login-verify ${email}: ${verify.status} ${JSON.stringify(verify.body)}`);
  return agent;
}

export const PIN = 'correct horse battery';

/** Creates an account; the first one on a fresh server becomes the admin. */
export async function register(app: TestApp, email: string, first = 'Test', last = 'User'): Promise<void> {
  const agent = await app.agent().prime();
  const res = await agent.post('/api/auth/register', { firstName: first, lastName: last, email, pin: PIN });
  if (res.status !== 200) throw new Error(`register ${email}: ${res.status} ${JSON.stringify(res.body)}`);
}

let markers = 0;

/**
 * Resolves once the mails the server began sending before the call are in the outbox: it approves a
 * fresh account, whose mail goes out the same background way after them, and waits for that mail.
 * A test shows that something sent *no* mail this way, instead of waiting a fixed time.
 */
export async function mailsSent(app: TestApp, approver: Agent): Promise<void> {
  markers += 1;
  const email = `sent-marker-${markers}@example.org`;
  await register(app, email);
  const approved = await approver.post(`/api/admin/users/${encodeURIComponent(email)}/approve`, {
    approved: true,
  });
  if (approved.status !== 200) throw new Error(`approve ${email}: ${approved.status}`);
  await vi.waitFor(async () => expect((await app.outbox()).some((m) => m.to === email)).toBe(true));
}

/** A fresh server with an admin, an officer, two volunteers and a pending account, all signed in where possible. */
export async function seedPeople(app: TestApp) {
  await register(app, 'admin@example.org', 'Ada', 'Admin');
  const admin = await signIn(app, 'admin@example.org');
  for (const email of [
    'officer@example.org',
    'vola@example.org',
    'volb@example.org',
    'pending@example.org',
  ]) {
    await register(app, email);
  }
  for (const email of ['officer@example.org', 'vola@example.org', 'volb@example.org']) {
    const r = await admin.post(`/api/admin/users/${encodeURIComponent(email)}/approve`, { approved: true });
    if (r.status !== 200) throw new Error(`approve ${email}: ${r.status}`);
  }
  await admin.post('/api/admin/users/officer%40example.org/role', { role: 'officer' });
  return {
    admin,
    officer: await signIn(app, 'officer@example.org'),
    volA: await signIn(app, 'vola@example.org'),
    volB: await signIn(app, 'volb@example.org'),
    pending: await app.agent().prime(),
    anonymous: await app.agent().prime(),
  };
}
