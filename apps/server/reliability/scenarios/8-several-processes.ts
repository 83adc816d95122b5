/**
 * Several processes behind nginx (docs/scaling.md): three `node dist/main.js` on one PostgreSQL and
 * one S3, reached only through nginx running the documented configuration. Work
 * goes to every process; a sign-out, a role change and an approval withdrawn on one are honoured by
 * all within 1 s; wrong codes and wrong PINs count across processes; the retention rule deletes once
 * when every process runs it at once; one process killed under load loses nothing acknowledged; a
 * rolling restart under load fails no request; and the list endpoint's throughput with 2 processes vs
 * 1 is reported. The short form: two processes, two volunteers, a rolling restart with fewer POSTs back
 * to back; no retention, kill or throughput.
 */
import { createRequire } from 'node:module';
import pg from 'pg';
import { findNginx, startCluster, startNginx, type Cluster } from '../balancer.js';
import type { ServerProcess } from '../server-process.js';
import {
  VOLUNTEER_PIN,
  createRecorder,
  download,
  errorLines,
  latestCode,
  newClient,
  openBrowser,
  outboxLength,
  randomPdf,
  setUpProgramme,
  sha256,
  signIn,
  sleep,
  upload,
  type Browser,
  type Recorder,
  type Row,
  type Scenario,
} from '../harness.js';
import { clientsFor, newCounts, workLoop } from '../volunteers.js';

/** autocannon ships no types; this is the part used here. */
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => Promise<{ requests: { average: number }; non2xx: number; errors: number }>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const NAME = 'Several processes behind nginx';
const DOC_TYPE = 'Banking Info';
/** Wrong PINs in a row that cost no wait (src/auth/throttle.ts). */
const FREE_WRONG_PINS = 5;
/** A change on one process must hold on every process within this. */
const HONOURED_MS = 1_000;
/** The load's rounds: each volunteer's loops begun within one are finished before the next. */
const ROUND_MS = 2_000;

/** What one check found. */
interface Finding {
  done: string[];
  held: string[];
  broke: string[];
}
const finding = (): Finding => ({ done: [], held: [], broke: [] });

export const scenario: Scenario = {
  name: NAME,
  async run({ short, log }): Promise<Row> {
    const nginx = await findNginx();
    if (!nginx) {
      return {
        scenario: NAME,
        done: 'skipped: nginx is not installed (apt-get install nginx)',
        held: '',
        broke: '',
      };
    }
    const began = Date.now();
    const cluster = await startCluster(nginx, short ? 2 : 3);
    const found = finding();
    const add = (part: Finding) => {
      found.done.push(...part.done);
      found.held.push(...part.held);
      found.broke.push(...part.broke);
      log(`${((Date.now() - began) / 1000).toFixed(0)} s: ${part.done.join('; ')}`);
      for (const line of part.broke) log(`✗ ${line}`);
    };
    try {
      const url = cluster.nginx.url;
      const outbox = cluster.processes[0]?.url ?? url;
      const { admin, volunteers } = await setUpProgramme(url, short ? 2 : 8, outbox);
      add(await workEverywhere(cluster, volunteers));
      add(await changesHonoured(url, admin, outbox));
      add(await limitsShared(url, outbox));
      if (!short) add(await retentionOnce(cluster, volunteers[0] as Browser));
      if (!short) add(await killUnderLoad(cluster, volunteers, 20_000));
      add(await rollingRestart(cluster, volunteers, short ? 8 : 16));
      if (!short) add(await throughput(nginx, cluster, volunteers[0] as Browser));
    } finally {
      await cluster.close();
    }
    return {
      scenario: NAME,
      done: found.done.join('; '),
      held: found.held.join('; '),
      broke: found.broke.join('; '),
    };
  },
};

/** Sign-in (done), uploads, lists and ZIPs through the balancer; counts which process answered. */
async function workEverywhere(cluster: Cluster, volunteers: Browser[]): Promise<Finding> {
  const result = finding();
  for (const [i, volunteer] of volunteers.entries()) {
    const clientId = await newClient(volunteer, `Everywhere ${i}`);
    const sent = [randomPdf(40_000), randomPdf(50_000)];
    for (const [n, bytes] of sent.entries())
      await upload(volunteer, clientId, DOC_TYPE, `doc ${n}.pdf`, bytes);
    const { items } = await volunteer.api.listDocs({
      params: { id: clientId },
      query: { docType: DOC_TYPE },
    });
    for (const item of items) {
      const { url } = await volunteer.api.presignGet({ body: { key: item.key } });
      const bytes = await download(volunteer, url);
      if (!sent.some((s) => sha256(s) === sha256(bytes)))
        result.broke.push(`${item.key} came back different`);
    }
    const zip = await volunteer.api.downloadAll({ params: { id: clientId }, query: {} });
    if (!zip.ok || (await zip.arrayBuffer()).byteLength < 90_000)
      result.broke.push(`the ZIP of ${clientId} is short`);
    if (items.length !== sent.length) result.broke.push(`${items.length} of ${sent.length} uploads listed`);
  }
  const answered = await cluster.nginx.answeredBy();
  const counts = cluster.ports.map((port) => answered.get(`127.0.0.1:${port}`) ?? 0);
  result.done.push(
    `sign-in, uploads, lists, views, ZIPs of ${volunteers.length} volunteers: requests answered per process ${counts.join(' / ')}`,
  );
  if (counts.filter((n) => n > 0).length < 2)
    result.broke.push('the requests did not spread over the processes');
  else result.held.push('every process answered some of the work, and all of it worked');
  return result;
}

/** Polls `check` through the balancer until it holds `streak` times in a row; the time from the start until that run of refusals began. */
async function honouredAfter(check: () => Promise<boolean>, streak: number): Promise<number> {
  const began = Date.now();
  let inARow = 0;
  let since = began;
  while (inARow < streak) {
    const at = Date.now();
    if (await check()) {
      if (inARow === 0) since = at;
      inARow += 1;
    } else inARow = 0;
    if (at - began > 5_000) return Infinity;
  }
  return since - began;
}

/** A sign-out, a role taken away and an approval withdrawn, each on one process, honoured by all. */
async function changesHonoured(url: string, admin: Browser, outbox: string): Promise<Finding> {
  const result = finding();
  const register = async (email: string, officer: boolean) => {
    await openBrowser(url).api.register({
      body: { firstName: 'Change', lastName: 'Test', email, pin: VOLUNTEER_PIN },
    });
    await admin.api.approveUser({ params: { email }, body: { approved: true } });
    // A role change ends the person's sessions: the officer is made one before signing in.
    if (officer) await admin.api.setUserRole({ params: { email }, body: { role: 'officer' } });

    return signIn(url, email, VOLUNTEER_PIN, outbox);
  };
  const status = (browser: Browser, cookie: string, path: string) =>
    fetch(`${url}${path}`, { headers: { cookie, 'x-forwarded-for': browser.address } }).then(async (res) => {
      await res.body?.cancel();
      return res.status;
    });
  // Each session is used often enough first that every process has it in its cache.
  const warm = async (browser: Browser, path: string) => {
    for (let i = 0; i < 12; i += 1) {
      const answer = await status(browser, browser.cookieHeader(), path);
      if (answer !== 200) throw new Error(`${path} answered ${answer} before the change`);
    }
  };
  const cases: Array<[string, string, (b: Browser) => Promise<void>]> = [
    ['sign-out', '/api/clients', async (b) => void (await b.api.logout())],
    [
      'officer role taken away',
      '/api/admin/users?status=pending',
      async (b) =>
        void (await admin.api.setUserRole({ params: { email: b.email }, body: { role: 'volunteer' } })),
    ],
    [
      'approval withdrawn',
      '/api/clients',
      async (b) =>
        void (await admin.api.approveUser({ params: { email: b.email }, body: { approved: false } })),
    ],
  ];
  const times: string[] = [];
  for (const [n, [what, path, change]] of cases.entries()) {
    const browser = await register(`change${n}@reliability.test`, what.startsWith('officer'));
    await warm(browser, path);
    const cookie = browser.cookieHeader();
    await change(browser);
    const ms = await honouredAfter(async () => (await status(browser, cookie, path)) >= 400, 12);
    times.push(`${what} ${Number.isFinite(ms) ? `${ms} ms` : 'never'}`);
    if (ms > HONOURED_MS)
      result.broke.push(`${what} on one process was not honoured by all within ${HONOURED_MS} ms`);
  }
  result.done.push(`changes honoured everywhere after: ${times.join(', ')}`);
  if (result.broke.length === 0)
    result.held.push(
      `a sign-out, a role change, an approval withdrawn held on every process within ${HONOURED_MS} ms`,
    );
  return result;
}

/** Wrong codes and wrong PINs through the balancer count as one: the caps hold across processes. */
async function limitsShared(url: string, outbox: string): Promise<Finding> {
  const result = finding();
  const browser = openBrowser(url);
  const email = 'volunteer0@reliability.test';
  const before = await outboxLength(outbox);
  await browser.api.loginInit({ body: { email, pin: VOLUNTEER_PIN } });
  const code = await latestCode(outbox, email, before);
  const wrong = code === '000000' ? '111111' : '000000';
  for (let i = 0; i < 5; i += 1)
    await browser.api.loginVerify({ body: { email, code: wrong } }).catch(() => undefined);
  const right = await browser.api.loginVerify({ body: { email, code } }).then(
    () => 'accepted',
    (e: { code?: string }) => e.code ?? 'refused',
  );
  if (right === 'accepted')
    result.broke.push('after 5 wrong codes spread over the processes, the right code was still accepted');
  const stranger = openBrowser(url);
  // After 5 free wrong PINs each try must wait 1 s, then 2, 4, 8 s after the one before: the 6th is
  // refused only when it comes within 1 s of the 5th, and on the loaded machine a try (a PIN hashed)
  // took longer than that once. Counted per process, though, 2 processes would let 10 wrong PINs
  // in a row through without any wait: a refusal within those 10 shows the count is shared.
  const pins: string[] = [];
  while (pins.length < 2 * FREE_WRONG_PINS && pins.at(-1) !== '429') {
    pins.push(
      await stranger.api.loginInit({ body: { email, pin: `wrong pin number ${pins.length}` } }).then(
        () => 'accepted',
        (e: { status?: number }) => String(e.status ?? '?'),
      ),
    );
  }
  if (pins.at(-1) !== '429')
    result.broke.push(`${pins.length} wrong PINs in a row over the processes were answered without a 429`);
  result.done.push(`5 wrong codes then the right one: ${right}; wrong PINs until refused: ${pins.join(' ')}`);
  if (result.broke.length === 0) result.held.push('wrong codes and wrong PINs were counted across processes');
  return result;
}

/** Every process runs the retention rule at once: each expired document is deleted once, and one audit entry says so. */
async function retentionOnce(cluster: Cluster, volunteer: Browser): Promise<Finding> {
  const result = finding();
  const clientId = await newClient(volunteer, 'Retention');
  for (let i = 0; i < 3; i += 1)
    await upload(volunteer, clientId, DOC_TYPE, `old ${i}.pdf`, randomPdf(20_000));
  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  try {
    // A rule of 30 days, a client submitted 400 days ago whose notice's day has passed.
    await db.query(
      `INSERT INTO retention (id, days) VALUES (true, 30) ON CONFLICT (id) DO UPDATE SET days = 30`,
    );
    await db.query(
      `UPDATE clients SET submitted_at = now() - interval '400 days', retention_notice_at = now() - interval '20 days',
         retention_due_at = now() - interval '1 day' WHERE id = $1`,
      [clientId],
    );
    // Each process's start runs the rule: restarting all of them at once makes them run it together.
    await Promise.all(cluster.processes.map((p) => p.stop()));
    await Promise.all(cluster.processes.map((_, i) => cluster.restart(i)));
    await sleep(1_000);
    const left = await db.query(`SELECT count(*)::int AS n FROM documents WHERE client_id = $1`, [clientId]);
    const entries = await db.query(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'client.retention' AND client_id = $1`,
      [clientId],
    );
    const n = (entries.rows[0] as { n: number }).n;
    result.done.push(
      `retention run by ${cluster.processes.length} processes at once: ${(left.rows[0] as { n: number }).n} documents left, ${n} audit entries`,
    );
    if ((left.rows[0] as { n: number }).n !== 0 || n !== 1)
      result.broke.push('the retention rule did not delete exactly once');
    else result.held.push('the retention rule ran once across processes');
  } finally {
    await db.end();
  }
  return result;
}

/**
 * The volunteers' usual work (volunteers.ts) through the balancer, in rounds of {@link ROUND_MS},
 * from before `during` starts until it has finished and one more round has run.
 */
async function underLoad(volunteers: Browser[], during: () => Promise<void>, recorder = createRecorder()) {
  const counts = newCounts();
  const clients = await clientsFor(volunteers);
  const pdfs = [150_000, 200_000, 250_000].map((size) => {
    const bytes = randomPdf(size);
    return { bytes, sha256: sha256(bytes) };
  });
  let finished = false;
  const work = (async () => {
    for (let round = 0, last = false; !last; round += 1) {
      last = finished;
      const until = Date.now() + ROUND_MS;
      await Promise.all(
        volunteers.map((v, i) =>
          workLoop(v, clients[i] as string, recorder, counts, until, {
            pdfs,
            zipEvery: 4,
            offset: i + round,
            renameEvery: 5,
            pauseMs: [20, 120],
          }),
        ),
      );
    }
  })();
  await sleep(ROUND_MS / 2);
  await during().finally(() => (finished = true));
  await work;
  return { recorder, counts };
}

/** One process SIGKILLed under load: nginx moves on, every acknowledged upload is still there. */
async function killUnderLoad(cluster: Cluster, volunteers: Browser[], ms: number): Promise<Finding> {
  const result = finding();
  const keeper = volunteers[0] as Browser;
  const clientId = await newClient(keeper, 'Kept through a kill');
  const acknowledged = new Map<string, string>();
  let keeping = true;
  const keep = (async () => {
    for (let i = 0; keeping; i += 1) {
      const bytes = randomPdf(30_000 + i);
      const key = await upload(keeper, clientId, DOC_TYPE, `kept ${i}.pdf`, bytes).catch(() => undefined);
      if (key) acknowledged.set(key, sha256(bytes));
    }
  })();
  const victim = cluster.processes.length - 1;
  const { recorder } = await underLoad(volunteers.slice(1), async () => {
    await sleep(ms / 3);
    await cluster.processes[victim]?.kill();
    await sleep((2 * ms) / 3);
  });
  keeping = false;
  await keep;
  const { items } = await keeper.api.listDocs({ params: { id: clientId }, query: { docType: DOC_TYPE } });
  const listed = new Map(items.map((item) => [item.key, item]));
  let lost = 0;
  for (const [key, hash] of acknowledged) {
    if (!listed.has(key)) {
      lost += 1;
      continue;
    }
    const { url } = await keeper.api.presignGet({ body: { key } });
    if (sha256(await download(keeper, url)) !== hash) lost += 1;
  }
  await cluster.restart(victim);
  result.done.push(
    `process ${victim + 1} SIGKILLed under load: ${recorder.requests()} requests, ${recorder.errorCount()} failed (${errorLines(recorder).slice(0, 3).join(', ') || 'none'}); ${acknowledged.size} acknowledged uploads`,
  );
  if (lost > 0) result.broke.push(`${lost} acknowledged uploads lost or changed after a process was killed`);
  else result.held.push('nothing acknowledged was lost when a process was killed; nginx moved on');
  return result;
}

/**
 * `callers` sending a POST back to back through nginx (a view link asked for, again and again) until
 * `stop` resolves: a connection arrives at almost any moment, the one a process closes its port in
 * included (the volunteers' pace alone makes that rare).
 */
async function postsBackToBack(volunteer: Browser, callers: number, recorder: Recorder, stop: Promise<void>) {
  let sent = 0;
  const clientId = await newClient(volunteer, 'Back to back');
  const key = await upload(volunteer, clientId, DOC_TYPE, 'viewed.pdf', randomPdf(10_000));
  let stopped = false;
  void stop.then(() => (stopped = true));
  const callersDone = Promise.all(
    Array.from({ length: callers }, async () => {
      for (; !stopped; sent += 1)
        await recorder
          .time('POST', 'presignGet', () => volunteer.api.presignGet({ body: { key } }))
          .catch(() => undefined);
    }),
  );
  return { sent: () => sent, done: callersDone };
}

/**
 * Each process in turn SIGTERMed, waited for, started again, under load with `callers` sending POSTs
 * back to back: no request may fail.
 */
async function rollingRestart(cluster: Cluster, volunteers: Browser[], callers: number): Promise<Finding> {
  const result = finding();
  const perRestart: string[] = [];
  // Every process that ran during the restart, the stopped ones included: their logs say why a request
  // they answered 503 (which bound of DEPENDENCY_TIMEOUT_MS gave up).
  const stopped: ServerProcess[] = [];
  const began = Date.now();
  let restarted = (): void => undefined;
  const recorder = createRecorder();
  const posts = await postsBackToBack(
    volunteers[0] as Browser,
    callers,
    recorder,
    new Promise<void>((resolve) => (restarted = resolve)),
  );
  const { counts } = await underLoad(
    volunteers,
    async () => {
      for (let i = 0; i < cluster.processes.length; i += 1) {
        const before = recorder.requests();
        const stopping = Date.now();
        stopped.push(cluster.processes[i] as ServerProcess);
        await cluster.processes[i]?.stop();
        const exited = Date.now();
        const stopMs = exited - stopping;
        await cluster.restart(i);
        // nginx leaves a process it could not reach alone for fail_timeout: the next one is stopped only
        // once nginx takes this one as working again (docs/scaling.md, rolling restart), or nginx would
        // hold both as failed and answer every request its own 502.
        await cluster.nginx.inUse(cluster.ports[i] as number, exited);
        perRestart.push(`${recorder.requests() - before} (stop ${(stopMs / 1000).toFixed(1)} s)`);
      }
    },
    recorder,
  ).finally(restarted);
  await posts.done;
  const failed = recorder.errorCount();
  result.done.push(
    `rolling restart of ${perRestart.length} processes under load (${((Date.now() - began) / 1000).toFixed(0)} s): ${recorder.requests()} requests (${posts.sent()} of them POSTs back to back), ${counts.uploads} uploads, ${counts.zips} ZIPs; requests during each restart ${perRestart.join(', ')}; ${failed} failed`,
  );
  if (failed > 0) {
    result.broke.push(`the rolling restart failed requests: ${errorLines(recorder).join(', ')}`);
    // Which process each failed request reached, and what nginx saw there (its logs go with it).
    result.broke.push(`nginx: ${(await cluster.nginx.badGateways()).join(' / ') || 'no 502 of its own'}`);
    const unavailable = [...stopped, ...cluster.processes].flatMap((p, n) =>
      p
        .log()
        .split('\n')
        .filter((line) => line.includes('unavailable'))
        .map((line) => `process run ${n + 1}: ${line}`),
    );
    if (unavailable.length > 0) result.broke.push(`the processes said: ${unavailable.join(' / ')}`);
  } else result.held.push('a rolling restart under load failed no request');
  return result;
}

/** Requests per second of the list endpoint through nginx, in front of 1 process and of 2. */
async function throughput(nginxBinary: string, cluster: Cluster, volunteer: Browser): Promise<Finding> {
  const result = finding();
  const clientId = await newClient(volunteer, 'Throughput');
  for (let i = 0; i < 5; i += 1) await upload(volunteer, clientId, DOC_TYPE, `t ${i}.pdf`, randomPdf(10_000));
  const rates: number[] = [];
  for (const count of [1, 2]) {
    const balancer = await startNginx(nginxBinary, cluster.ports.slice(0, count));
    try {
      const run = await autocannon({
        url: `${balancer.url}/api/docs/list/${clientId}?docType=${encodeURIComponent(DOC_TYPE)}`,
        connections: 16,
        duration: 10,
        headers: { cookie: volunteer.cookieHeader(), 'x-forwarded-for': volunteer.address },
      });
      rates.push(Math.round(run.requests.average));
      if (run.non2xx > 0 || run.errors > 0)
        result.broke.push(`${run.non2xx + run.errors} list requests failed with ${count} process(es)`);
    } finally {
      await balancer.stop();
    }
  }
  result.done.push(
    `list endpoint through nginx: ${rates[0]} req/s with 1 process, ${rates[1]} req/s with 2 (2 cores shared with PostgreSQL, nginx and the load generator)`,
  );
  return result;
}
