/**
 * Several `node dist/main.js` processes behind nginx, as docs/scaling.md describes: one PostgreSQL
 * they share (an embedded cluster of its own, through DATABASE_URL), one S3 (s3rver), and nginx run
 * with the configuration read from docs/scaling.md (its ports and log path put in).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@vita-docs/test-server';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded/cluster.js';
import { startS3rver } from '../test/s3rver.js';
import { freshDataDir, serverDir, sleep, startServer, type ServerProcess } from './harness.js';

const NGINX_CANDIDATES = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'];
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The nginx binary, or undefined when it is not installed. */
export async function findNginx(): Promise<string | undefined> {
  for (const candidate of NGINX_CANDIDATES) {
    if (
      await fs.access(candidate, fs.constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}

/** The `nginx` block of docs/scaling.md: the configuration an admin copies. */
async function documentedConfig(): Promise<string> {
  const doc = await fs.readFile(path.resolve(serverDir, '../../docs/scaling.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/scaling.md has no nginx block');
  return block;
}

/** The documented configuration with this run's upstream ports, listening port and log file. */
async function nginxSite(ports: readonly number[], listen: number, accessLog: string): Promise<string> {
  const block = await documentedConfig();
  const servers = /^( *)server 127\.0\.0\.1:\d+ (.*);$/m.exec(block);
  if (!servers) throw new Error('the nginx block names no upstream server');
  const [, indent, options] = servers;
  const upstream = ports.map((port) => `${indent}server 127.0.0.1:${port} ${options};`).join('\n');
  return block
    .replace(/^( *server 127\.0\.0\.1:\d+ .*;\n)+/m, `${upstream}\n`)
    .replace(/listen 80;/, `listen 127.0.0.1:${listen};`)
    .replace(/access_log \S+ /, `access_log ${accessLog} `);
}

/** A running nginx with the documented site in front of `ports`. */
export interface Nginx {
  readonly url: string;
  /** How many requests each upstream address answered so far (from the access log). */
  answeredBy(): Promise<Map<string, number>>;
  /**
   * What nginx said about the requests answered 502, 503 or 504 (by itself or by a process): their
   * access log lines (which processes each tried, in order, and when each ended) and its error log
   * lines about the processes since it started.
   */
  badGateways(): Promise<string[]>;
  /**
   * Resolves once nginx has had the process on `port` answer a request begun after `since` (epoch ms;
   * after the old process on it exited), i.e. once nginx takes it as working again (see the body).
   */
  inUse(port: number, since: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startNginx(binary: string, ports: readonly number[]): Promise<Nginx> {
  const dir = await freshDataDir('nginx');
  // nginx's workers (user nobody when started as root) write their temp files here.
  await fs.chmod(dir, 0o755);
  const listen = await freePort();
  const accessLog = path.join(dir, 'access.log');
  await fs.writeFile(path.join(dir, 'vita-docs.conf'), await nginxSite(ports, listen, accessLog));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `${name}_temp_path ${path.join(dir, `${name}_temp`)};`)
    .join(' ');
  const main = `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http { ${temp} include ${dir}/vita-docs.conf; }
`;
  await fs.writeFile(path.join(dir, 'nginx.conf'), main);
  await promisify(execFile)(binary, ['-t', '-q', '-p', dir, '-c', `${dir}/nginx.conf`]);
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', `${dir}/nginx.conf`], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${listen}`;
  for (let waited = 0; ; waited += 25) {
    if (
      await fetch(`${url}/api/me`).then(
        (res) => res.body?.cancel().then(() => true),
        () => false,
      )
    )
      break;
    if (waited > 10_000 || child.exitCode !== null)
      throw new Error(
        `nginx did not start: ${await fs.readFile(`${dir}/error.log`, 'utf8').catch(() => '')}`,
      );
    await sleep(25);
  }
  const logged = async () =>
    (await fs.readFile(accessLog, 'utf8').catch(() => '')).split('\n').flatMap((line) => {
      // `$status $upstream_addr $request_time $msec` end each line (docs/scaling.md's log_format); a
      // retried request names every address it tried, and the last one answered.
      const [, status, upstreams, took, at] = / (\d{3}) (\S+(?:, \S+)*) ([\d.]+) ([\d.]+)$/.exec(line) ?? [];
      const upstream = upstreams?.split(', ').at(-1);
      if (!upstream || upstream === '-') return [];
      return [{ status: Number(status), upstream, beganMs: (Number(at) - Number(took)) * 1000 }];
    });
  const answeredBy = async () => {
    const counts = new Map<string, number>();
    for (const { upstream } of await logged()) counts.set(upstream, (counts.get(upstream) ?? 0) + 1);
    return counts;
  };
  const read = async (file: string) =>
    (await fs.readFile(path.join(dir, file), 'utf8').catch(() => '')).split('\n').filter(Boolean);
  return {
    url,
    answeredBy,
    async badGateways() {
      const answered = (await read('access.log')).filter((line) => / 50[234] /.test(line));
      const said = (await read('error.log')).filter((line) => /upstream/.test(line));
      return [...answered, ...said];
    },
    async inUse(port, since) {
      // nginx takes a process it left alone as working again only when a request it then sent there
      // ends without failing (ngx_http_upstream_free_round_robin_peer: `fails = 0` once a check after
      // `fail_timeout` passed), and writes the access log line after that. A line answered by this
      // address that is not nginx's own 502/504, for a request begun once the old process had exited,
      // is such an end: a line of the old process's last answers, written late by a starved nginx, is
      // not.
      const address = `127.0.0.1:${port}`;
      const answered = (line: { status: number; upstream: string; beganMs: number }) =>
        line.upstream === address && line.status !== 502 && line.status !== 504 && line.beganMs >= since;
      for (let waited = 0; !(await logged()).some(answered); waited += 100) {
        if (waited > 30_000) throw new Error(`nginx sent nothing to ${address} within 30 s of its restart`);
        await sleep(100);
      }
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** The processes, their shared database and bucket, and the balancer. */
export interface Cluster {
  readonly nginx: Nginx;
  readonly processes: ServerProcess[];
  readonly ports: readonly number[];
  /** The connection string of the shared database (for checks). */
  readonly databaseUrl: string;
  /** Starts process `i` again on its port and data directory (after a stop or a kill). */
  restart(i: number): Promise<void>;
  close(): Promise<void>;
}

export async function startCluster(nginxBinary: string, count: number): Promise<Cluster> {
  // What is started so far, stopped again (last first) when a later part fails to start: a process
  // that did not come up must not leave PostgreSQL, s3rver, nginx or the others running.
  const started: Array<() => Promise<unknown>> = [];
  const processes: ServerProcess[] = [];
  const stopAll = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    for (const stop of started.reverse()) await stop();
  };
  try {
    return await startParts(nginxBinary, count, started, processes, stopAll);
  } catch (error) {
    await stopAll().catch(() => undefined);
    throw error;
  }
}

async function startParts(
  nginxBinary: string,
  count: number,
  started: Array<() => Promise<unknown>>,
  processes: ServerProcess[],
  stopAll: () => Promise<void>,
): Promise<Cluster> {
  const databaseDir = await freshDataDir('scale-db');
  started.push(() => fs.rm(databaseDir, { recursive: true, force: true }));
  const database: EmbeddedPostgres = await startEmbeddedPostgres({
    dataDir: databaseDir,
    log: quiet,
    durable: false,
  });
  started.push(() => database.stop());
  const s3 = await startS3rver();
  started.push(() => s3.close());
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const dataDirs = await Promise.all(ports.map((_, i) => freshDataDir(`scale-${i}`)));
  started.push(() => Promise.all(dataDirs.map((dir) => fs.rm(dir, { recursive: true, force: true }))));
  const nginx = await startNginx(nginxBinary, ports);
  started.push(() => nginx.stop());
  const databaseUrl = database.connectionString();
  const env = {
    ...s3.env,
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: nginx.url,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    TRUST_PROXY: '127.0.0.1',
    // docs/scaling.md: a stopping process sends GETs elsewhere until nginx leaves it alone.
    DRAIN_SECONDS: '10',
    // What is checked here is the balancing and the restarts, not the bounds on a dependency that stops
    // answering (scenario 9's): on two cores starved by the test runs beside it (load average 35),
    // PostgreSQL and s3rver went 2 s without an answer at the same moments for every process, and the
    // default bound (2 s) answered 503 (docs/reliability.md, scenario 8).
    DEPENDENCY_TIMEOUT_MS: '10000',
  };
  const start = (i: number) => startServer({ dataDir: dataDirs[i] as string, port: ports[i], env });
  // One after the other the first time: the first one creates the schema and the admin.
  for (let i = 0; i < count; i += 1) processes.push(await start(i));
  await untilEveryProcessUsed(nginx, ports);
  return {
    nginx,
    processes,
    ports,
    databaseUrl,
    async restart(i) {
      processes[i] = await start(i);
    },
    close: stopAll,
  };
}

/**
 * nginx's own start-up probe found no process yet and left each alone for fail_timeout: the work
 * starts once nginx has sent requests to every one of them.
 */
async function untilEveryProcessUsed(nginx: Nginx, ports: readonly number[]): Promise<void> {
  for (let waited = 0; ; waited += 25) {
    const answered = await nginx.answeredBy();
    if (ports.every((port) => answered.has(`127.0.0.1:${port}`))) break;
    if (waited > 30_000) throw new Error('nginx did not use every process within 30 s of their start');
    await fetch(`${nginx.url}/api/me`).then(
      (res) => res.body?.cancel(),
      () => undefined,
    );
    await sleep(25);
  }
}
