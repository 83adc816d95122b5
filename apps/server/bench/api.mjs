// API benchmark: the production build (`node dist/main.js`) on its embedded PostgreSQL against a bare
// Fastify route returning the same kind of 30-item JSON list, measured in the same run with the same
// load generator. Prints req/s, the ratio to the bare route, latencies and errors per endpoint; the
// idle memory of the server plus every PostgreSQL process; first and warm start times.
// The list also runs paced at PACED_RATE req/s (latency goal: p99 under 25 ms), and so does the bare
// route right after it: the bare route's paced p99 is what this machine can do at that rate, and the
// ratio of the two is the list's own share. The paced runs are open loop (`paced` below), not
// autocannon's.
// Not part of the tests: `pnpm --filter @vita-docs/server bench:api` (BENCH_SECONDS, BENCH_CONNECTIONS
// set the throughput runs; BENCH_CPU_PROF=<dir> profiles the server).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHistogram, performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import {
  createClient,
  machineLoad,
  postgresPids,
  randomPdf,
  serverArgs,
  signIn,
  start,
  stop,
  uploadDocument,
} from './harness.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
/** The paced run: the list at a steady rate (requests a second), its latency held to a goal. */
const PACED_RATE = 300;
/** The paced run's warm-up (not counted) and measured time, in ms. */
const PACED_WARMUP_MS = 2000;
const PACED_MEASURED_MS = 10_000;
/** Keep-alive connections the paced run may open; more in flight than this queue in the pool. */
const PACED_CONNECTIONS = 64;

const BARE = `
  import Fastify from 'fastify';
  import { createHash } from 'node:crypto';
  // The fields of the API's list item, so both answers are the same size.
  const items = Array.from({ length: 30 }, (_, i) => ({
    key: 'dih8GpuwU8FwyuHQ/Banking%20Info/' + (1795444759953 + i) + '_statement-' + i + '.pdf',
    filename: 'statement-' + i + '.pdf', size: 123456 + i, docType: 'Banking Info', contentType: 'application/pdf',
    lastModified: new Date(1795444759953 + i).toISOString(), sha256: createHash('sha256').update(String(i)).digest('hex'),
  }));
  const app = Fastify();
  app.get('/bare', async () => ({ items }));
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

/** autocannon's closed-loop throughput run; `raw` is every response's own latency in ms. */
function load(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const raw = [];
    const run = autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers }, (err, result) =>
      err ? reject(err) : resolve({ ...result, raw }),
    );
    run.on('response', (_client, _status, _bytes, ms) => raw.push(ms));
  });
}

/**
 * An open-loop run at `rate` requests a second, evenly spaced (request i is due at i / rate s), over a
 * keep-alive pool. Each latency runs from the request's due time, not from when it was sent, so a stall
 * of the server or of this process delays the requests due during it and counts in full (coordinated
 * omission accounted for once per request). Latencies in µs go into Node's HDR histogram; requests due
 * in the warm-up are sent but not recorded.
 *
 * Written here because the maintained Node load generators pace closed loops: autocannon sends each
 * connection's share of a second back to back, then waits for the next second, and corrects by
 * recording long answers many times; none schedules each request at its own time.
 */
async function paced(url, headers, rate) {
  const { origin, pathname, search } = new URL(url);
  const pool = new Pool(origin, { connections: PACED_CONNECTIONS, pipelining: 1 });
  const histogram = createHistogram();
  const lag = createHistogram();
  const interval = 1000 / rate;
  const total = Math.round(((PACED_WARMUP_MS + PACED_MEASURED_MS) * rate) / 1000);
  const firstMeasured = Math.round((PACED_WARMUP_MS * rate) / 1000);
  let inFlight = 0;
  let maxInFlight = 0;
  let errors = 0;
  const pending = [];
  const send = async (i, due) => {
    inFlight += 1;
    if (i >= firstMeasured) maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const { statusCode, body } = await pool.request({ path: pathname + search, method: 'GET', headers });
      await body.arrayBuffer();
      if (statusCode !== 200) errors += 1;
    } catch {
      errors += 1;
    } finally {
      inFlight -= 1;
    }
    if (i >= firstMeasured) histogram.record(Math.max(1, Math.round((performance.now() - due) * 1000)));
  };
  const t0 = performance.now() + 50;
  await new Promise((resolve) => {
    let i = 0;
    const tick = () => {
      const now = performance.now();
      // Everything already due goes out now: a late timer sends late, and the lateness is counted.
      for (; i < total && t0 + i * interval <= now; i += 1) {
        const due = t0 + i * interval;
        if (i >= firstMeasured) lag.record(Math.max(1, Math.round((now - due) * 1000)));
        pending.push(send(i, due));
      }
      if (i >= total) resolve();
      else setTimeout(tick, Math.max(0, t0 + i * interval - performance.now()));
    };
    setTimeout(tick, Math.max(0, t0 - performance.now()));
  });
  await Promise.all(pending);
  await pool.close();
  const ms = (p) => histogram.percentile(p) / 1000;
  return {
    count: histogram.count,
    p50: ms(50),
    p90: ms(90),
    p99: ms(99),
    max: histogram.max / 1000,
    maxInFlight,
    sendLagP99: lag.percentile(99) / 1000,
    errors,
  };
}

/** The `p`th percentile of `values` (nearest rank). */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** RSS and PSS (shared pages divided among their users) in MB of the server and its PostgreSQL. */
async function memory(serverPid, clusterDir) {
  const pids = [serverPid, ...(await postgresPids(clusterDir))];
  let rss = 0;
  let pss = 0;
  for (const pid of pids) {
    const rollup = await fs.readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
    rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
  }
  return { processes: pids.length, rssMb: rss / 1024, pssMb: pss / 1024 };
}

/**
 * A signed-in volunteer with 30 clients, the first of whose Banking Info holds 30 distinct files, two
 * of them byte-identical to a file in another category (so the list marks two duplicates).
 */
async function seed(url) {
  const session = await signIn(url);
  let clientId;
  for (let i = 0; i < 30; i += 1) {
    const id = await createClient(session, i);
    clientId ??= id;
  }
  const files = Array.from({ length: 30 }, () => randomPdf(2048));
  for (const [i, bytes] of files.entries()) {
    await uploadDocument(session, clientId, {
      docType: 'Banking Info',
      filename: `statement-${i}.pdf`,
      bytes,
    });
  }
  for (const bytes of files.slice(0, 2)) {
    await uploadDocument(session, clientId, { docType: 'Digital Consent Form', filename: 'copy.pdf', bytes });
  }
  return { session, clientId };
}

const row = (name, r, bare) => ({
  endpoint: name,
  'req/s': Math.round(r.requests.average),
  'ratio to bare': bare ? (r.requests.average / bare).toFixed(3) : '1',
  'p50 ms': r.latency.p50,
  'p99 ms': r.latency.p99,
  'p99 ms uncorrected': Number(percentile(r.raw, 99).toFixed(1)),
  errors: r.errors + r.timeouts + r.non2xx,
});

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-bench-api-'));
const results = [];
const loadBefore = machineLoad();
try {
  const bare = await start(['--input-type=module', '-e', BARE], {}, '/bare');
  const bareResult = await load(`${bare.url}/bare`);
  results.push(row('bare Fastify, 30 items', bareResult));

  const first = await start(serverArgs(), { DATA_DIR: dataDir }, '/api/me');
  await stop(first.child);
  const warm = await start(serverArgs(), { DATA_DIR: dataDir }, '/api/me');
  const { session, clientId } = await seed(warm.url);
  await new Promise((r) => setTimeout(r, 3000));
  const idle = await memory(warm.child.pid, path.join(dataDir, 'postgres'));
  const headers = { cookie: session.cookieHeader };
  const base = bareResult.requests.average;
  results.push(row('GET /api/me', await load(`${warm.url}/api/me`, headers), base));
  results.push(row('GET /api/clients (30)', await load(`${warm.url}/api/clients`, headers), base));
  results.push(
    row(
      'GET /api/docs/list (30 files)',
      await load(`${warm.url}/api/docs/list/${clientId}?docType=Banking%20Info`, headers),
      base,
    ),
  );
  const listUrl = `${warm.url}/api/docs/list/${clientId}?docType=Banking%20Info`;
  const pacedList = await paced(listUrl, headers, PACED_RATE);
  // The same pace on the bare route (idle since its own run), straight after: this machine's floor.
  const pacedBare = await paced(`${bare.url}/bare`, {}, PACED_RATE);
  await stop(bare.child);
  results.push(
    row(
      'GET /api/clients/:id/docs/status',
      await load(`${warm.url}/api/clients/${clientId}/docs/status`, headers),
      base,
    ),
  );
  const after = await memory(warm.child.pid, path.join(dataDir, 'postgres'));
  await stop(warm.child);

  console.log(
    `\n${CONNECTIONS} connections, ${SECONDS} s each, ${os.cpus().length} cores, Node ${process.version}`,
  );
  console.log(`before: ${loadBefore}`);
  console.log(`after:  ${machineLoad()}`);
  console.table(results);
  const pacedRow = (name, r) => ({
    endpoint: name,
    requests: r.count,
    'p50 ms': r.p50.toFixed(1),
    'p90 ms': r.p90.toFixed(1),
    'p99 ms': r.p99.toFixed(1),
    'max ms': r.max.toFixed(1),
    'max in flight': r.maxInFlight,
    'send lag p99 ms': r.sendLagP99.toFixed(1),
    errors: r.errors,
  });
  console.log(
    `paced open loop, ${PACED_RATE} req/s evenly spaced, ${PACED_WARMUP_MS / 1000} s warm-up + ${PACED_MEASURED_MS / 1000} s measured, latency from each request's due time:`,
  );
  console.table([pacedRow('GET /api/docs/list (30 files)', pacedList), pacedRow('bare Fastify', pacedBare)]);
  console.log(
    `paced ${PACED_RATE} req/s, p99 (goal: list under 25 ms): list ${pacedList.p99.toFixed(1)} ms, bare ${pacedBare.p99.toFixed(1)} ms,` +
      ` list / bare ${(pacedList.p99 / pacedBare.p99).toFixed(2)}`,
  );
  console.log(`first start (empty DATA_DIR) until /api/me answers: ${first.ms.toFixed(0)} ms`);
  console.log(`warm start until /api/me answers: ${warm.ms.toFixed(0)} ms`);
  console.log(
    `idle memory, server + PostgreSQL (${idle.processes} processes): RSS ${idle.rssMb.toFixed(0)} MB, PSS ${idle.pssMb.toFixed(0)} MB` +
      ` (after the load: RSS ${after.rssMb.toFixed(0)} MB, PSS ${after.pssMb.toFixed(0)} MB)`,
  );
} finally {
  await fs.rm(dataDir, { recursive: true, force: true });
}
