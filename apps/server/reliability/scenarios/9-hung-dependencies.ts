/**
 * Dependencies that stop answering instead of refusing: every process of the database's cluster
 * stopped (SIGSTOP), an S3 behind a proxy that stops forwarding, an SMTP server that accepts and never
 * speaks. Each request that needs the silent dependency must fail within a bound, in the API's error
 * shape, and everything must work again by itself once it answers (docs/reliability.md).
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../src/db/embedded/cluster.js';
import { DATABASE_UNAVAILABLE } from '../../src/http/errors.js';
import { startS3rver } from '../../test/s3rver.js';
import {
  ADMIN,
  freshDataDir,
  newClient,
  openBrowser,
  randomPdf,
  setUpProgramme,
  sha256,
  sleep,
  startServer,
  upload,
  type Browser,
  type Row,
  type Scenario,
} from '../harness.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** The bounds: a 503 within 3 s of asking, service back within 2 s of the database. */
const DB_ANSWER_MS = 3_000;
const DB_BACK_MS = 2_000;
/** The S3 part runs with this `DEPENDENCY_TIMEOUT_MS`; a failure must come within 10 × it. */
const S3_TIMEOUT_MS = 1_000;
const SMTP_ANSWER_MS = 5_000;

/** Times `work`; its outcome as a status (0: no answer) and body. */
async function timed(
  work: () => Promise<Response>,
): Promise<{ ms: number; status: number; body: string; retryAfter: string | null }> {
  const started = Date.now();
  try {
    const res = await work();
    const body = await res.text().catch((error: unknown) => `(cut off: ${String(error)})`);
    return { ms: Date.now() - started, status: res.status, body, retryAfter: res.headers.get('retry-after') };
  } catch (error) {
    return { ms: Date.now() - started, status: 0, body: String(error), retryAfter: null };
  }
}

/**
 * Stops the postmaster of the cluster in `dbDir` first (so it starts no more backends), then every
 * process it started; returns them all.
 */
async function stopCluster(dbDir: string): Promise<number[]> {
  const pidFile = await fs.readFile(path.join(dbDir, 'postgres', 'postmaster.pid'), 'utf8');
  const postmaster = Number(pidFile.split('\n')[0]);
  process.kill(postmaster, 'SIGSTOP');
  const children: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const status = await fs.readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== postmaster) continue;
    process.kill(Number(entry), 'SIGSTOP');
    children.push(Number(entry));
  }
  return [postmaster, ...children];
}

async function hungDatabase(
  short: boolean,
  log: (line: string) => void,
): Promise<{ done: string; held: string; problems: string[] }> {
  const dbDir = await freshDataDir('hung-db');
  const dataDir = await freshDataDir('hung');
  const database = await startEmbeddedPostgres({ dataDir: dbDir, log: quiet, durable: false });
  // The default bounds: this part proves the figures the docs give.
  const server = await startServer({ dataDir, env: { DATABASE_URL: database.connectionString() } });
  const problems: string[] = [];
  let pids: number[] = [];
  try {
    const { volunteers } = await setUpProgramme(server.url, 1);
    const volunteer = volunteers[0] as Browser;
    const clientId = await newClient(volunteer, 'Hung');
    await upload(volunteer, clientId, 'Banking Info', 'before.pdf', randomPdf(20_000));
    const paths = [
      '/api/me',
      '/api/clients',
      `/api/docs/list/${clientId}?docType=Banking%20Info`,
      `/api/clients/${clientId}/docs/status`,
    ];
    type Probe = Awaited<ReturnType<typeof timed>> & { at: number; phase: 'before' | 'hung' | 'after' };
    const probes: Probe[] = [];
    let phase: Probe['phase'] = 'before';
    let running = true;
    const began = Date.now();
    const worker = async (n: number) => {
      for (let i = n; running; i += 1) {
        const at = Date.now() - began;
        const seen = phase;
        const result = await timed(() =>
          volunteer.fetch(`${server.url}${paths[i % paths.length] ?? '/api/me'}`, {
            signal: AbortSignal.timeout(15_000),
          }),
        );
        probes.push({ ...result, at, phase: seen });
        await sleep(50);
      }
    };
    // More callers than the pool has connections: a pool that kept stuck ones would show.
    const workers = Array.from({ length: 12 }, (_, n) => worker(n));
    await sleep(1_000);
    phase = 'hung';
    pids = await stopCluster(dbDir);
    const stopped = pids.length;
    const stoppedAt = Date.now() - began;
    log(`${pids.length} PostgreSQL processes stopped at ${stoppedAt} ms`);
    await sleep(short ? 5_000 : 12_000);
    const refusedUpload = await upload(
      volunteer,
      clientId,
      'Banking Info',
      'during.pdf',
      randomPdf(20_000),
    ).then(
      () => 'accepted',
      (error: unknown) => String(error),
    );
    phase = 'after';
    for (const pid of pids) process.kill(pid, 'SIGCONT');
    pids = [];
    const resumedAt = Date.now() - began;
    await sleep(short ? 3_000 : 6_000);
    running = false;
    await Promise.all(workers);

    const during = probes.filter((p) => p.phase === 'hung');
    const after = probes.filter((p) => p.phase === 'after');
    // From SIGCONT to the last failed answer (of any request, also one asked while it was stopped).
    const backMs = Math.max(0, ...probes.filter((p) => p.status !== 200).map((p) => p.at + p.ms - resumedAt));
    const slow = probes.filter((p) => p.at >= stoppedAt && p.ms > DB_ANSWER_MS);
    const wrong = during.filter(
      (p) =>
        p.status !== 200 &&
        !(p.status === 503 && p.body.includes(DATABASE_UNAVAILABLE) && p.retryAfter !== null),
    );
    if (during.filter((p) => p.status === 503).length === 0)
      problems.push('database: nothing was refused while it was stopped');
    if (slow.length > 0)
      problems.push(
        `database: ${slow.length} answers took over ${DB_ANSWER_MS} ms (slowest ${Math.max(...slow.map((p) => p.ms))} ms, status ${slow[0]?.status})`,
      );
    if (wrong.length > 0)
      problems.push(
        `database: ${wrong.length} answers were not the 503 with Retry-After: ${wrong[0]?.status} ${wrong[0]?.body.slice(0, 100)}`,
      );
    if (!refusedUpload.includes(DATABASE_UNAVAILABLE))
      problems.push(`database: an upload while it was stopped answered ${refusedUpload}`);
    if (backMs > DB_BACK_MS) problems.push(`database: still failing ${backMs} ms after it answered again`);
    if (!after.some((p) => p.status === 200))
      problems.push('database: nothing worked again after it answered');
    const afterUpload = await upload(
      volunteer,
      clientId,
      'Banking Info',
      'after.pdf',
      randomPdf(20_000),
    ).then(() => 'ok', String);
    if (afterUpload !== 'ok') problems.push(`database: an upload afterwards failed: ${afterUpload}`);
    if (server.exited()) problems.push('database: the server exited');
    const maxMs = Math.max(
      0,
      ...probes.filter((p) => p.at >= stoppedAt && p.phase !== 'after').map((p) => p.ms),
    );
    return {
      done: `database: all ${stopped} cluster processes SIGSTOPped for ${((resumedAt - stoppedAt) / 1000).toFixed(0)} s under 12 callers (${probes.length} requests, ${during.length} while stopped)`,
      held: `database: every request while it was stopped answered 503 "${DATABASE_UNAVAILABLE}" with Retry-After in ≤ ${maxMs} ms, the upload too; back ${backMs} ms after SIGCONT without a restart`,
      problems,
    };
  } finally {
    for (const pid of pids) process.kill(pid, 'SIGCONT');
    await server.stop();
    await database.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.rm(dbDir, { recursive: true, force: true });
  }
}

/** A TCP proxy that can stop forwarding: connections stay open and nothing passes either way. */
async function hangingProxy(target: string) {
  const { port: targetPort, hostname } = new URL(target);
  let hung = false;
  const frozen = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (hung) {
      frozen.add(client);
      client.pause();
      return;
    }
    const upstream = net.connect(Number(targetPort), hostname);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    server.on('hang', () => {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      frozen.add(client).add(upstream);
    });
  });
  server.setMaxListeners(0);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    hang() {
      hung = true;
      server.emit('hang');
    },
    release() {
      hung = false;
      server.removeAllListeners('hang');
      for (const socket of frozen) socket.destroy();
      frozen.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function hungS3(
  log: (line: string) => void,
): Promise<{ done: string; held: string; problems: string[] }> {
  const s3 = await startS3rver('vita-hung');
  const proxy = await hangingProxy(s3.env.S3_ENDPOINT);
  const dataDir = await freshDataDir('hung-s3');
  const server = await startServer({
    dataDir,
    env: { ...s3.env, S3_ENDPOINT: proxy.url, DEPENDENCY_TIMEOUT_MS: String(S3_TIMEOUT_MS) },
  });
  const problems: string[] = [];
  const bound = 10 * S3_TIMEOUT_MS;
  try {
    const { volunteers } = await setUpProgramme(server.url, 1);
    const volunteer = volunteers[0] as Browser;
    const clientId = await newClient(volunteer, 'Hung S3');
    const stored = randomPdf(40_000);
    const storedKey = await upload(volunteer, clientId, 'Banking Info', 'stored.pdf', stored);
    // An upload whose bytes reached S3 before it stopped answering; its completion comes after.
    const late = randomPdf(30_000);
    const presigned = await volunteer.api.presignUpload({
      params: { id: clientId },
      body: {
        docType: 'Banking Info',
        filename: 'late.pdf',
        contentType: 'application/pdf',
        size: late.length,
        sha256: sha256(late),
      },
    });
    const put = await fetch(presigned.url, {
      method: 'PUT',
      body: late,
      headers: presigned.headers ?? { 'content-type': 'application/pdf' },
    });
    if (!put.ok) problems.push(`S3: the PUT before the hang answered ${put.status}`);

    proxy.hang();
    log('S3 proxy stopped forwarding');
    const csrf = /(?:^|; )csrf_token=([^;]*)/.exec(volunteer.cookieHeader())?.[1] ?? '';
    const json = (route: string, body: unknown) =>
      volunteer.fetch(`${server.url}/api${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    const presign = await timed(() =>
      json(`/docs/presign/${clientId}`, {
        docType: 'Banking Info',
        filename: 'next.pdf',
        contentType: 'application/pdf',
      }),
    );
    const view = await timed(() => json('/docs/presign-view', { key: storedKey }));
    const complete = await timed(() => json('/docs/complete', { key: presigned.key }));
    const zip = await timed(() =>
      volunteer.fetch(`${server.url}/api/clients/${clientId}/docs/download-all`, {
        signal: AbortSignal.timeout(30_000),
      }),
    );
    if (presign.status !== 200 || presign.ms > 1_000)
      problems.push(`S3: presign answered ${presign.status} in ${presign.ms} ms`);
    for (const [what, answer] of [
      ['view link', view],
      ['completion', complete],
      ['ZIP', zip],
    ] as const) {
      if (answer.ms > bound) problems.push(`S3: the ${what} took ${answer.ms} ms (bound ${bound})`);
      if (answer.status === 200 && !answer.body.startsWith('(cut off'))
        problems.push(`S3: the ${what} answered 200 while S3 was silent`);
      if (answer.status >= 400 && !/^\{"error":"[^"]+","code":"[a-z_]+"\}$/.test(answer.body))
        problems.push(`S3: the ${what} answered ${answer.status} ${answer.body.slice(0, 100)}`);
    }
    proxy.release();
    log('S3 proxy forwarding again');
    // Nothing half-stored: the completion works now, and both documents read back whole.
    await volunteer.api.completeUpload({ body: { key: presigned.key } });
    const listed = await volunteer.api.listDocs({
      params: { id: clientId },
      query: { docType: 'Banking Info' },
    });
    const want = new Map([
      [storedKey, sha256(stored)],
      [presigned.key, sha256(late)],
    ]);
    if (listed.items.length !== 2)
      problems.push(`S3: ${listed.items.length} documents listed afterwards, not 2`);
    for (const item of listed.items) {
      const { url } = await volunteer.api.presignView({ body: { key: item.key } });
      const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
      if (want.get(item.key) !== sha256(bytes)) problems.push(`S3: ${item.filename} did not read back whole`);
    }
    return {
      done: `S3: a proxy in front of s3rver stopped forwarding (DEPENDENCY_TIMEOUT_MS=${S3_TIMEOUT_MS}); presign, view link, an upload's completion and the ZIP asked meanwhile`,
      held: `S3: presign answered in ${presign.ms} ms; the view link failed in ${view.ms} ms (${view.status}), the completion failed in ${complete.ms} ms (${complete.status}), the ZIP in ${zip.ms} ms (${zip.status || 'cut off'}); afterwards the completion stored it and both documents read back whole`,
      problems,
    };
  } finally {
    proxy.release();
    await server.stop();
    await proxy.close();
    await s3.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function hungSmtp(): Promise<{ done: string; held: string; problems: string[] }> {
  // Accepts and never speaks: nodemailer waits for a greeting that does not come.
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const port = (silent.address() as net.AddressInfo).port;
  const dataDir = await freshDataDir('hung-smtp');
  const server = await startServer({ dataDir, env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  const problems: string[] = [];
  try {
    const browser = openBrowser(server.url, ADMIN.email);
    const started = Date.now();
    const sent = await browser.api.loginInit({ body: { email: ADMIN.email, pin: ADMIN.pin } }).then(
      (res) => ({ status: 200, body: JSON.stringify(res) }),
      (error: unknown) => ({ status: -1, body: String(error) }),
    );
    const answer = { ...sent, ms: Date.now() - started };
    if (answer.status !== 200 || !answer.body.includes('"emailSent":false'))
      problems.push(`SMTP: the sign-in answered ${answer.status} ${answer.body.slice(0, 100)}`);
    if (answer.ms > SMTP_ANSWER_MS) problems.push(`SMTP: the sign-in took ${answer.ms} ms`);
    return {
      done: 'SMTP: a server that accepts and never speaks',
      held: `SMTP: the sign-in answered emailSent: false in ${answer.ms} ms`,
      problems,
    };
  } finally {
    await server.stop();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export const scenario: Scenario = {
  name: 'Hung dependencies',
  async run({ short, log }): Promise<Row> {
    const parts = [await hungDatabase(short, log), await hungS3(log), await hungSmtp()];
    const problems = parts.flatMap((p) => p.problems);
    return {
      scenario: this.name,
      done: parts.map((p) => p.done).join('; '),
      held: problems.length ? '' : parts.map((p) => p.held).join('; '),
      broke: problems.join('; '),
    };
  },
};
