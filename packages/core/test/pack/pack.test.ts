// What a consumer installs: only dist, the README and package.json, with exports that resolve and
// nothing that points into the (unpublished) sources.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageDir = join(import.meta.dirname, '..', '..');
let out: string;
let files: string[];
let manifest: { exports: Record<string, unknown>; [key: string]: unknown };

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'vita-core-pack-'));
  execFileSync('pnpm', ['pack', '--pack-destination', out], { cwd: packageDir, stdio: 'pipe' });
  const tarball = execFileSync('sh', ['-c', `ls ${out}/*.tgz`])
    .toString()
    .trim();
  files = execFileSync('tar', ['-tzf', tarball]).toString().trim().split('\n');
  execFileSync('tar', ['-xzf', tarball, '-C', out]);
  manifest = JSON.parse(await readFile(join(out, 'package', 'package.json'), 'utf8')) as typeof manifest;
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

const targets = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : value && typeof value === 'object'
      ? Object.values(value).flatMap(targets)
      : [];

describe('pnpm pack', () => {
  it('contains only dist, README.md and package.json; no tests, maps or sources', () => {
    for (const file of files)
      expect(file).toMatch(/^package\/(package\.json|README\.md|dist\/.+\.(js|d\.ts))$/);
    expect(files.filter((f) => /\.test\.|\.map$|\/src\//.test(f))).toEqual([]);
    expect(files).toContain('package/README.md');
  });

  it('its exports point only at packed files, never at the sources', () => {
    const all = targets(manifest.exports);
    expect(all.length).toBeGreaterThan(8);
    for (const target of all) expect(files).toContain(`package/${target.replace(/^\.\//, '')}`);
    expect(JSON.stringify(manifest)).not.toMatch(/vita-source|catalog:|workspace:/);
    expect(Object.keys(manifest.exports)).toEqual([
      '.',
      './testing',
      './browser',
      './node',
      './package.json',
    ]);
  });

  it('the worker file the browser entry loads is packed next to it', () => {
    expect(files).toContain('package/dist/browser/raster-worker.js');
  });
});

describe('npm pack --dry-run', () => {
  it('lists only dist, README.md and package.json', () => {
    const report = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json'], {
        cwd: packageDir,
        stdio: ['ignore', 'pipe', 'ignore'],
      }).toString(),
    ) as { files: { path: string }[] }[];
    const paths = report[0]!.files.map((f) => f.path);
    for (const path of paths) expect(path).toMatch(/^(package\.json|README\.md|dist\/.+\.(js|d\.ts))$/);
  });
});
