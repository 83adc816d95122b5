/**
 * The server's health around the run: its memory before, at peak and after settling; whether others
 * are served while slow connections trickle; and the checks that must hold once the run is over.
 */
import http from 'node:http';
import { percentile, sleep, type ServerProcess } from '../../harness.js';
import { judge } from './checks.js';
import type { startSlowConnections } from './slow.js';
import { excerpt, type Tally } from './tally.js';
import type { Identity } from './wire.js';

/** Memory the server may keep after the run and the settle period, over its baseline. */
export const RSS_SLACK_MB = 32;

/** The baseline (after the warm-up) and the peak from then on; `settle` waits for memory to come back. */
export async function watchMemory(server: ServerProcess, cleanups: Array<() => void>) {
  await sleep(1_000);
  const samples: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    samples.push(await server.rssMb());
    await sleep(300);
  }
  const memory = { before: percentile(samples, 50), peak: 0, after: 0 };
  memory.peak = memory.before;
  const sampler = setInterval(
    () => void server.rssMb().then((rss) => (memory.peak = Math.max(memory.peak, rss))),
    200,
  );
  cleanups.push(() => clearInterval(sampler));
  return {
    memory,
    /**
     * Gives the collector a while to hand back what the run took. V8 shrinks an idle process's heap
     * after some 30-40 s, so this waits up to a minute (and stops once within bounds).
     */
    async settle() {
      memory.after = await server.rssMb();
      const settleUntil = Date.now() + 60_000;
      while (memory.after > memory.before + RSS_SLACK_MB && Date.now() < settleUntil) {
        await sleep(500);
        memory.after = await server.rssMb();
      }
      clearInterval(sampler);
      return memory;
    },
  };
}

type SlowConnections = ReturnType<typeof startSlowConnections>;

/**
 * Others must be served while the slow connections trickle. The report run also waits (up to 100 s)
 * for Node to time out the connections that never finish their headers.
 */
export async function probeWhileSlow(
  url: string,
  slow: SlowConnections,
  short: boolean,
  server: ServerProcess,
) {
  let slowest = 0;
  let failed = false;
  const slowStart = Math.min(...slow.slows.map((s) => s.openedAt));
  for (;;) {
    const probeStart = performance.now();
    const status = await fetch(`${url}/api/me`).then(
      (res) => res.status,
      () => 0,
    );
    slowest = Math.max(slowest, performance.now() - probeStart);
    failed ||= status !== 401;
    const waiting = slow.slows.some((s) => s.mode === 'headers' && s.closedAt === undefined);
    if (short || !waiting || Date.now() - slowStart > 100_000 || server.exited()) break;
    await sleep(2_000);
  }
  return { slowest, failed, seconds: (Date.now() - slowStart) / 1000 };
}

/** An answer to a GET with an identity's cookies. */
async function answerOf(
  url: string,
  identity: Identity,
  path = '/api/me',
): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve) => {
    const req = http.get(
      `${url}${path}`,
      { headers: identity.cookie ? { cookie: identity.cookie } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', text }),
        );
      },
    );
    req.on('error', (err) => resolve({ status: 0, type: '', text: err.message }));
  });
}

/** What the run-level checks look at. */
export interface RunState {
  server: ServerProcess;
  alive: boolean;
  admin: Identity;
  volunteer: Identity;
  probe: { slowest: number; failed: boolean };
  slow: SlowConnections;
  tally: Tally;
  memory: { before: number; after: number };
}

interface RunCheck {
  holds: string;
  /** What broke, one line each (none when it held). */
  broke: (r: RunState) => Promise<string[]> | string[];
}

const ifAlive = (check: (r: RunState) => Promise<string | null>) => async (r: RunState) => {
  const line = r.alive ? await check(r) : null;
  return line ? [line] : [];
};

/** What must hold of the run as a whole, in the order the report lists what broke. */
const RUN_CHECKS: readonly RunCheck[] = [
  {
    holds: 'the server is still up',
    broke: ({ alive, server }) =>
      alive
        ? []
        : [
            `the server exited (code ${server.child.exitCode}, signal ${server.child.signalCode}): ${server.log().slice(-600)}`,
          ],
  },
  {
    holds: 'it answers /api/me for the admin afterwards',
    broke: ifAlive(async (r) => {
      const me = await answerOf(r.server.url, r.admin);
      return me.status === 200
        ? null
        : `/api/me as the admin answered ${me.status} after the run: ${me.text.slice(0, 200)}`;
    }),
  },
  {
    holds: 'it refuses /api/me without a session with a JSON 401',
    broke: ifAlive(async (r) => {
      const anonymous = await answerOf(r.server.url, { cookie: '', csrf: '' });
      return anonymous.status === 401 && /^application\/json/.test(anonymous.type)
        ? null
        : `/api/me without a session answered ${anonymous.status} ${anonymous.type}`;
    }),
  },
  {
    // None of the pollution attempts may have made a volunteer an admin.
    holds: 'no volunteer became an admin',
    broke: ifAlive(async (r) => {
      const promoted = await answerOf(r.server.url, r.volunteer, '/api/admin/users');
      return promoted.status === 403
        ? null
        : `a volunteer's GET /api/admin/users answered ${promoted.status} after the run (403 expected)`;
    }),
  },
  {
    holds: 'others are answered (401 to /api/me) within 5 s while slow connections trickle',
    broke: ({ probe, slow }) =>
      probe.failed || probe.slowest > 5_000
        ? [
            `while ${slow.slows.length} connections trickled, /api/me took up to ${probe.slowest.toFixed(0)} ms${probe.failed ? ' or did not answer 401' : ''}`,
          ]
        : [],
  },
  {
    holds: 'what the server answers a slow connection holds as any answer (checks.ts)',
    broke: ({ slow, tally }) => {
      for (const s of slow.slows) {
        const verdict = s.answer && judge(s.answer, 'POST');
        if (s.answer && verdict)
          tally.fail(
            `${verdict} on a slow ${s.mode} connection`,
            0,
            `${s.answer.status} ${s.answer.headers.get('content-type') ?? '(no type)'} ${excerpt(s.answer.body, 160)}`,
          );
      }
      return [];
    },
  },
  {
    holds: 'the server logs no error',
    broke: ({ server }) => {
      const errorLines = server
        .log()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line));
      return errorLines.length > 0
        ? [`the server logged ${errorLines.length} error(s), first: ${errorLines[0]?.slice(0, 400)}`]
        : [];
    },
  },
  {
    holds: 'every answer held its property’s checks, and every request was answered',
    broke: ({ tally }) =>
      [...tally.failures.entries()]
        .sort((a, b) => b[1].count - a[1].count)
        .map(([group, f]) => `${group} ×${f.count}: ${f.repro}`),
  },
  {
    holds: `its memory comes back within ${RSS_SLACK_MB} MB of the baseline`,
    broke: ({ memory }) =>
      memory.after <= memory.before + RSS_SLACK_MB
        ? []
        : [
            `RSS ${memory.before.toFixed(0)} MB before, ${memory.after.toFixed(0)} MB after settling (more than ${RSS_SLACK_MB} MB kept)`,
          ],
  },
];

/** Runs the run-level checks in order: what broke, one line each. */
export async function runChecks(r: RunState): Promise<string[]> {
  const broke: string[] = [];
  for (const check of RUN_CHECKS) broke.push(...(await check.broke(r)));
  return broke;
}
