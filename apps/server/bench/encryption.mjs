// Encryption benchmark: what encryption at rest costs the two ways files leave the local store. Two
// production builds run side by side on fresh DATA_DIRs — `node dist/main.js` (every file encrypted,
// AES-256-GCM in 64 KiB chunks) and `bench/serve-unencrypted.mjs` (the same server, files in plain) —
// and each gets the same client of BENCH_FILES × BENCH_FILE_MB PDFs (100 × 2 MB) through the real API.
// Then, after three untimed ZIPs each, BENCH_RUNS (5) times, alternating which server goes first: the client's ZIP (download-all,
// fetched by curl into /dev/null, or node:http where there is no curl) and a view of every file one
// after another (presign-view URLs made beforehand, fetched over one keep-alive connection, bytes
// discarded). Prints per-run throughput and the server's CPU ms per MB, the medians, and the ratios
// encrypted / plain beside the goal (≥ 0.8).
// Not part of the tests: `pnpm --filter @vita-docs/server bench:encryption` (BENCH_CPU_PROF=<dir> profiles both servers).
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { FIXED_CATEGORIES } from '@vita-docs/core';
import {
  MB,
  cpuMs,
  createClient,
  fetchToNowhere,
  goal,
  hasCurl,
  machineLoad,
  median,
  pool,
  randomPdf,
  serverArgs,
  signIn,
  start,
  stop,
  uploadDocument,
} from './harness.mjs';

const FILES = Number(process.env.BENCH_FILES ?? 100);
const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 2);
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 5));
const GOAL = 0.8;
const WARM_UP_ZIPS = 3;

/** GETs every URL in turn over one keep-alive connection, discarding the bytes; total bytes and ms. */
async function viewAll(urls) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let bytes = 0;
  const t0 = performance.now();
  for (const url of urls) {
    bytes += await new Promise((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`view: ${res.statusCode}`));
          let n = 0;
          res.on('data', (chunk) => (n += chunk.length));
          res.on('end', () => resolve(n));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  }
  const ms = performance.now() - t0;
  agent.destroy();
  return { bytes, ms };
}

const cpuProfile = (name) => {
  const dir = process.env.BENCH_CPU_PROF;
  return dir
    ? [
        '--cpu-prof',
        '--cpu-prof-dir',
        path.resolve(dir),
        '--cpu-prof-name',
        `${name}-${Date.now()}.cpuprofile`,
      ]
    : [];
};

const sides = [
  { name: 'encrypted', args: serverArgs() },
  { name: 'plain', args: [...cpuProfile('plain'), 'bench/serve-unencrypted.mjs'] },
];
const dirs = [];
try {
  const loadBefore = machineLoad();
  const fileBytes = Math.round(FILE_MB * MB);
  const files = Array.from({ length: FILES }, (_, i) => ({
    docType: FIXED_CATEGORIES[i % FIXED_CATEGORIES.length],
    filename: `scan-${i}.pdf`,
    bytes: randomPdf(fileBytes),
  }));
  for (const side of sides) {
    // DATA_DIR directly under the temp directory: the embedded PostgreSQL (its own user, when run as root) must reach it.
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `vita-bench-enc-${side.name}-`));
    dirs.push(dataDir);
    side.app = await start(
      side.args,
      { DATA_DIR: dataDir, MAX_UPLOAD_MB: String(Math.ceil(FILE_MB) + 1) },
      '/api/me',
    );
    side.session = await signIn(side.app.url);
    side.clientId = await createClient(side.session);
    process.stdout.write(`${side.name}: uploading ${FILES} × ${FILE_MB} MB …`);
    const agent = new http.Agent({ keepAlive: true });
    const t0 = performance.now();
    const keys = [];
    await pool(files, 4, async (file, i) => {
      keys[i] = await uploadDocument(side.session, side.clientId, file, agent);
    });
    agent.destroy();
    side.keys = keys;
    console.log(` done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const totalBytes = FILES * fileBytes;
  const mbps = (r) => r.bytes / MB / (r.ms / 1000);

  // Untimed ZIPs first: a process's first passes over 200 MB run 20–40 % slower (code not yet
  // optimised, the allocator's memory not yet touched — slow on a VM), whichever store it reads.
  for (let warm = 0; warm < WARM_UP_ZIPS; warm += 1) {
    for (const side of sides) {
      await fetchToNowhere(`${side.app.url}/api/clients/${side.clientId}/docs/download-all`, {
        cookie: side.session.cookieHeader,
      });
    }
  }

  const rows = [];
  for (let run = 1; run <= RUNS; run += 1) {
    // Alternate which side goes first, so neither always meets a warmer or colder machine.
    const order = run % 2 ? sides : [...sides].reverse();
    const row = { run };
    for (const side of order) {
      const cpu0 = await cpuMs(side.app.child.pid);
      const zip = await fetchToNowhere(`${side.app.url}/api/clients/${side.clientId}/docs/download-all`, {
        cookie: side.session.cookieHeader,
      });
      const cpu1 = await cpuMs(side.app.child.pid);
      if (zip.status !== 200 || zip.bytes < totalBytes)
        throw new Error(`${side.name} ZIP: ${zip.status}, ${zip.bytes} bytes`);
      const urls = [];
      for (const key of side.keys) {
        const res = await side.session.call('POST', '/api/docs/presign-view', { key });
        if (!res.ok) throw new Error(`${side.name} presign-view: ${res.status}`);
        urls.push((await res.json()).url);
      }
      const cpu2 = await cpuMs(side.app.child.pid);
      const view = await viewAll(urls);
      const cpu3 = await cpuMs(side.app.child.pid);
      if (view.bytes !== totalBytes) throw new Error(`${side.name} views: ${view.bytes} bytes`);
      row[`ZIP ${side.name} MB/s`] = mbps(zip);
      row[`view ${side.name} MB/s`] = mbps(view);
      row[`ZIP ${side.name} CPU ms/MB`] = (cpu1 - cpu0) / (zip.bytes / MB);
      row[`view ${side.name} CPU ms/MB`] = (cpu3 - cpu2) / (view.bytes / MB);
    }
    row['ZIP ratio'] = row['ZIP encrypted MB/s'] / row['ZIP plain MB/s'];
    row['view ratio'] = row['view encrypted MB/s'] / row['view plain MB/s'];
    rows.push(row);
  }
  const loadAfter = machineLoad();

  const columns = [
    ['ZIP encrypted MB/s', 0],
    ['ZIP plain MB/s', 0],
    ['ZIP ratio', 2],
    ['view encrypted MB/s', 0],
    ['view plain MB/s', 0],
    ['view ratio', 2],
    ['ZIP encrypted CPU ms/MB', 2],
    ['ZIP plain CPU ms/MB', 2],
    ['view encrypted CPU ms/MB', 2],
    ['view plain CPU ms/MB', 2],
  ];
  const medianRow = {
    run: 'median',
    ...Object.fromEntries(columns.map(([k]) => [k, median(rows.map((r) => r[k]))])),
  };
  const fmt = (r) => ({
    run: r.run,
    ...Object.fromEntries(columns.map(([k, d]) => [k, Number(r[k].toFixed(d))])),
  });
  const zipRatio = medianRow['ZIP encrypted MB/s'] / medianRow['ZIP plain MB/s'];
  const viewRatio = medianRow['view encrypted MB/s'] / medianRow['view plain MB/s'];

  console.log(
    `\n${FILES} files × ${FILE_MB} MB = ${(totalBytes / MB).toFixed(0)} MB per ZIP and per round of views (1 MB = 2^20 bytes),` +
      ` ${RUNS} runs alternating which server goes first; ZIP client: ${hasCurl ? 'curl -o /dev/null' : 'node:http, bytes discarded'};` +
      ` views: one keep-alive node:http connection; ${os.cpus().length} cores, Node ${process.version}`,
  );
  console.log(`before: ${loadBefore}`);
  console.log(`after:  ${loadAfter}`);
  console.table([...rows.map(fmt), fmt(medianRow)]);
  console.table([
    {
      figure: 'ZIP encrypted / plain (medians)',
      value: zipRatio.toFixed(2),
      goal: `≥ ${GOAL}`,
      result: goal(zipRatio >= GOAL),
    },
    {
      figure: 'view encrypted / plain (medians)',
      value: viewRatio.toFixed(2),
      goal: `≥ ${GOAL}`,
      result: goal(viewRatio >= GOAL),
    },
  ]);
} finally {
  for (const side of sides) if (side.app) await stop(side.app.child);
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
}
