// Initial JS of the landing route, from the production build in dist/: the entry script and every
// chunk index.html preloads (the chunks it imports statically), gzip-compressed. Lazy screens are
// not counted: the landing page never fetches them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

// A trip-wire against growth, just above today's size, not the target: the target (85) also needs
// the contract's validator out of the first download (docs/architecture.md says what is left).
const GOAL_KB = 116;
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
/** The client's document-request page (/u): its JS before the first upload (the capture parts load when used). */
const CLIENT_PAGE_GOAL_KB = 90;

/** The entry script of `htmlFile` and every chunk it loads statically, as paths under dist/. */
function initialFiles(/** @type {string} */ htmlFile) {
  const html = readFileSync(path.join(dist, htmlFile), 'utf8');
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
  return initial;
}

const kb = (/** @type {number} */ n) => (n / 1024).toFixed(1);

/** Prints the sizes of a page's initial JS; sets a failing exit code over `goalKb` gzip. */
function measure(/** @type {string} */ htmlFile, /** @type {string} */ what, /** @type {number} */ goalKb) {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const file of [...initialFiles(htmlFile)].sort()) {
    const bytes = readFileSync(path.join(dist, file));
    const gz = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzip += gz;
    brotli += brotliCompressSync(bytes).length;
    console.log(`  ${file.padEnd(36)} ${kb(bytes.length).padStart(7)} KB  gzip ${kb(gz).padStart(6)} KB`);
  }
  console.log(
    `${what} initial JS: ${kb(raw)} KB raw, ${kb(gzip)} KB gzip, ${kb(brotli)} KB brotli (goal ≤ ${goalKb} KB gzip)`,
  );
  if (gzip / 1024 > goalKb) {
    console.log(`Over the goal by ${kb(gzip - goalKb * 1024)} KB gzip.`);
    process.exitCode = 1;
  }
}

measure('index.html', 'Landing route', GOAL_KB);
measure('u.html', 'Client page (/u)', CLIENT_PAGE_GOAL_KB);
