/**
 * Builds the three Electron bundles with Vite:
 * - dist/main/index.js   (ESM, Node): main process, every dependency bundled so packaging needs no node_modules;
 * - dist/preload/index.cjs (CommonJS): sandboxed preloads cannot load ES modules or local files;
 * - dist/renderer/         the page, served by main on app://vita.
 * Workspace packages are bundled from their sources (`vita-source` condition): no prior build needed.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build, defaultClientConditions, defaultServerConditions, type InlineConfig } from 'vite';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
/** Electron 38 runs Node 22 and Chromium 140. */
const nodeTarget = 'node22';

const nodeBundle = (entry: string, outDir: string, format: 'es' | 'cjs', fileName: string): InlineConfig => ({
  configFile: false,
  root,
  logLevel: 'warn',
  resolve: { conditions: ['vita-source', ...defaultServerConditions] },
  ssr: {
    noExternal: true,
    target: 'node',
    resolve: { conditions: ['vita-source', ...defaultServerConditions], externalConditions: ['node'] },
  },
  build: {
    ssr: entry,
    outDir,
    emptyOutDir: true,
    target: nodeTarget,
    sourcemap: true,
    minify: false,
    rollupOptions: {
      external: ['electron', /^node:/],
      output: { format, entryFileNames: fileName },
    },
  },
});

await rm(dist, { recursive: true, force: true });
await build(nodeBundle('src/main/index.ts', join(dist, 'main'), 'es', 'index.js'));
await build(nodeBundle('src/preload/index.ts', join(dist, 'preload'), 'cjs', 'index.cjs'));
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
console.log(`Built main, preload and renderer into ${dist}`);
