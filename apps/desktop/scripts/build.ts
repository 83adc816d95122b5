/**
 * Builds the Electron bundles with Vite:
 * - dist/main/index.js   (ESM, Node): main process, every dependency bundled so packaging needs no node_modules;
 * - dist/main/reader.js  its document reader set-up (src/main/reader.ts), an entry of its own so a test can
 *                        load it without Electron;
 * - dist/main/reader-host.cjs the reader host (core's reader-host.node.ts: pdf.js, zxing, tesseract.js) as
 *                        one CommonJS script requiring only Node's own modules: main reads its text (inside
 *                        the asar) and runs it as the reader's worker thread;
 * - dist/reader/         the files that reader loads from disk at run time (see createNodeReader's `files`),
 *                        built first: their SHA-256 hashes are built into dist/main (see src/main/reader.ts);
 * - dist/preload/index.cjs (CommonJS): sandboxed preloads cannot load ES modules or local files;
 * - dist/renderer/         the page, served by main on app://vita.
 * Workspace packages are bundled from their sources (`vita-source` condition): no prior build needed.
 * `--out DIR` builds into DIR instead of dist/ (the packaged-reader test builds outside the repo).
 */
import { createHash } from 'node:crypto';
import { copyFile, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build, defaultClientConditions, defaultServerConditions, type InlineConfig } from 'vite';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const dist = values.out === undefined ? join(root, 'dist') : resolve(values.out);
/** Electron 38 runs Node 22 and Chromium 140. */
const nodeTarget = 'node22';

const nodeBundle = (
  input: Record<string, string>,
  outDir: string,
  format: 'es' | 'cjs',
  fileName: string,
  define: Record<string, string> = {},
): InlineConfig => ({
  configFile: false,
  root,
  logLevel: 'warn',
  define,
  resolve: { conditions: ['vita-source', ...defaultServerConditions] },
  ssr: {
    noExternal: true,
    target: 'node',
    resolve: { conditions: ['vita-source', ...defaultServerConditions], externalConditions: ['node'] },
  },
  build: {
    ssr: true,
    outDir,
    emptyOutDir: true,
    target: nodeTarget,
    sourcemap: true,
    minify: false,
    rollupOptions: {
      input,
      external: ['electron', /^node:/],
      output: { format, entryFileNames: fileName },
    },
  },
});

/** The reader's packages, resolved as core (which depends on them) resolves them. */
const core = dirname(createRequire(import.meta.url).resolve('@vita-docs/core/package.json'));
const fromCore = createRequire(join(core, 'package.json'));
const tesseract = dirname(fromCore.resolve('tesseract.js/package.json'));
const tesseractCore = dirname(createRequire(tesseract + '/').resolve('tesseract.js-core/package.json'));

/**
 * dist/reader: tesseract.js's Node worker script (run by path in a worker thread, so bundled here
 * into one file with the tesseract core's JavaScript), the core's wasm beside it, the English
 * data and zxing's wasm. Every core build the worker may pick is copied: it picks by the CPU's
 * wasm features at run time (plain, SIMD, relaxed SIMD).
 */
async function buildReaderFiles(outDir: string): Promise<Record<string, string>> {
  const worker = nodeBundle(
    { 'tesseract-worker': join(tesseract, 'src/worker-script/node/index.js') },
    outDir,
    'cjs',
    '[name].cjs',
  );
  await build({ ...worker, build: { ...worker.build, sourcemap: false } });
  const script = await readFile(join(outDir, 'tesseract-worker.cjs'), 'utf8');
  const wasm = [...new Set(script.match(/tesseract-core[\w-]*\.wasm\b/g))];
  if (wasm.length === 0) throw new Error('The bundled OCR worker names no tesseract core wasm.');
  const files: Array<[string, string]> = [
    ...wasm.map((name): [string, string] => [join(tesseractCore, name), name]),
    [
      join(
        dirname(fromCore.resolve('@tesseract.js-data/eng/package.json')),
        '4.0.0_best_int',
        'eng.traineddata.gz',
      ),
      'eng.traineddata.gz',
    ],
    [fromCore.resolve('zxing-wasm/reader/zxing_reader.wasm'), 'zxing_reader.wasm'],
  ];
  await Promise.all(files.map(([from, name]) => copyFile(from, join(outDir, name))));
  const sha256: Record<string, string> = {};
  for (const name of (await readdir(outDir)).sort()) {
    sha256[name] = createHash('sha256')
      .update(await readFile(join(outDir, name)))
      .digest('hex');
  }
  return sha256;
}

await rm(dist, { recursive: true, force: true });
const readerSha256 = await buildReaderFiles(join(dist, 'reader'));
await build(
  nodeBundle(
    { index: 'src/main/index.ts', reader: 'src/main/reader.ts' },
    join(dist, 'main'),
    'es',
    '[name].js',
    {
      // Where src/main/reader.ts finds buildReaderFiles' output, from dist/main.
      VITA_READER_FILES: JSON.stringify('../reader/'),
      // Their hashes, inside the integrity-checked archive: the files beside it are checked against them.
      VITA_READER_SHA256: JSON.stringify(readerSha256),
      // The reader host's bundle (built below into dist/main, inside the archive), from dist/main.
      VITA_READER_HOST: JSON.stringify('./reader-host.cjs'),
      // CommonJS code bundled into these ES modules (tesseract.js's defaults) reads `__dirname`
      // as it loads, which an ES module lacks; the chunk's folder stands in for its package's.
      __dirname: 'import.meta.dirname',
    },
  ),
);
// The reader host runs from its text (a worker thread's `eval`), where nothing can be loaded but
// Node's own modules: one CommonJS file (an evaluated worker's code is a script, with `require`),
// every dynamic import inlined. sharp stays out (a native module a bundle cannot carry; without
// it, TIFF and WebP barcodes are not read, as before).
const host = nodeBundle(
  { 'reader-host': join(core, 'src/reading/reader-host.node.ts') },
  join(dist, 'main'),
  'cjs',
  '[name].cjs',
);
await build({
  ...host,
  build: {
    ...host.build,
    emptyOutDir: false,
    sourcemap: false,
    rollupOptions: {
      ...host.build?.rollupOptions,
      external: [/^node:/, 'sharp'],
      output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
    },
  },
});
await build(nodeBundle({ index: 'src/preload/index.ts' }, join(dist, 'preload'), 'cjs', 'index.cjs'));
await build({
  configFile: false,
  root: join(root, 'src', 'renderer'),
  base: './',
  logLevel: 'warn',
  resolve: { conditions: ['vita-source', ...defaultClientConditions] },
  build: {
    outDir: join(dist, 'renderer'),
    emptyOutDir: true,
    target: 'chrome140',
    sourcemap: true,
    rollupOptions: {
      // A library marking its modules "use client" (for server components) would warn; meaningless in a page bundle.
      onwarn: (warning, warn) => {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
console.log(`Built main, its reader files, preload and renderer into ${dist}`);
