// Download-all benchmark: a generated client of ~1 GB (500 files × 2 MB) zipped by the real server
// process, against a raw sequential read of the same files measured in the same run.
// Prints throughput, the ratio, time to first byte and the server's peak RSS. Not part of the tests.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startTestServer } from '@vita-docs/test-server';
import { Session } from './session.mjs';

const FILES = Number(process.env.BENCH_FILES ?? 500);
const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 2);
const CATEGORIES = ['13614-C', 'Michigan/Locality Intake', 'License/Other Identification', 'Digital Consent Form', 'Banking Info'];

function rssKb(pid) {
  return fs
    .readFile(`/proc/${pid}/status`, 'utf8')
    .then((s) => Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0))
    .catch(() => 0);
}

async function walk(dir) {
  const out = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else out.push(p);
  }
  return out;
}

const server = await startTestServer({ env: { MAX_UPLOAD_MB: String(FILE_MB + 1), LOG_LEVEL: 'warn' } });
try {
  const s = new Session(server.url);
  await s.call('GET', '/api/me');
  await s.call('POST', '/api/auth/register', { firstName: 'Bench', lastName: 'Admin', email: 'bench@example.org', pin: 'bench pin 123' });
  await s.call('POST', '/api/auth/login-init', { email: 'bench@example.org', pin: 'bench pin 123' });
  await s.call('POST', '/api/auth/login-verify', { email: 'bench@example.org', code: await server.latestCode('bench@example.org') });
  const client = await (await s.call('POST', '/api/clients/new', { firstName: 'Big', lastName: 'Client', email: 'big@example.org', phone: '555 010 0100' })).json();
  const id = client.client.clientId;

  const head = Buffer.from('%PDF-1.7\n');
  const body = Buffer.concat([head, randomBytes(FILE_MB * 1024 * 1024 - head.length)]);
  process.stdout.write(`uploading ${FILES} × ${FILE_MB} MB …`);
  for (let i = 0; i < FILES; i += 1) {
    const docType = CATEGORIES[i % CATEGORIES.length];
    const presign = await (await s.call('POST', `/api/docs/presign/${id}`, { docType, filename: `scan-${i}.pdf`, contentType: 'application/pdf' })).json();
    const put = await fetch(presign.url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body });
    if (!put.ok) throw new Error(`upload ${i}: ${put.status}`);
  }
  console.log(' done');

  const files = (await walk(path.join(server.dataDir, 'files', id))).filter((f) => !f.includes(`${path.sep}.`));
  const totalBytes = (await Promise.all(files.map((f) => fs.stat(f)))).reduce((n, st) => n + st.size, 0);

  const rawRead = async () => {
    const t0 = performance.now();
    let n = 0;
    for (const f of files) {
      const h = await fs.open(f);
      for await (const chunk of h.createReadStream({ highWaterMark: 256 * 1024 })) n += chunk.length;
    }
    return { ms: performance.now() - t0, bytes: n };
  };

  const zip = async () => {
    const rssBefore = await rssKb(server.pid);
    let peak = rssBefore;
    const sampler = setInterval(async () => {
      peak = Math.max(peak, await rssKb(server.pid));
    }, 25);
    // node:http rather than fetch: the client should cost as little as possible, so the figure is the server's.
    const t0 = performance.now();
    const cookie = s.cookieHeader;
    const { ttfb, n } = await new Promise((resolve, reject) => {
      http
        .get(`${server.url}/api/clients/${id}/docs/download-all`, { headers: { cookie } }, (res) => {
          let first = 0;
          let bytes = 0;
          res.on('data', (chunk) => {
            if (!first) first = performance.now() - t0;
            bytes += chunk.length;
          });
          res.on('end', () => resolve({ ttfb: first, n: bytes }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
    const ms = performance.now() - t0;
    clearInterval(sampler);
    return { ms, bytes: n, ttfb, rssBefore, peak };
  };

  const raw1 = await rawRead();
  const z = await zip();
  const raw2 = await rawRead();
  const rawMs = Math.min(raw1.ms, raw2.ms);
  const mbps = (bytes, ms) => bytes / (1024 * 1024) / (ms / 1000);
  console.log(`files: ${files.length}, data: ${(totalBytes / 1024 ** 3).toFixed(2)} GiB`);
  console.log(`raw sequential read (best of 2): ${mbps(raw1.bytes, rawMs).toFixed(0)} MB/s`);
  console.log(`download-all over HTTP:          ${mbps(z.bytes, z.ms).toFixed(0)} MB/s (${(z.ms / 1000).toFixed(1)} s, ${(z.bytes / 1024 ** 3).toFixed(2)} GiB)`);
  console.log(`ratio zip / raw:                 ${(mbps(z.bytes, z.ms) / mbps(raw1.bytes, rawMs)).toFixed(2)}×`);
  console.log(`time to first byte:              ${z.ttfb.toFixed(0)} ms`);
  console.log(`server RSS: ${(z.rssBefore / 1024).toFixed(0)} MB before, peak ${(z.peak / 1024).toFixed(0)} MB during (+${((z.peak - z.rssBefore) / 1024).toFixed(0)} MB)`);
} finally {
  await server.stop({ keepData: false });
}
