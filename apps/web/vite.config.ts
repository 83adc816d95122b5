import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { firstPaintPlugin } from './scripts/first-paint.ts';
import { readerAssetsPlugin } from './scripts/reader-assets.ts';
import { readerServiceWorkerPlugin } from './scripts/reader-sw.ts';
import { routeChunksPlugin } from './scripts/route-chunks.ts';

// `vita-source`: workspace packages are bundled from their TypeScript sources, no prior build needed.
export default defineConfig({
  plugins: [
    react(),
    // Which chunks each route needs before it shows: the server preloads them with the page.
    routeChunksPlugin(fileURLToPath(new URL('index.html', import.meta.url))),
    // The landing's first paint as HTML, which the server puts in its page.
    firstPaintPlugin(fileURLToPath(new URL('.', import.meta.url))),
    // The document reader's OCR and barcode files, served by the app itself under /ocr/.
    readerAssetsPlugin(),
    // The client's request page's service worker, which keeps only those files (src/reader-sw.ts).
    readerServiceWorkerPlugin(fileURLToPath(new URL('.', import.meta.url))),
    // The installable app shell (src/sw.ts; registered by src/main.tsx, never by the kiosk).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: {
        name: 'VITA Documents',
        short_name: 'VITA Docs',
        description: 'Upload and manage client tax documents securely.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#1d4ed8',
        background_color: '#ffffff',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any maskable' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any maskable' },
        ],
      },
      injectManifest: {
        // The app's files, without the PDF viewer (viewing a document needs the server anyway) and
        // without the pages: those come from the network first (src/sw.ts). The manifest and its
        // icons are added by the plugin itself.
        globPatterns: ['**/*.{js,mjs,css,svg}'],
        // The reader's files (/ocr/, ~5 MB) are kept on first use instead (src/sw.ts).
        globIgnores: ['**/pdf.worker*', '**/pdf-render*', 'ocr/**'],
      },
    }),
    // A .br and a .gz beside each script, style sheet and icon, sent by the server to a browser that
    // accepts them (@fastify/static `preCompressed`): a phone on slow wi-fi downloads a third, and the
    // server compresses nothing per request. The pages are not: the server sends them from memory.
    compression({ include: /\.(js|mjs|css|svg|webmanifest|wasm)$/, logLevel: 'silent' }),
  ],
  resolve: {
    conditions: ['vita-source', ...defaultClientConditions],
    alias: [
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: fileURLToPath(new URL('src/sync-external-store.ts', import.meta.url)),
      },
    ],
  },
  build: {
    target: 'es2022',
    // The staff app, and the client's document-request page (/u) with only what it needs.
    rollupOptions: {
      input: { main: 'index.html', u: 'u.html' },
    },
  },
  server: {
    // `pnpm dev` next to a running server (`pnpm --filter @vita-docs/server dev`, port 3000).
    proxy: { '/api': { target: process.env.VITA_API_URL ?? 'http://localhost:3000' } },
  },
});
