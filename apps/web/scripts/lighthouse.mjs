// Lighthouse's performance figures of the pages a volunteer's phone opens first, signed out: the
// landing page (/) and Login (/login), served by the real server from this build (dist/).
// Lighthouse's default settings are its mobile preset: a mid-range phone's screen, its CPU 4× slower
// than this machine's, and a slow 4G link, simulated from one unthrottled load. Three runs per page,
// taking turns, each with an empty cache; the median of each figure. Prints; asserts nothing: the
// figures move with how busy the machine is (printed beside them, with Lighthouse's own CPU index).
import { loadavg } from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumLaunchOptions, startTestServer } from '@vita-docs/test-server';

const RUNS = 3;
const GOAL_SCORE = 95;
const PAGES = [
  { name: 'landing', path: '/' },
  { name: 'login', path: '/login' },
];
/** What Lighthouse says costs time, listed for the median run when it does not pass. */
const CAUSES = [
  'render-blocking-resources',
  'unused-javascript',
  'uses-text-compression',
  'uses-long-cache-ttl',
  'bootup-time',
  'mainthread-work-breakdown',
  'server-response-time',
];

/** @param {number[]} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/** @typedef {{ score: number, lcp: number, tbt: number, fcp: number, cpuIndex: number, causes: string[] }} Run */

/**
 * One Lighthouse run of `url`, performance only.
 * @param {string} url
 * @param {number} port
 * @returns {Promise<Run>}
 */
async function audit(url, port) {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const value = (/** @type {string} */ id) => lhr.audits[id]?.numericValue ?? NaN;
  const causes = CAUSES.flatMap((id) => {
    const found = lhr.audits[id];
    return found && found.score !== null && found.score < 0.9
      ? [`${found.title}${found.displayValue ? `: ${found.displayValue}` : ''}`]
      : [];
  });
  return {
    score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    fcp: value('first-contentful-paint'),
    cpuIndex: lhr.environment.benchmarkIndex,
    causes,
  };
}

const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;
const millis = (/** @type {number} */ ms) => `${Math.round(ms)} ms`;

/**
 * The table: one line per page with the median of each figure, then each run's score.
 * @param {Map<string, Run[]>} runs
 */
function report(runs) {
  const row = (/** @type {string[]} */ cells) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(9) : cell.padStart(8))).join(' ');
  const lines = [
    '',
    `Lighthouse ${RUNS} runs per page, mobile preset, median (load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
    row(['page', 'score', 'LCP', 'TBT', 'FCP', 'CPU index']),
  ];
  for (const [name, list] of runs) {
    const m = (/** @type {(run: Run) => number} */ pick) => median(list.map(pick));
    lines.push(
      row([
        name,
        String(m((r) => r.score)),
        seconds(m((r) => r.lcp)),
        millis(m((r) => r.tbt)),
        seconds(m((r) => r.fcp)),
        String(Math.round(m((r) => r.cpuIndex))),
      ]) + `   (scores: ${list.map((r) => r.score).join(', ')})`,
    );
  }
  const worst = Math.min(...[...runs.values()].map((list) => median(list.map((r) => r.score))));
  lines.push(
    `goal: score ≥ ${GOAL_SCORE} on each page — ${worst >= GOAL_SCORE ? 'met' : `not met (${worst})`}`,
  );
  for (const [name, list] of runs) {
    const middle = [...list].sort((a, b) => a.score - b.score)[Math.floor(list.length / 2)];
    for (const cause of middle?.causes ?? []) lines.push(`  ${name}: ${cause}`);
  }
  console.log(lines.join('\n'));
}

const server = await startTestServer();
const chrome = await chromeLauncher.launch({
  chromePath: chromiumLaunchOptions().executablePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
try {
  /** @type {Map<string, Run[]>} */
  const runs = new Map(PAGES.map((page) => [page.name, []]));
  /** @type {string[]} */
  const failures = [];
  // Lighthouse now and then fails to record a load on a busy machine (NO_NAVSTART): such a run is
  // said, and another taken, at most twice per page.
  for (let round = 0; round < RUNS + 2; round++) {
    for (const page of PAGES) {
      const done = runs.get(page.name) ?? [];
      if (done.length >= RUNS || failures.filter((f) => f.startsWith(page.name)).length >= 2) continue;
      await audit(server.url + page.path, chrome.port).then(
        (run) => done.push(run),
        async (/** @type {unknown} */ error) => {
          // Whether the server still answers tells Lighthouse's trouble from the server's.
          const answering = await fetch(`${server.url}/api/me`).then(
            () => 'answering',
            () => 'not answering',
          );
          failures.push(`${page.name}: run failed (server ${answering}): ${String(error)}`);
        },
      );
    }
  }
  report(runs);
  for (const failure of failures) console.log(failure);
} finally {
  chrome.kill();
  await server.stop({ keepData: false });
}
