// The README's example is part of the documentation a consumer copies first: it must keep working.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';

it('the README example runs and prints what it promises', async () => {
  const readme = await readFile(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const example = /## Example[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeTruthy();
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
  expect(logged).toContainEqual(['signedIn']);
  expect(logged).toContainEqual([['w2.pdf']]);
  expect(logged).toContainEqual(['uploading', ['uploading']]);
});
