import { defineConfig } from 'vitest/config';

/** Only the pack check, run by `pnpm publint` after the build. */
export default defineConfig({
  test: { root: import.meta.dirname, include: ['*.test.ts'], testTimeout: 120_000 },
});
