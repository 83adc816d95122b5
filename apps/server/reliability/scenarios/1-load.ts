/**
 * Load — a programme's busiest hour: every volunteer of a large site works at once through the same
 * calls the app makes: dashboard, a client, a category, an upload, sometimes a rename, a preview, a
 * delete, and now and then the client's ZIP. Twice on one server: first at a person's pace (1–3 s
 * between clicks — a volunteer helping a client at the desk clicks far less often), where nothing may
 * fail and the JSON calls must stay quick; then the same volunteers without any pause, which measures
 * what the server can take (there, by Little's law, each request waits about volunteers ÷ throughput
 * whatever the server does, so its latencies are reported, not held to the goal).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FIXED_CATEGORIES, uploadToPresignedUrl, type FileLike } from '@vita-docs/core';
import {
  MB,
  cpuSeconds,
  machineCpuSeconds,
  createRecorder,
  errorLines,
  freshDataDir,
  latencySummary,
  newClient,
  percentile,
  postgresCpuSeconds,
  randomPdf,
  setUpProgramme,
  sha256,
  startServer,
  upload,
  watchRss,
  type Browser,
  type Recorder,
  type Scenario,
  type ServerProcess,
} from '../harness.js';

/** Families the report gives percentiles for, in its order. */
export const FAMILIES = ['JSON reads', 'JSON writes', 'upload PUT', 'view GET', 'ZIP'] as const;
const JSON_FAMILIES = ['JSON reads', 'JSON writes'] as const;
/** The goal for every JSON call. */
export const JSON_P99_GOAL_MS = 100;
/** No single request may take longer; past this it counts as an error (a timeout). */
const REQUEST_TIMEOUT_MS = 30_000;

/** A failed request to a URL the API handed out (the typed client raises its own errors). */
class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const signal = () => AbortSignal.timeout(REQUEST_TIMEOUT_MS);

/** Reads a whole answer from a URL the API handed out; fails on a non-OK status. */
async function fetchBytes(browser: Browser, url: string): Promise<Buffer> {
  const res = await browser.fetch(url, { credentials: 'omit', signal: signal() });
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new HttpFailure(res.status, body.toString('utf8').slice(0, 200));
  return body;
}

const asPdf = (name: string, bytes: Buffer): FileLike => ({
  name,
  type: 'application/pdf',
  size: bytes.length,
  arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
});

/** A ready PDF: its bytes and their SHA-256. */
export interface Pdf {
  bytes: Buffer;
  sha256: string;
}

/**
 * PDFs of 1–3 MB made before the clock starts: making random bytes and hashing them takes the load
 * generator several milliseconds per file, and it shares the CPUs with the server it measures.
 */
export function pdfPool(count: number): Pdf[] {
  return Array.from({ length: count }, () => {
    const bytes = randomPdf(MB + Math.floor(Math.random() * 2 * MB));
    return { bytes, sha256: sha256(bytes) };
  });
}

/** How one volunteer works. */
export interface WorkOptions {
  /** What it uploads, one after the other. */
  pdfs: readonly Pdf[];
  /** Every this many loops the client's ZIP is downloaded; 0 never. */
  zipEvery: number;
  /** Where in that cycle this volunteer starts, so the ZIPs of many volunteers spread out rather than come together. */
  offset: number;
  /** Every this many loops the upload is renamed. */
  renameEvery: number;
  /** A person's pause before each click, drawn evenly from [least, most] ms; none when absent. */
  pauseMs?: readonly [number, number];
}

/** What the volunteers did, beyond the recorder's requests. */
export interface WorkCounts {
  loops: number;
  uploads: number;
  uploadedBytes: number;
  zips: number;
  zipBytes: number;
}

export const newCounts = (): WorkCounts => ({ loops: 0, uploads: 0, uploadedBytes: 0, zips: 0, zipBytes: 0 });

/**
 * One volunteer's loop until `until` (ms since the epoch), on its own client: each loop is a whole
 * visit, finished even past `until` so its upload is deleted again. A failed step is recorded and
 * ends that loop; the next one starts from the dashboard, as a volunteer would after an error.
 */
export async function workLoop(
  volunteer: Browser,
  clientId: string,
  recorder: Recorder,
  counts: WorkCounts,
  until: number,
  options: WorkOptions,
): Promise<void> {
  const { api } = volunteer;
  const read = <T>(endpoint: string, work: () => Promise<T>) => recorder.time('JSON reads', endpoint, work);
  const write = <T>(endpoint: string, work: () => Promise<T>) => recorder.time('JSON writes', endpoint, work);
  const params = { id: clientId };
  const [least, most] = options.pauseMs ?? [0, 0];
  /** The time a person takes to look and click; none once the run is over, so the last loop ends soon. */
  const click = async () => {
    const ms = Math.min(least + Math.random() * (most - least), Math.max(0, until - Date.now()));
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  };
  // People do not all start at the same second: each starts somewhere within its first loop's pauses
  // (within the first half of a short run).
  if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(most * 5, (until - Date.now()) / 2)));
  for (let loop = 0; Date.now() < until; loop += 1) {
    counts.loops += 1;
    try {
      await click(); // the dashboard
      await read('me', () => api.me(undefined, { signal: signal() }));
      await read('listClients', () => api.listClients(undefined, { signal: signal() }));
      await click(); // a client
      const { types } = await read('docTypes', () => api.docTypes({ params }, { signal: signal() }));
      await read('docStatus', () => api.docStatus({ params }, { signal: signal() }));
      const docType = types[loop % types.length] ?? FIXED_CATEGORIES[0];
      await click(); // a category
      await read('listDocs', () => api.listDocs({ params, query: { docType } }, { signal: signal() }));

      // The app's upload: presign with size and SHA-256, PUT to the URL, complete.
      const pdf = options.pdfs[(loop + options.offset) % options.pdfs.length];
      if (!pdf) throw new Error('no PDFs to upload');
      const { bytes } = pdf;
      await click(); // Upload files
      const presigned = await write('presignUpload', () =>
        api.presignUpload(
          { params, body: { docType, filename: `scan ${loop}.pdf`, contentType: 'application/pdf', size: bytes.length, sha256: pdf.sha256 } },
          { signal: signal() },
        ),
      );
      await recorder.time('upload PUT', 'PUT upload', () =>
        uploadToPresignedUrl(presigned.url, asPdf(`scan ${loop}.pdf`, bytes), {
          fetch: (url, init) => volunteer.fetch(url, { ...init, signal: signal() }),
          ...(presigned.headers ? { headers: presigned.headers } : {}),
        }),
      );
      await write('completeUpload', () => api.completeUpload({ body: { key: presigned.key } }, { signal: signal() }));
      counts.uploads += 1;
      counts.uploadedBytes += bytes.length;
      let key = presigned.key;

      // Renames spread over the volunteers like their ZIPs, rather than everyone renaming in the same loop.
      if (options.renameEvery > 0 && (loop + options.offset) % options.renameEvery === options.renameEvery - 1) {
        await click();
        const renamed = await write('renameDoc', () => api.renameDoc({ body: { key, filename: `renamed ${loop}` } }, { signal: signal() }));
        key = renamed.newKey;
      }

      await click(); // View
      const view = await write('presignView', () => api.presignView({ body: { key } }, { signal: signal() }));
      const seen = await recorder.time('view GET', 'GET view', () => fetchBytes(volunteer, view.url));
      if (seen.length !== bytes.length) throw new Error(`the preview was ${seen.length} bytes, not ${bytes.length}`);

      if (options.zipEvery > 0 && (loop + options.offset) % options.zipEvery === options.zipEvery - 1) {
        await click();
        const zip = await recorder.time('ZIP', 'downloadAll', async () => {
          const res = await api.downloadAll({ params, query: {} }, { signal: signal() });
          return Buffer.from(await res.arrayBuffer());
        });
        counts.zips += 1;
        counts.zipBytes += zip.length;
      }

      await click(); // Delete
      await write('deleteDocs', () => api.deleteDocs({ body: { keys: [key] } }, { signal: signal() }));
    } catch {
      // Recorded by the recorder (or below); the volunteer starts over.
    }
  }
}

/** Each volunteer's client, with one document already in it so its ZIP holds something. */
export async function clientsFor(volunteers: readonly Browser[]): Promise<string[]> {
  const clients: string[] = [];
  // A few at a time: setting up is not what is measured, but it should not take all day either.
  for (let i = 0; i < volunteers.length; i += 10) {
    const batch = volunteers.slice(i, i + 10);
    clients.push(
      ...(await Promise.all(
        batch.map(async (volunteer, j) => {
          const clientId = await newClient(volunteer, `Load ${i + j}`);
          await upload(volunteer, clientId, FIXED_CATEGORIES[0], 'intake.pdf', randomPdf(MB));
          return clientId;
        }),
      )),
    );
  }
  return clients;
}

/** "JSON reads 12 000 × p50 … ms" for each family that had requests. */
export function familyLines(recorder: Recorder): string[] {
  return FAMILIES.filter((family) => recorder.families.has(family)).map(
    (family) => `${family} ${recorder.families.get(family)?.length ?? 0} × ${latencySummary(recorder.families.get(family) ?? [])}`,
  );
}

/** One timed run of every volunteer's loop on a server already set up. */
interface Phase {
  recorder: Recorder;
  counts: WorkCounts;
  wall: number;
  /** "JSON reads 12 000 × p50 …" per family, then the CPU and memory lines. */
  lines: string[];
  summary: string;
}

async function runPhase(
  server: ServerProcess,
  volunteers: readonly Browser[],
  clients: readonly string[],
  pdfs: readonly Pdf[],
  seconds: number,
  pauseMs: readonly [number, number] | undefined,
): Promise<Phase> {
  const recorder = createRecorder();
  const counts = newCounts();
  const rss = await watchRss(server, 500);
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const cpuBefore = {
    server: await cpuSeconds(server.child.pid ?? 0),
    postgres: await postgresCpuSeconds(server.dataDir),
    generator: process.cpuUsage(),
    machine: await machineCpuSeconds(),
  };
  const began = performance.now();
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    volunteers.map((volunteer, i) =>
      workLoop(volunteer, clients[i] ?? '', recorder, counts, until, { pdfs, zipEvery: 20, offset: i, renameEvery: 5, ...(pauseMs ? { pauseMs } : {}) }),
    ),
  );
  const wall = (performance.now() - began) / 1000;
  lag.disable();
  const generatorCpu = process.cpuUsage(cpuBefore.generator);
  const cpu = {
    server: (await cpuSeconds(server.child.pid ?? 0)) - cpuBefore.server,
    postgres: (await postgresCpuSeconds(server.dataDir)) - cpuBefore.postgres,
    generator: (generatorCpu.user + generatorCpu.system) / 1e6,
    machine: (await machineCpuSeconds()) - cpuBefore.machine,
  };
  // Whatever else ran on the machine meanwhile (other people's builds and tests share these cores).
  const others = Math.max(0, cpu.machine - cpu.server - cpu.postgres - cpu.generator);
  const memory = await rss.stop();
  const requests = recorder.requests();
  const families = familyLines(recorder);
  const cpuLine =
    `CPU over ${wall.toFixed(0)} s (${(2 * wall).toFixed(0)} core-s on 2 cores): server ${cpu.server.toFixed(0)} s, ` +
    `PostgreSQL ${cpu.postgres.toFixed(0)} s, load generator ${cpu.generator.toFixed(0)} s, other processes ${others.toFixed(0)} s; ` +
    `generator event-loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms`;
  const memoryLine = `server RSS ${memory.before.toFixed(0)} MB before, ${memory.peak.toFixed(0)} MB peak, ${memory.after.toFixed(0)} MB after`;
  const endpointLines = [...recorder.endpoints.entries()].map(([name, ms]) => `${name} ${ms.length} × ${latencySummary(ms)}`);
  return {
    recorder,
    counts,
    wall,
    lines: [...families, '— by endpoint —', ...endpointLines, cpuLine, memoryLine],
    summary:
      `${seconds} s (${wall.toFixed(1)} s with the last loops finishing): ${counts.loops} loops, ` +
      `${requests} requests (${(requests / wall).toFixed(0)} req/s), ${counts.uploads} uploads (${(counts.uploadedBytes / MB).toFixed(0)} MB), ` +
      `${counts.zips} ZIPs (${(counts.zipBytes / MB).toFixed(0)} MB); ${families.join('; ')}; ${memoryLine}; ${cpuLine}`,
  };
}

/** A person's pause between clicks in the paced run, in ms. */
const PERSON_PAUSE_MS = [1000, 3000] as const;

export const scenario: Scenario = {
  name: 'Load — a programme’s busiest hour',
  async run({ short, log }) {
    const volunteerCount = short ? 20 : 200;
    const seconds = short ? 10 : 60;
    const server = await startServer({ dataDir: await freshDataDir('load') });
    try {
      const setupBegan = Date.now();
      const { volunteers } = await setUpProgramme(server.url, volunteerCount);
      const clients = await clientsFor(volunteers);
      log(`set up ${volunteerCount} signed-in volunteers with a client each in ${((Date.now() - setupBegan) / 1000).toFixed(0)} s`);
      const pdfs = pdfPool(64);

      log(`— at a person's pace (${PERSON_PAUSE_MS[0] / 1000}–${PERSON_PAUSE_MS[1] / 1000} s between clicks) —`);
      const paced = await runPhase(server, volunteers, clients, pdfs, seconds, PERSON_PAUSE_MS);
      for (const line of paced.lines) log(line);
      log('— without pauses (capacity) —');
      const flat = await runPhase(server, volunteers, clients, pdfs, seconds, undefined);
      for (const line of flat.lines) log(line);

      // Any HTTP answer will do (signed out, it is a 401): what matters is that one comes.
      const answers = await fetch(`${server.url}/api/me`).then(
        (res) => res.status,
        () => 0,
      );

      const held: string[] = [];
      const broke: string[] = [];
      for (const [label, phase] of [
        ['paced', paced],
        ['without pauses', flat],
      ] as const) {
        const errors = errorLines(phase.recorder);
        if (errors.length === 0) held.push(`${label}: 0 errors in ${phase.recorder.requests()} requests`);
        else broke.push(`${label}: ${errors.join(', ')}`);
      }
      for (const family of JSON_FAMILIES) {
        const p99 = percentile(paced.recorder.families.get(family) ?? [], 99);
        const text = `paced: ${family} p99 ${p99.toFixed(0)} ms`;
        if (p99 < JSON_P99_GOAL_MS) held.push(`${text} < ${JSON_P99_GOAL_MS} ms`);
        else broke.push(`${text}, goal < ${JSON_P99_GOAL_MS} ms`);
      }
      if (answers > 0 && answers < 500) held.push('the server still answers afterwards');
      else broke.push(`GET /api/me ${answers ? `answered ${answers}` : 'got no answer'} after the run`);

      return {
        scenario: this.name,
        done:
          `${volunteerCount} volunteers, each its own client; at a person's pace (${PERSON_PAUSE_MS[0] / 1000}–${PERSON_PAUSE_MS[1] / 1000} s between clicks) ` +
          `for ${paced.summary} — then without pauses (capacity; latencies reported, not held to the goal) for ${flat.summary}`,
        held: held.join('; '),
        broke: broke.join('; '),
      };
    } finally {
      await server.stop();
    }
  },
};
