import { defineConfig } from 'vitest/config';
import { vitaVitestConfig } from '@vita-docs/vitest-config';

// The second tier, `npm run test:reliability`: crash, outage, hung-dependency, several-processes and
// hostile-input scenarios against the production build (`node dist/main.js`), each in processes of
// its own for minutes. One file at a time: each scenario wants the machine's two cores to itself.
export default defineConfig(
  vitaVitestConfig({
    include: ['test/reliability/**/*.test.ts'],
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest-reliability.json' }]],
  }),
);
