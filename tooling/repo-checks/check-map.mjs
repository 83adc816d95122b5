#!/usr/bin/env node
/**
 * Keeps docs/architecture.md a map a newcomer can follow. Over the tracked files, it fails when
 *
 * 1. a source file of the server (`apps/server/src`, tests aside) is named nowhere in it: neither by
 *    its path, nor by its name in backticks, nor by its folder (`src/storage/`);
 * 2. a path it names in backticks (`apps/…`, `packages/…`, `tooling/…`, `docs/…`) is not tracked;
 * 3. it holds a dated figure or a load average: those are run logs, which belong in docs/benchmarks.md;
 * 4. the root README does not link the map's table ("Where things live") or a package's README;
 * 5. a package's README names a file of its own (`src/…`, `e2e/…`, `scripts/…`) that is not tracked, or a
 *    README inside a source folder leaves out a source file beside it.
 *
 * Plain Node, no dependencies. Run from anywhere inside the repository:
 *   node tooling/repo-checks/check-map.mjs [--root DIR]
 * Exit code 0 when clean, 1 with one line per finding otherwise.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAP = 'docs/architecture.md';
const SERVER = 'apps/server/';
/** A repository path in backticks: `apps/server/src/routes/auth.ts`, `packages/ui/src/screens/`. */
const NAMED_PATH = /`((?:apps|packages|tooling|docs)\/[\w./-]+?)`/g;
/** A package-relative path in backticks in a package's README. */
const PACKAGE_PATH = /`((?:src|e2e|scripts|bench|test|api)\/[\w./-]+?)`/g;
/** A date as run logs write them, or the load average they were taken at. */
const RUN_LOG = /\b20\d\d-\d\d-\d\d\b|load average/i;

/** Where `file` (a path under apps/server/src) could be named: its paths, its name, its folders. */
function namesOf(file) {
  const inPackage = file.slice(SERVER.length); // src/storage/local.ts
  const names = [file, inPackage, `\`${path.posix.basename(file)}\``];
  for (let dir = path.posix.dirname(inPackage); dir !== 'src' && dir !== '.'; dir = path.posix.dirname(dir)) {
    names.push(`${dir}/`, `${SERVER}${dir}/`);
  }
  return names;
}

/** The findings for the map's text against the tracked files and the root README. */
export function checkMap({ map, readme, tracked, readmes, readText = () => '' }) {
  const findings = [];
  const files = new Set(tracked);
  const isTracked = (p) => files.has(p) || tracked.some((f) => f.startsWith(p.endsWith('/') ? p : `${p}/`));
  for (const file of tracked) {
    if (!file.startsWith(`${SERVER}src/`) || /\.test\.ts$/.test(file)) continue;
    if (!namesOf(file).some((name) => map.includes(name)))
      findings.push(`${MAP}: unmapped: ${file} (name it, or its folder, in the map)`);
  }
  map.split('\n').forEach((line, index) => {
    for (const [, named] of line.matchAll(NAMED_PATH)) {
      const p = named.replace(/[.,;:]$/, '');
      if (!isTracked(p))
        findings.push(`${MAP}:${index + 1}: missing-path: ${p} is not a tracked file or folder`);
    }
    if (RUN_LOG.test(line))
      findings.push(`${MAP}:${index + 1}: run-log: ${line.trim()} (move it to docs/benchmarks.md)`);
  });
  if (!readme.includes(`](${MAP}#where-things-live)`))
    findings.push(`README.md: unlinked-map: link ${MAP}#where-things-live, the first hop to any capability`);
  for (const file of readmes) {
    if (!readme.includes(`](${file}`)) findings.push(`README.md: unlinked-readme: ${file}`);
    const dir = path.posix.dirname(file);
    for (const [, named] of readText(file).matchAll(PACKAGE_PATH)) {
      if (!isTracked(`${dir}/${named}`))
        findings.push(`${file}: missing-path: ${named} is not a tracked file or folder`);
    }
  }
  for (const file of tracked.filter((f) => /\/src\/(.+\/)?README\.md$/.test(f))) {
    const dir = `${path.posix.dirname(file)}/`;
    const text = readText(file);
    const beside = tracked.filter(
      (f) =>
        f.startsWith(dir) &&
        !f.slice(dir.length).includes('/') &&
        /\.tsx?$/.test(f) &&
        !/\.test\.tsx?$/.test(f),
    );
    for (const source of beside) {
      const name = path.posix.basename(source);
      if (!text.includes(`\`${name}\``) && !text.includes(`\`${name.replace(/\.tsx?$/, '')}\``))
        findings.push(`${file}: unnamed-file: ${name} (say what it holds)`);
    }
  }
  return findings;
}

/** Runs the check on the repository at `root`; returns the findings. */
export function checkRepository(root) {
  const tracked = execFileSync('git', ['ls-files', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter(Boolean);
  const read = (p) => readFileSync(path.join(root, p), 'utf8');
  // A package's README: one beside a package.json (apps/*, packages/*, tooling/*).
  const readmes = tracked.filter(
    (f) =>
      /^(apps|packages|tooling)\/[^/]+\/README\.md$/.test(f) &&
      tracked.includes(`${path.posix.dirname(f)}/package.json`),
  );
  return checkMap({ map: read(MAP), readme: read('README.md'), tracked, readmes, readText: read });
}

function main(argv) {
  const rootFlag = argv.indexOf('--root');
  const start = rootFlag >= 0 ? argv[rootFlag + 1] : path.dirname(fileURLToPath(import.meta.url));
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: start, encoding: 'utf8' }).trim();
  const findings = checkRepository(root);
  if (findings.length === 0) {
    console.log(
      `check-map: every server file is on the map, its paths exist, no run logs, every README linked.`,
    );
    return 0;
  }
  console.error(findings.join('\n'));
  console.error(`\ncheck-map: ${findings.length} problem(s).`);
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
