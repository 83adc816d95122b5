// The README's examples are the documentation a consumer copies first: they must keep working.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';

/** Runs the first `js` block after a heading of the README as a module; returns what it logged. */
async function runExample(heading: string): Promise<unknown[][]> {
  const readme = await readFile(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const example = new RegExp(`## ${heading}[\\s\\S]*?\`\`\`js\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1];
  expect(example, heading).toBeTruthy();
  // Inside the package directory, so `@vita-docs/core` resolves to this package (self-reference).
  const dir = await mkdtemp(join(import.meta.dirname, '.readme-'));
  const logged: unknown[][] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
  try {
    const file = join(dir, 'example.mjs');
    await writeFile(file, example!);
    await import(/* @vite-ignore */ file);
  } finally {
    log.mockRestore();
    await rm(dir, { recursive: true, force: true });
  }
  return logged;
}

it('the README example runs and prints what it promises', async () => {
  const logged = await runExample('Example');
  expect(logged).toContainEqual(['signedIn']);
  expect(logged).toContainEqual([['w2.pdf']]);
  expect(logged).toContainEqual(['uploading', ['uploading']]);
});

it('the README capture example runs and prints what it promises', async () => {
  const logged = await runExample('Capture');
  expect(logged).toEqual([
    ['IMG_0001.jpg', []],
    ['IMG_0002.jpg', ['This page looks blank.']],
    [true],
    ['W-2 Ada.pdf', 'application/pdf'],
  ]);
});

it('the README names every entry point of package.json and every dependency', async () => {
  const readme = await readFile(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const pkg = JSON.parse(await readFile(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
    dependencies: Record<string, string>;
  };
  const entryPoints = Object.keys(pkg.exports)
    .filter((key) => key !== './package.json')
    .map((key) => `@vita-docs/core${key.slice(1)}`);
  const table = readme.split('## Entry points')[1]?.split('\n## ')[0] ?? '';
  const listed = [...table.matchAll(/^\| `(@vita-docs\/core[^`]*)` *\|/gm)].map((m) => m[1]);
  expect(listed.sort()).toEqual(entryPoints.sort());
  const imports = /\*\*What it may import:\*\*([^\n]*(?:\n[^\n]+)*)/.exec(readme)?.[1] ?? '';
  for (const dependency of Object.keys(pkg.dependencies)) expect(imports).toContain(`\`${dependency}\``);
});
