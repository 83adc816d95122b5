// API benchmark: the production build (`node dist/main.js`) on its embedded PostgreSQL against a bare
// Fastify route returning the same kind of 30-item JSON list, measured in the same run with the same
// load generator. Prints req/s, the ratio to the bare route, latencies and errors per endpoint; the
// idle memory of the server plus every PostgreSQL process; first and warm start times.
// The list also runs paced at PACED_RATE req/s (latency goal: p99 under 25 ms), and so does the bare
// route right after it: the bare route's paced p99 is what this machine can do at that rate, and the
// ratio of the two is the list's own share.
// Not part of the tests: `pnpm --filter @vita-docs/server bench:api` (BENCH_SECONDS, BENCH_CONNECTIONS;
// BENCH_CPU_PROF=<dir> profiles the server).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
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

/**
 * autocannon's run; `raw` is every response's own latency in ms. A paced run's percentiles
 * (`latency`) are corrected for coordinated omission with an expected interval of
 * `ceil(1 / per-connection rate)` = 1 ms, so a response of n ms counts n times: `raw` beside them
 * says how much of a paced p99 is that correction.
 */
function load(url, headers = {}, pace = {}) {
  return new Promise((resolve, reject) => {
    const raw = [];
    const run = autocannon(
      { url, connections: CONNECTIONS, duration: SECONDS, headers, ...pace },
      (err, result) => (err ? reject(err) : resolve({ ...result, raw })),
    );
    run.on('response', (_client, _status, _bytes, ms) => raw.push(ms));
  });
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
  // null: a paced run, whose rate is set, not measured.
  'ratio to bare': bare === null ? '—' : bare ? (r.requests.average / bare).toFixed(3) : '1',
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
  // autocannon paces per connection and per second: each of the 20 sends its 15 requests of the
  // second back to back, then waits for the next second. So a paced run is a burst of 300 requests at
  // 20 in flight once a second, and its latency is 20 / the route's req/s at that concurrency, plus
  // whatever stalls during the burst.
  const pace = { connections: 20, overallRate: PACED_RATE };
  const pacedList = await load(listUrl, headers, pace);
  results.push(row(`GET /api/docs/list paced, ${PACED_RATE} req/s`, pacedList, null));
  // The same pace on the bare route (idle since its own run), straight after: this machine's floor.
  const pacedBare = await load(`${bare.url}/bare`, {}, pace);
  await stop(bare.child);
  results.push(row(`bare Fastify paced, ${PACED_RATE} req/s`, pacedBare, null));
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
  const ratio = (a, b) => (a / b).toFixed(2);
  const rawList = percentile(pacedList.raw, 99);
  const rawBare = percentile(pacedBare.raw, 99);
  console.log(
    `paced ${PACED_RATE} req/s, p99 (goal: list under 25 ms): list ${pacedList.latency.p99} ms, bare ${pacedBare.latency.p99} ms,` +
      ` list / bare ${ratio(pacedList.latency.p99, pacedBare.latency.p99)}` +
      ` (uncorrected: list ${rawList.toFixed(1)} ms, bare ${rawBare.toFixed(1)} ms, ${ratio(rawList, rawBare)})`,
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
