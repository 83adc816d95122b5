// Initial JS of the landing route, from the production build in dist/: the entry script and every
// chunk index.html preloads (the chunks it imports statically), gzip-compressed. Lazy screens are
// not counted: the landing page never fetches them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

// A trip-wire against growth, not the target: the target (85) needs a smaller router and contract
// validator in the first download.
const GOAL_KB = 122;
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');

/** @type {Set<string>} */
const initial = new Set();
for (const [, src] of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g))
  if (src) initial.add(src);
for (const [, href] of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g))
  if (href) initial.add(href);

// Static imports of those chunks too, in case a build stops listing them as modulepreload links.
const queue = [...initial];
for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
  const code = readFileSync(path.join(dist, file), 'utf8');
  for (const [, rel] of code.matchAll(
    /(?:^|[;}\s])import\s*(?:[^'"()]*?from\s*)?["'](\.\/[^"']+\.js)["']/g,
  )) {
    const resolved = path.posix.join(path.posix.dirname(file), rel ?? '');
    if (!initial.has(resolved)) {
      initial.add(resolved);
      queue.push(resolved);
    }
  }
}

const kb = (/** @type {number} */ n) => (n / 1024).toFixed(1);
let raw = 0;
let gzip = 0;
let brotli = 0;
for (const file of [...initial].sort()) {
  const bytes = readFileSync(path.join(dist, file));
  const gz = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gzip += gz;
  brotli += brotliCompressSync(bytes).length;
  console.log(`  ${file.padEnd(36)} ${kb(bytes.length).padStart(7)} KB  gzip ${kb(gz).padStart(6)} KB`);
}
console.log(
  `Landing route initial JS: ${kb(raw)} KB raw, ${kb(gzip)} KB gzip, ${kb(brotli)} KB brotli (goal ≤ ${GOAL_KB} KB gzip)`,
);
if (gzip / 1024 > GOAL_KB) {
  console.log(`Over the goal by ${kb(gzip - GOAL_KB * 1024)} KB gzip.`);
  process.exitCode = 1;
}
