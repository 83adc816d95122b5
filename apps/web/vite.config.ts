import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// `vita-source`: workspace packages are bundled from their TypeScript sources, no prior build needed.
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['vita-source', ...defaultClientConditions] },
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
