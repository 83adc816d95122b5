import { defineConfig } from 'vitest/config';
import { vitaVitestConfig } from '@vita-docs/vitest-config';

/** `pnpm bench`: the converter and capture benchmarks, in Chromium (and Node for capture). They print numbers and assert no timings. */
export default defineConfig(
  vitaVitestConfig({ include: ['bench/**/*.bench.ts'], testTimeout: 600_000, hookTimeout: 120_000 }),
);
