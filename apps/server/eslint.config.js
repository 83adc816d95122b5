import { vitaEslint } from '@vita-docs/eslint-config';

/** A function too long to read in one sitting is several things: split it by what it does. */
const maxLines = (level) => ({
  'max-lines-per-function': [level, { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
});

export default [
  ...vitaEslint({ dirname: import.meta.dirname, layer: 'server', envModule: 'src/env.ts' }),
  // Shipped code only: tests, the benchmarks and the reliability harness read as scripts.
  { files: ['src/**/*.ts'], ignores: ['src/**/*.test.ts'], rules: maxLines('error') },
  // The hostile-input scenario is a table of properties and small parts: kept that way.
  {
    files: ['reliability/scenarios/6-hostile-input.ts', 'reliability/scenarios/hostile-input/**/*.ts'],
    rules: maxLines('error'),
  },
  // The test files share one module graph (vitest.config.ts, `isolate: false`): a mock or a stubbed
  // global in one would leak into the files after it.
  {
    files: ['src/**/*.test.ts', 'test/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'stubGlobal', 'stubEnv', 'useFakeTimers'].map((property) => ({
          object: 'vi',
          property,
          message:
            'Server test files share one module graph (isolate: false); this would leak into the next file.',
        })),
      ],
    },
  },
];
