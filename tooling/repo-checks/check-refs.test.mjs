import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkFile, headingSlugs } from './check-refs.mjs';

const behaviour = [
  '# Behaviour',
  '## Screens',
  '### Category screen',
  '## Numbers',
  '### Image to PDF',
  '## Numbers',
].join('\n');
const readMarkdown = (path) => (path === 'docs/behaviour.md' ? behaviour : null);
const kinds = (findings) => findings.map((f) => f.split(': ')[1]);

test('heading anchors follow GitHub: lower case, punctuation dropped, repeats numbered', () => {
  assert.deepEqual(
    [...headingSlugs(behaviour)],
    ['behaviour', 'screens', 'category-screen', 'numbers', 'image-to-pdf', 'numbers-1'],
  );
  assert.ok(headingSlugs('## `GET /me` and CSRF, again!').has('get-me-and-csrf-again'));
  assert.equal(headingSlugs('```\n# not a heading\n```').size, 0);
});

test('flags references to the outside specification', () => {
  const spec = ['// The upload flow (', 'SPEC', ' §4).'].join('');
  const section = ['/* see ', '§', '9 */'].join('');
  assert.deepEqual(kinds(checkFile('a.ts', `${spec}\n${section}`, readMarkdown)), [
    'spec-reference',
    'spec-reference',
  ]);
});

test('flags issue numbers, in any spelling', () => {
  for (const line of ['// issue 12', '// fixes Issue #4', '// (issues 4 and 5)']) {
    assert.deepEqual(kinds(checkFile('a.ts', line, readMarkdown)), ['issue-reference'], line);
  }
  assert.deepEqual(
    checkFile('a.ts', 'const first = error.issues[0];\n// the spec file of vitest', readMarkdown),
    [],
  );
});

test('checks docs/behaviour.md anchors from code and from Markdown', () => {
  assert.deepEqual(
    checkFile('packages/ui/a.ts', '// see docs/behaviour.md#category-screen', readMarkdown),
    [],
  );
  assert.deepEqual(
    kinds(checkFile('packages/ui/a.ts', '// see docs/behaviour.md#no-such-heading', readMarkdown)),
    ['missing-heading'],
  );
  assert.deepEqual(checkFile('docs/other.md', '[numbers](behaviour.md#numbers)', readMarkdown), []);
  assert.deepEqual(
    kinds(checkFile('docs/behaviour.md', 'see [Numbers](#numbers) and [x](#nope)', readMarkdown)),
    ['missing-heading'],
  );
  // A Markdown file this repository does not have is not ours to check.
  assert.deepEqual(checkFile('a.ts', '// https://example.org/README.md#install', readMarkdown), []);
});
