import { defineConfig } from 'vitest/config';
import { vitaVitestConfig } from '@vita-docs/vitest-config';

/** `pnpm bench` (web): the kept-uploads benchmark in Chromium against the real server. Prints; asserts no timings. */
export default defineConfig(
  vitaVitestConfig({ include: ['bench/**/*.bench.ts'], testTimeout: 600_000, hookTimeout: 120_000 }),
);
