/**
 * Hostile input: property-based fuzzing (fast-check) of every call in core's `endpoints` table and of
 * the signed storage URLs, against the production build. The properties are a table
 * (`hostile-input/properties.ts`): each kind of hostile request, its small generators, and the checks
 * every answer must pass (`hostile-input/checks.ts`). Requests are written byte for byte on raw
 * sockets, so nothing a well-behaved HTTP client would refuse to send (NUL in a header, invalid UTF-8
 * in a path, a Content-Length that lies, HTTP/1.0 without Host) is out of reach. Meanwhile a few
 * connections trickle their requests byte by byte.
 *
 * What must hold: no 5xx at all; every 4xx is JSON `{ "error": "…", "code": "…" }` and nothing else, its text one
 * for people (no bare "Bad Request", no library wording); the process stays up, logs no error and
 * answers `/api/me` afterwards; no volunteer became an admin; others are served while the slow
 * connections trickle; after a settle period its memory is back within 32 MB of where it started
 * (after a warm-up) (`hostile-input/health.ts`). A request refused and reset while still being sent
 * (oversized ones only) is counted, not failed: the reset can cost the client the answer the server did send.
 *
 * The seed is fixed (FUZZ_SEED overrides it) and printed, so a run can be replayed request for
 * request; each kind of failure is reported with the smallest request that showed it.
 */
import fs from 'node:fs/promises';
import {
  freshDataDir,
  startServer,
  type Row,
  type Scenario,
  type ScenarioOptions,
  type ServerProcess,
} from '../harness.js';
import { probeWhileSlow, runChecks, watchMemory } from './hostile-input/health.js';
import { row, slowText, statusList } from './hostile-input/report.js';
import { fmt, makeRunner, mb, prepare, sampleRequests } from './hostile-input/runner.js';
import { startSlowConnections } from './hostile-input/slow.js';
import { Tally } from './hostile-input/tally.js';

const NAME = 'Hostile input';
const DEFAULT_SEED = 20_260_206;

interface FuzzOptions {
  seed: number;
  total: number;
  short: boolean;
  log: (line: string) => void;
  /** Timers and sockets to end whatever happens. */
  cleanups: Array<() => void>;
}

async function fuzz(server: ServerProcess, o: FuzzOptions): Promise<Row> {
  const { seed, total, short, log } = o;
  const p = await prepare(server, o.cleanups);
  const specs = sampleRequests(p, seed, total);
  log(`world ready; ${fmt(specs.length)} requests generated`);
  const tally = new Tally();
  const runAll = makeRunner(p, server, tally, async (done) => {
    if (done % (short ? 250 : 1_000) === 0)
      log(`${fmt(done)} sent, ${tally.failures.size} failure group(s), RSS ${mb(await server.rssMb())}`);
  });

  const began = Date.now();
  // The first requests are the warm-up: code paths compiled and caches filled once are not a leak.
  const warmUp = Math.max(100, Math.round(total * 0.03));
  await runAll(specs.slice(0, warmUp));
  const watch = await watchMemory(server, o.cleanups);
  const slow = startSlowConnections(p.port, short ? 3 : 6, p.identities.anonymous, p.setup.slowPut);
  o.cleanups.push(() => slow.stop());
  await runAll(specs.slice(warmUp));
  const seconds = (Date.now() - began) / 1000;
  const probe = await probeWhileSlow(p.url, slow, short, server);
  slow.stop();
  const memory = await watch.settle();

  const alive = !server.exited();
  const broke = await runChecks({
    server,
    alive,
    admin: p.identities.admin,
    volunteer: p.identities.volunteer0,
    probe,
    slow,
    tally,
    memory,
  });
  const summary = {
    name: NAME,
    seed,
    seconds,
    warmUp,
    tally,
    slows: slow.slows,
    slowSeconds: probe.seconds,
    slowestProbe: probe.slowest,
    alive,
    memory,
    broke,
  };
  log(`statuses: ${statusList(tally)}`);
  log(`slow connections: ${slowText(summary)}`);
  log(`RSS ${mb(memory.before)} before, ${mb(memory.peak)} peak, ${mb(memory.after)} after`);
  return row(summary);
}

async function run({ short, log }: ScenarioOptions): Promise<Row> {
  const seed = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
  const total = short ? 1_000 : 10_000;
  log(`seed ${seed} (FUZZ_SEED=${seed} replays this run), ${fmt(total)} requests`);
  const dataDir = await freshDataDir('fuzz');
  const server = await startServer({ dataDir });
  const cleanups: Array<() => void> = [];
  try {
    return await fuzz(server, { seed, total, short, log, cleanups });
  } finally {
    for (const cleanup of cleanups) cleanup();
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

export const scenario: Scenario = { name: NAME, run };
