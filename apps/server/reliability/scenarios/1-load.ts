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
import {
  MB,
  cpuSeconds,
  machineCpuSeconds,
  createRecorder,
  errorLines,
  freshDataDir,
  latencySummary,
  percentile,
  postgresCpuSeconds,
  setUpProgramme,
  startServer,
  watchRss,
  type Browser,
  type Recorder,
  type Scenario,
  type ServerProcess,
} from '../harness.js';
import {
  clientsFor,
  familyLines,
  newCounts,
  pdfPool,
  workLoop,
  type Pdf,
  type WorkCounts,
} from '../volunteers.js';

const JSON_FAMILIES = ['JSON reads', 'JSON writes'] as const;
/** The goal for every JSON call. */
const JSON_P99_GOAL_MS = 100;

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
      workLoop(volunteer, clients[i] ?? '', recorder, counts, until, {
        pdfs,
        zipEvery: 20,
        offset: i,
        renameEvery: 5,
        ...(pauseMs ? { pauseMs } : {}),
      }),
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
  const endpointLines = [...recorder.endpoints.entries()].map(
    ([name, ms]) => `${name} ${ms.length} × ${latencySummary(ms)}`,
  );
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
      log(
        `set up ${volunteerCount} signed-in volunteers with a client each in ${((Date.now() - setupBegan) / 1000).toFixed(0)} s`,
      );
      const pdfs = pdfPool(64);

      log(
        `— at a person's pace (${PERSON_PAUSE_MS[0] / 1000}–${PERSON_PAUSE_MS[1] / 1000} s between clicks) —`,
      );
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
