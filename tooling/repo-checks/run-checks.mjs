// `npm test` and, with --reliability, `npm run test:reliability`: builds once (the web app included,
// so no test builds it again), starts one PostgreSQL with a migrated template for every package's
// tests (each test server or test file copies the template: tooling/test-server/test-database.js),
// runs the checks and tests through turbo, then prints one line with the totals across packages and
// the ten slowest test files (turbo alone reports only how many tasks passed). Each package's vitest
// writes a JSON report to test-results/ (tooling/vitest), the web app's browser journeys
// (Playwright) test-results/playwright.json; stale reports are removed first so a package that did
// not run cannot lend its old numbers (turbo puts back a cached task's report).
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ADMIN_URL_ENV, TEMPLATE_ENV } from '../test-server/database.js';
import { startTestDatabase } from '../test-server/test-database.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const groups = ['apps', 'packages', 'tooling'];
const reliability = process.argv.includes('--reliability');
const extra = process.argv.slice(2).filter((arg) => arg !== '--reliability');
const reportNames = reliability ? ['vitest-reliability.json'] : ['vitest.json', 'playwright.json'];

async function reports() {
  const found = [];
  for (const group of groups) {
    const entries = await fs.readdir(path.join(root, group), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      for (const name of reportNames) found.push(path.join(root, group, entry.name, 'test-results', name));
    }
  }
  return found;
}

/** Every spec (test) below a Playwright JSON report's suite, nested describes included. */
function* playwrightSpecs(suite) {
  yield* suite.specs ?? [];
  for (const child of suite.suites ?? []) yield* playwrightSpecs(child);
}

/**
 * A Playwright JSON report in the shape of vitest's: its counts, and per file (a top-level suite) the
 * time from its first test's start to its last test's end (a file's tests run in order in one worker;
 * the gaps are its hooks, the server's start among them). Retries are off, so a flaky test (passed on
 * a retry) counts as failed.
 */
function fromPlaywright(report, file) {
  const stats = report.stats ?? {};
  const dir = path.resolve(path.dirname(file), '..', report.config?.rootDir ?? '');
  return {
    startTime: Date.parse(stats.startTime ?? '') || 0,
    numPassedTests: stats.expected ?? 0,
    numFailedTests: (stats.unexpected ?? 0) + (stats.flaky ?? 0),
    numPendingTests: stats.skipped ?? 0,
    testResults: (report.suites ?? [])
      .map((suite) => {
        let startTime = Infinity;
        let endTime = -Infinity;
        for (const spec of playwrightSpecs(suite)) {
          for (const test of spec.tests ?? []) {
            for (const result of test.results ?? []) {
              const start = Date.parse(result.startTime);
              startTime = Math.min(startTime, start);
              endTime = Math.max(endTime, start + (result.duration ?? 0));
            }
          }
        }
        return { name: path.resolve(dir, suite.file), startTime, endTime: Math.max(startTime, endTime) };
      })
      // A file none of whose tests ran has no time to show.
      .filter((result) => Number.isFinite(result.startTime)),
  };
}

/**
 * Runs turbo; `niceness` lowers its processes' CPU priority (where the platform has `nice`), so
 * they take only what the tests leave idle.
 */
function turbo(args, env = process.env, niceness = 0) {
  const command = ['turbo', ...args, '--output-logs=errors-only', ...extra];
  const [file, ...rest] =
    niceness > 0 && process.platform !== 'win32' ? ['nice', '-n', String(niceness), ...command] : command;
  return new Promise((resolve) => {
    const child = spawn(file, rest, {
      cwd: root,
      env,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
}

async function serverModule(file) {
  return import(pathToFileURL(path.join(root, 'apps/server/dist', file)).href);
}

/** The shared test database, from the server's build (the first turbo run makes it). */
async function startDatabase() {
  const { startEmbeddedPostgres } = await serverModule('db/embedded/cluster.js');
  const { openDatabase } = await serverModule('db/database.js');
  return startTestDatabase({ startEmbeddedPostgres, openDatabase });
}

for (const file of await reports()) await fs.rm(file, { force: true });
const began = Date.now();

let code = await turbo(['run', 'build', '--concurrency=2']);
if (code === 0) {
  if (reliability) {
    code = await turbo(['run', 'test:reliability', '--concurrency=1']);
  } else {
    const database = await startDatabase();
    const stop = () => database.stop().catch(() => undefined);
    process.once('SIGINT', () => void stop().then(() => process.exit(130)));
    process.once('SIGTERM', () => void stop().then(() => process.exit(143)));
    const env = { ...process.env, [ADMIN_URL_ENV]: database.adminUrl, [TEMPLATE_ENV]: database.template };
    try {
      // Every test task waits more than it computes (servers, browsers, PostgreSQL, the scanner
      // folder's timers: together about a third of the wall time in CPU), while lint and typecheck
      // compute all the time. So the tests all start at once and set the pace, and the static checks
      // run beside them at a lower priority, filling the cores the tests leave idle: on two cores this
      // takes minutes off two turbo slots shared by both, where a long test could wait behind lint.
      // Not `--only`: it drops a task's dependencies from its cache key too, so a change in ui left
      // the web journeys and web's typecheck cached. The builds they depend on ran above: each turbo
      // finds them cached with their outputs in place and leaves dist/ as it is.
      const codes = await Promise.all([
        turbo(['run', 'test', '--concurrency=8'], env),
        turbo(
          ['run', 'lint', 'lint:exports', 'lint:repo', 'format:check', 'typecheck', '--concurrency=2'],
          env,
          10,
        ),
      ]);
      code = codes.find((c) => c !== 0) ?? 0;
    } finally {
      await stop();
    }
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const packages = [];
const files = [];
for (const file of await reports()) {
  const text = await fs.readFile(file, 'utf8').catch(() => null);
  if (text === null) continue;
  const parsed = JSON.parse(text);
  const report = path.basename(file) === 'playwright.json' ? fromPlaywright(parsed, file) : parsed;
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const name = path.basename(path.dirname(path.dirname(file)));
  const cached = (report.startTime ?? 0) < began;
  packages.push(cached ? `${name} (cached)` : name);
  if (cached) continue;
  for (const result of report.testResults ?? []) {
    files.push({
      name: path.relative(root, result.name),
      seconds: (result.endTime - result.startTime) / 1000,
    });
  }
}
const slowest = files.sort((a, b) => b.seconds - a.seconds).slice(0, 10);
if (slowest.length > 0) {
  console.log('\nSlowest test files run now:');
  for (const { name, seconds } of slowest) console.log(`${seconds.toFixed(1).padStart(7)} s  ${name}`);
}
console.log(
  `\nTests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped ` +
    `(${packages.length} packages: ${packages.join(', ')}) in ${((Date.now() - began) / 1000).toFixed(0)} s` +
    `${code === 0 ? '' : ' — a check failed, see above'}`,
);
process.exit(code);
