/**
 * The reliability report: `pnpm --filter @vita-docs/server reliability [--short] [name…]`. Runs each
 * scenario of `reliability/scenarios/` (in file-name order, or the named ones) against the production
 * build and prints one table row per scenario; exits 1 when any row says something broke.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatTable, type Row, type Scenario } from './harness.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'scenarios');
const args = process.argv.slice(2);
const short = args.includes('--short');
// A name picks scenarios whose file or title has a word starting with it ("load" is not "uploads").
const wanted = args
  .filter((arg) => !arg.startsWith('--'))
  .map((name) => new RegExp(`(^|[^a-z])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i'));

const files = (await fs.readdir(dir)).filter((file) => file.endsWith('.ts')).sort();
const rows: Row[] = [];
for (const file of files) {
  const { scenario } = (await import(pathToFileURL(path.join(dir, file)).href)) as { scenario: Scenario };
  if (wanted.length > 0 && !wanted.some((name) => name.test(file) || name.test(scenario.name))) continue;
  console.log(`\n▶ ${scenario.name}`);
  const began = Date.now();
  let row: Row;
  try {
    row = await scenario.run({ short, log: (line) => console.log(`  ${line}`) });
  } catch (error) {
    row = {
      scenario: scenario.name,
      done: 'did not finish',
      held: '',
      broke: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
  console.log(`  ${row.broke ? '✗' : '✓'} ${((Date.now() - began) / 1000).toFixed(0)} s`);
  rows.push(row);
}

const memory = (os.totalmem() / 1024 ** 3).toFixed(1);
console.log(
  `\n${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${memory} GB RAM, Node ${process.version}${short ? ', short form' : ''}\n`,
);
console.log(formatTable(rows));
process.exit(rows.some((row) => row.broke) ? 1 : 0);
