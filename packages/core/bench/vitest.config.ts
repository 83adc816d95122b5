import { defineConfig } from 'vitest/config';
import { vitaVitestConfig } from '@vita-docs/vitest-config';

/** `pnpm bench`: the converter benchmark in Chromium. It prints numbers and asserts no timings. */
export default defineConfig(
  vitaVitestConfig({ include: ['bench/**/*.bench.ts'], testTimeout: 600_000, hookTimeout: 120_000 }),
);
