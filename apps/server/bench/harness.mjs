// What the benchmarks share: starting the production build (or a baseline program) on a free port,
// a signed-in volunteer, uploads through the real API (presign, PUT, complete), the machine's load,
// medians, and sampling a process's resident memory.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@vita-docs/test-server';
import { Session } from './session.mjs';

export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The storage key of every server a benchmark starts (never the one in the user's config directory). */
const STORAGE_KEY = randomBytes(32).toString('base64');

/** 1 MB = 2^20 bytes throughout the benchmarks. */
export const MB = 1024 * 1024;

async function waitFor(url, child, log) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited before answering:\n${log()}`);
    const res = await fetch(url).catch(() => null);
    if (res) {
      await res.body?.cancel();
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Starts a Node program and resolves with it once `probePath` answers; also how long that took. */
export async function start(args, env, probePath) {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: serverDir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', STORAGE_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (c) => (log += c));
  child.stderr.on('data', (c) => (log += c));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(url + probePath, child, () => log);
  return { child, url, ms: performance.now() - began, log: () => log };
}

/**
 * How to run the production build: `node dist/main.js`, under `--cpu-prof` when BENCH_CPU_PROF names
 * a directory (one .cpuprofile per server process, written when it stops).
 */
export function serverArgs() {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(dir), 'dist/main.js'] : ['dist/main.js'];
}

export async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export async function latestCode(url, email) {
  for (let i = 0; i < 100; i += 1) {
    const mails = await (await fetch(`${url}/api/dev/outbox`)).json();
    const code = /\b(\d{6})\b/.exec(mails.filter((m) => m.to === email).at(-1)?.text ?? '')?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no code');
}

/** Registers the first (admin) volunteer on a fresh server and signs in with the emailed code. */
export async function signIn(url) {
  const s = new Session(url);
  await s.call('GET', '/api/me');
  await s.call('POST', '/api/auth/register', {
    firstName: 'Bench',
    lastName: 'Admin',
    email: 'bench@example.org',
    pin: 'bench pin 123',
  });
  await s.call('POST', '/api/auth/login-init', { email: 'bench@example.org', pin: 'bench pin 123' });
  await s.call('POST', '/api/auth/login-verify', {
    email: 'bench@example.org',
    code: await latestCode(url, 'bench@example.org'),
  });
  return s;
}

export async function createClient(session, n = 0) {
  const res = await session.call('POST', '/api/clients/new', {
    firstName: `Client${n}`,
    lastName: 'Bench',
    email: `c${n}@example.org`,
    phone: '555 010 0100',
  });
  if (!res.ok) throw new Error(`new client: ${res.status} ${await res.text()}`);
  return (await res.json()).client.clientId;
}

/** A `size`-byte PDF: the `%PDF-1.7` line, then random bytes. */
export function randomPdf(size) {
  const bytes = randomBytes(size);
  bytes.write('%PDF-1.7\n', 0, 'latin1');
  return bytes;
}

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** A PUT of `body` with node:http (less client cost than fetch), resolving with the status and answer. */
export function put(url, headers, body, agent) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'PUT', agent, headers: { ...headers, 'content-length': String(body.length) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * One document the way the app's clients store it: presign with the declared size and SHA-256, the
 * PUT with the headers the answer names, then complete (unless the PUT's answer says the document is
 * stored already, as the local store's does). `file.sha256` may be given precomputed; each
 * step's milliseconds are pushed onto `timings.presign`, `.put` and `.complete` when given.
 */
export async function uploadDocument(session, clientId, file, agent, timings) {
  const t0 = performance.now();
  const presigned = await session.call('POST', `/api/docs/presign/${clientId}`, {
    docType: file.docType,
    filename: file.filename,
    contentType: 'application/pdf',
    size: file.bytes.length,
    sha256: file.sha256 ?? sha256(file.bytes),
  });
  if (!presigned.ok)
    throw new Error(`presign ${file.filename}: ${presigned.status} ${await presigned.text()}`);
  const { url, key, headers } = await presigned.json();
  const t1 = performance.now();
  const res = await put(url, { 'content-type': 'application/pdf', ...headers }, file.bytes, agent);
  if (res.status !== 200) throw new Error(`PUT ${file.filename}: ${res.status} ${res.text}`);
  const t2 = performance.now();
  // As core's client does: the server's own store answers `stored` when the PUT already listed it.
  const storedByPut = res.text.startsWith('{') && JSON.parse(res.text).stored === true;
  if (!storedByPut) {
    const done = await session.call('POST', '/api/docs/complete', { key });
    if (!done.ok) throw new Error(`complete ${file.filename}: ${done.status} ${await done.text()}`);
    await done.arrayBuffer();
  }
  if (timings) {
    timings.presign.push(t1 - t0);
    timings.put.push(t2 - t1);
    timings.complete.push(performance.now() - t2);
  }
  return key;
}

/** Runs `task(item)` over `items`, `concurrency` at a time. */
export async function pool(items, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next;
      next += 1;
      await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** The 1, 5 and 15 minute load averages as `uptime` prints them (both read /proc/loadavg), with the time. */
export function machineLoad() {
  const time = new Date().toTimeString().slice(0, 8);
  return `${time} load average: ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')}`;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** VmRSS of a process in kB (0 once it is gone). */
export function rssKb(pid) {
  return fs
    .readFile(`/proc/${pid}/status`, 'utf8')
    .then((s) => Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0))
    .catch(() => 0);
}

/** Samples a process's RSS every `ms` until `stop()`, which resolves with the peak in kB. */
export function sampleRss(pid, ms = 50) {
  let peak = 0;
  const take = async () => {
    peak = Math.max(peak, await rssKb(pid));
  };
  const timer = setInterval(() => void take(), ms);
  return {
    async stop() {
      clearInterval(timer);
      await take();
      return peak;
    },
  };
}

/** CPU time (user + system) a process has used, in ms; 0 once it is gone. Linux's 100 ticks a second. */
export async function cpuMs(pid) {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
}

/** The embedded PostgreSQL's processes: the postmaster of `clusterDir` and its children. */
export async function postgresPids(clusterDir) {
  const postmaster = Number(
    (await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[0],
  );
  const pids = [postmaster];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const status = await fs.readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    if (Number(/PPid:\s+(\d+)/.exec(status)?.[1]) === postmaster) pids.push(Number(entry));
  }
  return pids;
}

/**
 * Runs `task` and measures it: wall ms, the CPU ms each of `pids` used meanwhile, and this process's
 * own CPU ms (the benchmark's client side).
 */
export async function measureCpu(pids, task) {
  const before = await Promise.all(pids.map(cpuMs));
  const own = process.cpuUsage();
  const t0 = performance.now();
  await task();
  const ms = performance.now() - t0;
  const ownUsed = process.cpuUsage(own);
  const after = await Promise.all(pids.map(cpuMs));
  return {
    ms,
    cpu: pids.map((_, i) => Math.max(0, after[i] - before[i])),
    clientCpu: (ownUsed.user + ownUsed.system) / 1000,
  };
}

export const goal = (met) => (met ? 'met' : 'MISSED');

/** Whether curl is installed (the benchmarks' HTTP client when it is). */
export const hasCurl = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** One GET streamed to nowhere: status, bytes, time to first byte and total time in ms. */
export function fetchToNowhere(url, headers = {}) {
  if (hasCurl) {
    const args = [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{size_download} %{time_starttransfer} %{time_total}',
    ];
    for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
    return new Promise((resolve, reject) => {
      execFile('curl', [...args, url], (err, stdout) => {
        if (err) return reject(err);
        const [status, bytes, first, total] = stdout.trim().split(' ').map(Number);
        resolve({ status, bytes, firstByteMs: first * 1000, ms: total * 1000 });
      });
    });
  }
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    http
      .get(url, { headers }, (res) => {
        let first = 0;
        let bytes = 0;
        res.on('data', (chunk) => {
          if (!first) first = performance.now() - t0;
          bytes += chunk.length;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, bytes, firstByteMs: first, ms: performance.now() - t0 }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}
