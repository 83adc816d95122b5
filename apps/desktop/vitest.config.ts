import { defineConfig } from 'vitest/config';
import { vitaVitestConfig } from '@vita-docs/vitest-config';

// Inbox tests watch real folders and the end-to-end test spawns a server: keep files in sequence on 2 cores.
// The test servers share one PostgreSQL, each on its own copy of a migrated template (test-server's global setup).
export default defineConfig(
  vitaVitestConfig({ fileParallelism: false, globalSetup: ['@vita-docs/test-server/global-setup'] }),
);
