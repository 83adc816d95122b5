// Upload benchmark: BENCH_UPLOADS × BENCH_FILE_MB PDFs (50 × 2 MB) stored through the real API
// (presign with size and SHA-256, PUT to the signed URL, complete) by the production build
// (`node dist/main.js`) on a fresh DATA_DIR, BENCH_CONCURRENCY (4) at a time. The baseline, measured
// in the same run with the same client, concurrency and bytes: a raw node:http server that receives
// each PUT and writes the body to a file (then fsync of the file and of its directory, as the store
// does). After one untimed run of each, BENCH_RUNS (5) runs alternating which goes first; prints
// MB/s of each, the ratio beside its goal, the median time of each step of an upload through the
// API, and the CPU time the servers, PostgreSQL and this client used per run.
// Not part of the tests: `pnpm --filter @vita-docs/server bench:upload` (BENCH_CPU_PROF=<dir> profiles the server).
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  MB,
  createClient,
  goal,
  machineLoad,
  measureCpu,
  median,
  pool,
  postgresPids,
  put,
  randomPdf,
  serverArgs,
  sha256,
  signIn,
  start,
  stop,
  uploadDocument,
} from './harness.mjs';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 50);
const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GOAL_RATIO = 0.8;

const BASELINE = `
  import fs from 'node:fs/promises';
  import http from 'node:http';
  import path from 'node:path';
  const dir = process.env.BASELINE_DIR;
  async function receive(req, file) {
    const handle = await fs.open(file, 'wx', 0o600);
    let size = 0;
    try {
      for await (const chunk of req) {
        size += chunk.length;
        let offset = 0;
        while (offset < chunk.length) offset += (await handle.write(chunk, offset)).bytesWritten;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    const d = await fs.open(dir, 'r');
    await d.sync().finally(() => d.close());
    return size;
  }
  http.createServer((req, res) => {
    if (req.method !== 'PUT') return res.writeHead(204).end();
    receive(req, path.join(dir, path.basename(req.url))).then(
      (size) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ size })),
      (err) => res.writeHead(500).end(String(err)),
    );
  }).listen(Number(process.env.PORT), '127.0.0.1');
`;

// DATA_DIR directly under the temp directory: the embedded PostgreSQL (its own user, when run as root) must reach it.
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-bench-upload-'));
const baselineDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-bench-upload-baseline-'));
let app;
let baseline;
try {
  const loadBefore = machineLoad();
  app = await start(
    serverArgs(),
    { DATA_DIR: dataDir, MAX_UPLOAD_MB: String(Math.ceil(FILE_MB) + 1) },
    '/api/me',
  );
  baseline = await start(['--input-type=module', '-e', BASELINE], { BASELINE_DIR: baselineDir }, '/ready');
  const session = await signIn(app.url);
  const clientId = await createClient(session);

  const fileBytes = Math.round(FILE_MB * MB);
  const totalBytes = UPLOADS * fileBytes;
  const bodies = Array.from({ length: UPLOADS }, () => randomPdf(fileBytes));
  const mbps = (ms) => totalBytes / MB / (ms / 1000);
  const timings = { presign: [], put: [], complete: [] };

  const baselineRun = async (run) => {
    const agent = new http.Agent({ keepAlive: true });
    const measured = await measureCpu([baseline.child.pid], () =>
      pool(bodies, CONCURRENCY, async (bytes, i) => {
        const res = await put(
          `${baseline.url}/put/${run}-${i}.pdf`,
          { 'content-type': 'application/pdf' },
          bytes,
          agent,
        );
        if (res.status !== 200 || JSON.parse(res.text).size !== bytes.length)
          throw new Error(`baseline PUT: ${res.status} ${res.text}`);
      }),
    );
    agent.destroy();
    return { ms: measured.ms, serverCpu: measured.cpu[0], postgresCpu: 0, clientCpu: measured.clientCpu };
  };

  const appRun = async (run) => {
    // Digests as the app's clients compute them before presigning: not the server's time.
    const files = bodies.map((bytes, i) => ({
      docType: 'Banking Info',
      filename: `upload-${run}-${i}.pdf`,
      bytes,
      sha256: sha256(bytes),
    }));
    const agent = new http.Agent({ keepAlive: true });
    const postgres = await postgresPids(path.join(dataDir, 'postgres'));
    const measured = await measureCpu([app.child.pid, ...postgres], () =>
      pool(files, CONCURRENCY, (file) => uploadDocument(session, clientId, file, agent, timings)),
    );
    agent.destroy();
    const [serverCpu, ...postgresCpu] = measured.cpu;
    return {
      ms: measured.ms,
      serverCpu,
      postgresCpu: postgresCpu.reduce((a, b) => a + b, 0),
      clientCpu: measured.clientCpu,
    };
  };

  // One untimed run of each first: a fresh process's first uploads run slower (code not yet
  // optimised, the allocator's memory not yet touched — slow on a VM).
  for (const bytes of bodies) bytes.writeUInt32BE(0xffffffff, 9);
  await baselineRun('warm');
  await appRun('warm');
  timings.presign.length = timings.put.length = timings.complete.length = 0;
  for (const name of await fs.readdir(baselineDir)) await fs.rm(path.join(baselineDir, name));

  const rows = [];
  const cpu = { baseline: [], api: [] };
  for (let run = 1; run <= RUNS; run += 1) {
    // Each run's files differ from the last run's (so none is a duplicate); both sides get the same bytes.
    for (const bytes of bodies) bytes.writeUInt32BE(run, 9);
    // Alternate which side goes first, so neither always meets a warmer or colder machine.
    let base;
    let api;
    if (run % 2) {
      base = await baselineRun(run);
      api = await appRun(run);
    } else {
      api = await appRun(run);
      base = await baselineRun(run);
    }
    cpu.baseline.push(base);
    cpu.api.push(api);
    rows.push({
      run,
      'baseline MB/s': mbps(base.ms),
      'API MB/s': mbps(api.ms),
      'API/baseline': base.ms / api.ms,
    });
    for (const name of await fs.readdir(baselineDir)) await fs.rm(path.join(baselineDir, name));
  }
  const loadAfter = machineLoad();

  const med = (k) => median(rows.map((r) => r[k]));
  const ratio = med('API MB/s') / med('baseline MB/s');
  const round = (n, digits) => Number(n.toFixed(digits));
  const fmt = (r) => ({
    run: r.run,
    'baseline MB/s': round(r['baseline MB/s'], 0),
    'API MB/s': round(r['API MB/s'], 0),
    'API/baseline': round(r['API/baseline'], 2),
  });

  console.log(
    `\n${UPLOADS} uploads × ${FILE_MB} MB = ${(totalBytes / MB).toFixed(0)} MB per run (1 MB = 2^20 bytes), ${CONCURRENCY} at a time,` +
      ` ${RUNS} alternating runs, ${os.cpus().length} cores, Node ${process.version}`,
  );
  console.log(`before: ${loadBefore}`);
  console.log(`after:  ${loadAfter}`);
  console.table([
    ...rows.map(fmt),
    fmt({
      run: 'median',
      'baseline MB/s': med('baseline MB/s'),
      'API MB/s': med('API MB/s'),
      'API/baseline': ratio,
    }),
  ]);
  console.table([
    {
      figure: 'API/baseline (medians)',
      value: ratio.toFixed(2),
      goal: `≥ ${GOAL_RATIO}`,
      result: goal(ratio >= GOAL_RATIO),
    },
  ]);
  console.log(
    `one upload through the API, median of ${timings.put.length}: presign ${median(timings.presign).toFixed(1)} ms,` +
      ` PUT ${median(timings.put).toFixed(1)} ms, complete ${median(timings.complete).toFixed(1)} ms`,
  );
  const cpuRow = (side, runs) => {
    const m = (k) => median(runs.map((r) => r[k]));
    return {
      side,
      'wall ms': Math.round(m('ms')),
      'server CPU ms': Math.round(m('serverCpu')),
      'PostgreSQL CPU ms': Math.round(m('postgresCpu')),
      'server CPU ms per upload': round(m('serverCpu') / UPLOADS, 1),
      'client CPU ms (this process)': Math.round(m('clientCpu')),
    };
  };
  console.log(
    `CPU time per run (medians; ${os.cpus().length} cores = ${os.cpus().length * 1000} CPU ms per wall second):`,
  );
  console.table([cpuRow('baseline', cpu.baseline), cpuRow('API', cpu.api)]);
} finally {
  if (baseline) await stop(baseline.child);
  if (app) await stop(app.child);
  await fs.rm(baselineDir, { recursive: true, force: true });
  await fs.rm(dataDir, { recursive: true, force: true });
}
