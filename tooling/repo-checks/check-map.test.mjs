import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkMap } from './check-map.mjs';

const tracked = [
  'README.md',
  'apps/server/src/app.ts',
  'apps/server/src/storage/local.ts',
  'apps/server/src/storage/local.test.ts',
  'apps/server/src/backup/restore.ts',
  'apps/web/README.md',
  'apps/web/package.json',
];
const readmes = ['apps/web/README.md'];
const readme =
  'See [the map](docs/architecture.md#where-things-live), [apps/web/README.md](apps/web/README.md).';
const kinds = (findings) => findings.map((f) => f.split(': ')[1]);

test('a server file is on the map by its path, its name or its folder', () => {
  const map = '`apps/server/src/app.ts`; `src/storage/` holds the stores; restore: `restore.ts`.';
  assert.deepEqual(checkMap({ map, readme, tracked, readmes }), []);
});

test('flags a server source named nowhere, tests aside', () => {
  const findings = checkMap({ map: '`src/app.ts`, `src/storage/`', readme, tracked, readmes });
  assert.deepEqual(findings, [
    'docs/architecture.md: unmapped: apps/server/src/backup/restore.ts (name it, or its folder, in the map)',
  ]);
});

test('flags a named path that is not tracked; folders are found by their files', () => {
  const map = '`src/app.ts` `src/storage/` `restore.ts` `apps/web` `apps/server/src/routes/gone.ts`.';
  assert.deepEqual(kinds(checkMap({ map, readme, tracked, readmes })), ['missing-path']);
});

test('flags dated figures and load averages', () => {
  const map = '`src/app.ts` `src/storage/` `restore.ts`\nOn 2026-11-27: 55.\nat load average 3.';
  assert.deepEqual(kinds(checkMap({ map, readme, tracked, readmes })), ['run-log', 'run-log']);
});

test('flags a root README that links neither the map nor a package README', () => {
  const map = '`src/app.ts` `src/storage/` `restore.ts`';
  assert.deepEqual(kinds(checkMap({ map, readme: '# Root', tracked, readmes })), [
    'unlinked-map',
    'unlinked-readme',
  ]);
});

test("flags a package README's path that is not tracked, and a source folder's README that skips a file", () => {
  const map = '`src/app.ts` `src/storage/` `restore.ts`';
  const texts = {
    'apps/web/README.md': 'Entry `src/main.tsx`; `src/csrf-retry-fetch.ts` works around a bug.',
    'packages/ui/src/adapters/README.md': '`audit-csv.ts`: the CSV writer.',
  };
  const more = [
    'apps/web/src/main.tsx',
    'packages/ui/src/adapters/README.md',
    'packages/ui/src/adapters/audit-csv.ts',
    'packages/ui/src/adapters/audit-csv.test.ts',
    'packages/ui/src/adapters/passkeys.ts',
  ];
  const findings = checkMap({
    map,
    readme,
    tracked: [...tracked, ...more],
    readmes,
    readText: (f) => texts[f] ?? '',
  });
  assert.deepEqual(findings, [
    'apps/web/README.md: missing-path: src/csrf-retry-fetch.ts is not a tracked file or folder',
    'packages/ui/src/adapters/README.md: unnamed-file: passkeys.ts (say what it holds)',
  ]);
});
