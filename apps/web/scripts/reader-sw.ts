/**
 * Builds the client's request page's service worker (src/reader-sw.ts) as dist/reader-sw.js, a
 * classic script (a module service worker is not taken by every phone's browser). vite-plugin-pwa
 * builds one service worker only, the staff app's (src/sw.ts); this one has no precache manifest,
 * so it is bundled on its own once the app's build is written.
 */
import path from 'node:path';
import { build, type Plugin } from 'vite';

export function readerServiceWorkerPlugin(root: string): Plugin {
  let outDir = '';
  return {
    name: 'vita-reader-sw',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await build({
        configFile: false,
        root,
        mode: 'production',
        logLevel: 'warn',
        // Workbox logs its routing on the console unless built for production.
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          target: 'es2022',
          minify: true,
          lib: {
            entry: path.join(root, 'src/reader-sw.ts'),
            formats: ['iife'],
            name: 'vitaReaderSw',
            fileName: () => 'reader-sw.js',
          },
        },
      });
    },
  };
}
