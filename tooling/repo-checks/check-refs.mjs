#!/usr/bin/env node
/**
 * Keeps the repository speaking for itself. Over every file git tracks (text only), it fails when
 *
 * 1. a line cites the old outside specification: the word SPEC in capitals, or a section sign
 *    followed by a number;
 * 2. a line cites a tracker issue by number ("issue 12", "issues 4 and 5", "issue #12"): the
 *    reason belongs in the comment itself, and behaviour in docs/behaviour.md;
 * 3. a link or comment points at a Markdown heading that does not exist
 *    (`docs/behaviour.md#category-screen`, or `](#numbers)` inside a Markdown file).
 *
 * Plain Node, no dependencies. Run from anywhere inside the repository:
 *   node tooling/repo-checks/check-refs.mjs [--root DIR]
 * Exit code 0 when clean, 1 with one line per finding otherwise.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Endings of the files that are read; everything else (images, fonts, lock files) is skipped. */
const TEXT_FILE =
  /\.(?:[cm]?[jt]sx?|json|md|css|html|ya?ml|sh|txt)$|(?:^|\/)(?:\.ci\/run|\.gitignore|\.prettierignore)$/;
const SKIPPED_FILES = new Set(['pnpm-lock.yaml']);
/** This check's own files spell out what they look for, and its tests use made-up anchors. */
const SELF = new Set(['tooling/repo-checks/check-refs.mjs', 'tooling/repo-checks/check-refs.test.mjs']);

/** The banned references, each with what to do instead. */
export const RULES = [
  {
    name: 'spec-reference',
    pattern: /\bSPEC\b|§\s*\d/,
    advice: 'point at a heading of docs/behaviour.md (docs/behaviour.md#…) or say the reason in place',
  },
  {
    name: 'issue-reference',
    pattern: /\bissues?\s+#?\d+/i,
    advice: 'say the reason in place; issue numbers mean nothing to a reader of the code',
  },
];

/** `path/to/file.md#anchor` in any file. */
const FILE_ANCHOR = /((?:[\w.-]+\/)*[\w.-]+\.md)#([\w-]+)/g;
/** `](#anchor)` in a Markdown file: a link to a heading of the same file. */
const LOCAL_ANCHOR = /\]\(#([\w-]+)\)/g;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingSlugs(markdown) {
  const slugs = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const base = match[1]
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** The findings for one file's text; `readMarkdown(relPath)` returns a tracked Markdown file or null. */
export function checkFile(relPath, text, readMarkdown) {
  const findings = [];
  const lines = text.split('\n');
  const slugCache = new Map();
  const slugsOf = (mdPath) => {
    if (!slugCache.has(mdPath)) {
      const md = readMarkdown(mdPath);
      slugCache.set(mdPath, md === null ? null : headingSlugs(md));
    }
    return slugCache.get(mdPath);
  };

  lines.forEach((line, index) => {
    const at = `${relPath}:${index + 1}`;
    for (const rule of RULES) {
      if (rule.pattern.test(line)) findings.push(`${at}: ${rule.name}: ${line.trim()}`);
    }
    for (const [, target, anchor] of line.matchAll(FILE_ANCHOR)) {
      // Relative to the file first (Markdown links), then to the repository root (code comments).
      const candidates = [
        path.posix.normalize(path.posix.join(path.posix.dirname(relPath), target)),
        path.posix.normalize(target),
      ];
      const found = candidates.find((candidate) => slugsOf(candidate) !== null);
      if (found === undefined) continue; // not a tracked Markdown file of this repository: not ours to check
      if (!slugsOf(found).has(anchor))
        findings.push(`${at}: missing-heading: ${found} has no heading #${anchor}`);
    }
    if (relPath.endsWith('.md')) {
      for (const [, anchor] of line.matchAll(LOCAL_ANCHOR)) {
        if (!slugsOf(relPath).has(anchor))
          findings.push(`${at}: missing-heading: ${relPath} has no heading #${anchor}`);
      }
    }
  });
  return findings;
}

/** Runs the check over the tracked files under `root`; returns the findings. */
export function checkRepository(root) {
  const listed = execFileSync('git', ['ls-files', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = listed
    .split('\0')
    .filter((f) => f && TEXT_FILE.test(f) && !SKIPPED_FILES.has(path.posix.basename(f)));
  const tracked = new Set(files);
  const checked = files.filter((f) => !SELF.has(f));
  const read = (relPath) => {
    try {
      return readFileSync(path.join(root, relPath), 'utf8');
    } catch {
      return null; // deleted in the working tree but still tracked
    }
  };
  const readMarkdown = (relPath) => (relPath.endsWith('.md') && tracked.has(relPath) ? read(relPath) : null);
  return checked.flatMap((file) => {
    const text = read(file);
    return text === null ? [] : checkFile(file, text, readMarkdown);
  });
}

function main(argv) {
  const rootFlag = argv.indexOf('--root');
  const start = rootFlag >= 0 ? argv[rootFlag + 1] : path.dirname(fileURLToPath(import.meta.url));
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: start, encoding: 'utf8' }).trim();
  const findings = checkRepository(root);
  if (findings.length === 0) {
    console.log('check-refs: no outside-spec or issue references, every heading link resolves.');
    return 0;
  }
  console.error(findings.join('\n'));
  const advice = RULES.filter((rule) => findings.some((f) => f.includes(`: ${rule.name}: `)));
  console.error(`\ncheck-refs: ${findings.length} problem(s).`);
  for (const rule of advice) console.error(`  ${rule.name}: ${rule.advice}.`);
  if (findings.some((f) => f.includes(': missing-heading: '))) {
    console.error(
      '  missing-heading: fix the anchor, or add the heading (anchors are GitHub-style: lower case, hyphens).',
    );
  }
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
