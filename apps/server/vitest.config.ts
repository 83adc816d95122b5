import { defineConfig } from 'vitest/config';
import { vitaVitestConfig } from '@vita-docs/vitest-config';

// Integration tests each start a real server with its own database; run files one at a time so the
// 2-core CI machine is not oversubscribed and timings stay meaningful. One PostgreSQL serves the run.
export default defineConfig(
  vitaVitestConfig({ fileParallelism: false, globalSetup: ['test/global-setup.ts'] }),
);
