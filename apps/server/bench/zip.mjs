// Download-all benchmark: a client of BENCH_FILES × BENCH_FILE_MB PDFs (200 × 2 MB), uploaded through
// the real API (presign, PUT, complete) into the production build (`node dist/main.js`) on a fresh
// DATA_DIR, then zipped by it; the baseline, measured in the same run, is the same number of bytes as
// one file on disk served by a plain node:http server (`fs.createReadStream(file).pipe(res)`).
// Both are fetched by curl into /dev/null (Node's http.get discarding the bytes where there is no
// curl), alternating baseline and ZIP, BENCH_RUNS (3) times each; the client's files are uploaded
// BENCH_CONCURRENCY (4) at a time. Prints per-run and median throughput, the ratio ZIP/baseline, the
// ZIP's time to first byte and the server's RSS growth while zipping (VmRSS sampled every 50 ms,
// peak − before), each beside its goal.
// Not part of the tests: `pnpm --filter @vita-docs/server bench:zip` (BENCH_CPU_PROF=<dir> profiles the server).
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { FIXED_CATEGORIES } from '@vita-docs/core';
import {
  MB,
  createClient,
  fetchToNowhere,
  goal,
  hasCurl,
  machineLoad,
  median,
  pool,
  randomPdf,
  rssKb,
  sampleRss,
  serverArgs,
  signIn,
  start,
  stop,
  uploadDocument,
} from './harness.mjs';

const FILES = Number(process.env.BENCH_FILES ?? 200);
const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 2);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const UPLOAD_CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const GOAL = { ratio: 0.85, firstByteMs: 50, rssGrowthMb: 32 };

const BASELINE = `
  import fs from 'node:fs';
  import http from 'node:http';
  const file = process.env.BASELINE_FILE;
  const size = fs.statSync(file).size;
  http.createServer((req, res) => {
    if (req.url !== '/file') return res.writeHead(204).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size) });
    fs.createReadStream(file).pipe(res);
  }).listen(Number(process.env.PORT), '127.0.0.1');
`;

const round = (n, digits) => Number(n.toFixed(digits));
const mbps = (r) => r.bytes / MB / (r.ms / 1000);

// DATA_DIR directly under the temp directory: the embedded PostgreSQL (its own user, when run as root) must reach it.
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-bench-zip-'));
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-bench-zip-baseline-'));
const baselineFile = path.join(work, 'baseline.bin');
let app;
let baseline;
try {
  const loadBefore = machineLoad();
  app = await start(
    serverArgs(),
    { DATA_DIR: dataDir, MAX_UPLOAD_MB: String(Math.ceil(FILE_MB) + 1) },
    '/api/me',
  );
  const session = await signIn(app.url);
  const clientId = await createClient(session);

  // Every file different (so none is a duplicate of another); the baseline file is the same bytes.
  process.stdout.write(`uploading ${FILES} × ${FILE_MB} MB through presign + PUT + complete …`);
  const agent = new http.Agent({ keepAlive: true });
  const baselineOut = await fs.open(baselineFile, 'w');
  const files = Array.from({ length: FILES }, (_, i) => ({
    docType: FIXED_CATEGORIES[i % FIXED_CATEGORIES.length],
    filename: `scan-${i}.pdf`,
  }));
  const fileBytes = Math.round(FILE_MB * MB);
  const totalBytes = FILES * fileBytes;
  const t0 = performance.now();
  await pool(files, UPLOAD_CONCURRENCY, async (file, i) => {
    const bytes = randomPdf(fileBytes);
    await baselineOut.write(bytes, 0, bytes.length, i * fileBytes);
    await uploadDocument(session, clientId, { ...file, bytes }, agent);
  });
  agent.destroy();
  await baselineOut.sync();
  await baselineOut.close();
  console.log(` done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  baseline = await start(['--input-type=module', '-e', BASELINE], { BASELINE_FILE: baselineFile }, '/ready');
  const zipUrl = `${app.url}/api/clients/${clientId}/docs/download-all`;
  const cookie = session.cookieHeader;

  const rows = [];
  for (let run = 1; run <= RUNS; run += 1) {
    const base = await fetchToNowhere(`${baseline.url}/file`);
    if (base.status !== 200 || base.bytes !== totalBytes)
      throw new Error(`baseline: ${base.status}, ${base.bytes} bytes`);

    const before = await rssKb(app.child.pid);
    const sampler = sampleRss(app.child.pid, 50);
    const zip = await fetchToNowhere(zipUrl, { cookie });
    const peak = await sampler.stop();
    if (zip.status !== 200 || zip.bytes < totalBytes)
      throw new Error(`ZIP: ${zip.status}, ${zip.bytes} bytes`);

    rows.push({
      run,
      'baseline MB/s': mbps(base),
      'ZIP MB/s': mbps(zip),
      'ZIP/baseline': mbps(zip) / mbps(base),
      'ZIP first byte ms': zip.firstByteMs,
      'RSS before MB': before / 1024,
      'RSS growth MB': (Math.max(peak, before) - before) / 1024,
      zipBytes: zip.bytes,
    });
  }
  const loadAfter = machineLoad();

  const med = (k) => median(rows.map((r) => r[k]));
  const medians = {
    baseline: med('baseline MB/s'),
    zip: med('ZIP MB/s'),
    firstByte: med('ZIP first byte ms'),
    rssGrowth: med('RSS growth MB'),
  };
  const ratio = medians.zip / medians.baseline;
  const worstRss = Math.max(...rows.map((r) => r['RSS growth MB']));
  const digits = {
    'baseline MB/s': 0,
    'ZIP MB/s': 0,
    'ZIP/baseline': 2,
    'ZIP first byte ms': 1,
    'RSS before MB': 0,
    'RSS growth MB': 1,
  };
  const fmt = (r) => ({
    run: r.run,
    ...Object.fromEntries(Object.entries(digits).map(([k, d]) => [k, round(r[k], d)])),
  });

  console.log(
    `\n${FILES} files × ${FILE_MB} MB = ${(totalBytes / MB).toFixed(0)} MB (1 MB = 2^20 bytes; ZIP ${(rows[0].zipBytes / MB).toFixed(1)} MB),` +
      ` ${RUNS} alternating runs, client: ${hasCurl ? 'curl -o /dev/null' : 'node:http, bytes discarded'},` +
      ` ${os.cpus().length} cores, Node ${process.version}`,
  );
  console.log(`before: ${loadBefore}`);
  console.log(`after:  ${loadAfter}`);
  console.table([
    ...rows.map(fmt),
    fmt({
      run: 'median',
      'baseline MB/s': medians.baseline,
      'ZIP MB/s': medians.zip,
      'ZIP/baseline': ratio,
      'ZIP first byte ms': medians.firstByte,
      'RSS before MB': med('RSS before MB'),
      'RSS growth MB': medians.rssGrowth,
    }),
  ]);
  console.table([
    {
      figure: 'ZIP/baseline (medians)',
      value: ratio.toFixed(2),
      goal: `≥ ${GOAL.ratio}`,
      result: goal(ratio >= GOAL.ratio),
    },
    {
      figure: 'ZIP first byte (median)',
      value: `${medians.firstByte.toFixed(1)} ms`,
      goal: `< ${GOAL.firstByteMs} ms`,
      result: goal(medians.firstByte < GOAL.firstByteMs),
    },
    {
      figure: 'server RSS growth (worst run)',
      value: `${worstRss.toFixed(1)} MB`,
      goal: `≤ ${GOAL.rssGrowthMb} MB`,
      result: goal(worstRss <= GOAL.rssGrowthMb),
    },
  ]);
} finally {
  if (baseline) await stop(baseline.child);
  if (app) await stop(app.child);
  await fs.rm(work, { recursive: true, force: true });
  await fs.rm(dataDir, { recursive: true, force: true });
}
