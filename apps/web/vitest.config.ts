import { defineConfig } from 'vitest/config';
import { vitaVitestConfig } from '@vita-docs/vitest-config';

// Browser journeys: each file starts its own server and Chromium; the servers share one PostgreSQL,
// each on its own copy of a migrated template (test-server's global setup). One file at a time, so a
// 2-core machine is not oversubscribed and the generous timeouts stay generous.
export default defineConfig(
  vitaVitestConfig({
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['@vita-docs/test-server/global-setup'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  }),
);
