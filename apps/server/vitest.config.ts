import { configDefaults, defineConfig } from 'vitest/config';
import { vitaVitestConfig } from '@vita-docs/vitest-config';

// Integration tests each start a real server with its own database; run files one at a time so the
// 2-core CI machine is not oversubscribed and timings stay meaningful. One PostgreSQL serves the run.
// Not isolated: the files share one import of the server's sources instead of each importing them
// again (no test here mocks a module or changes a global, so nothing leaks from one file to the next).
// test/reliability/ is the second tier (`npm run test:reliability`, vitest.reliability.config.ts).
export default defineConfig(
  vitaVitestConfig({
    exclude: [...configDefaults.exclude, 'test/reliability/**'],
    fileParallelism: false,
    isolate: false,
    globalSetup: ['test/global-setup.ts'],
  }),
);
