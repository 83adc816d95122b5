// `npm test`'s last step: runs lint, typecheck and every package's tests through turbo, then prints
// one line with the totals across packages (turbo alone reports only how many tasks passed). Each
// package's vitest writes a JSON report to test-results/vitest.json (tooling/vitest); stale reports
// are removed first so a package that did not run cannot lend its old numbers.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const groups = ['apps', 'packages', 'tooling'];

async function reports() {
  const found = [];
  for (const group of groups) {
    const entries = await fs.readdir(path.join(root, group), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory()) found.push(path.join(root, group, entry.name, 'test-results', 'vitest.json'));
    }
  }
  return found;
}

for (const file of await reports()) await fs.rm(file, { force: true });

const args = [
  'run',
  'lint',
  'lint:exports',
  'lint:repo',
  'format:check',
  'typecheck',
  'test',
  '--concurrency=2',
  '--output-logs=errors-only',
  ...process.argv.slice(2),
];
const code = await new Promise((resolve) => {
  const child = spawn('turbo', args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
});

const totals = { passed: 0, failed: 0, skipped: 0 };
const packages = [];
for (const file of await reports()) {
  const text = await fs.readFile(file, 'utf8').catch(() => null);
  if (text === null) continue;
  const report = JSON.parse(text);
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  packages.push(path.basename(path.dirname(path.dirname(file))));
}
console.log(
  `\nTests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped ` +
    `(${packages.length} packages: ${packages.join(', ')})${code === 0 ? '' : ' — a check failed, see above'}`,
);
process.exit(code);
