import { vitaEslint } from '@vita-docs/eslint-config';

/** A function too long to read in one sitting is several things: split it by what it does. */
const maxLines = (level) => ({
  'max-lines-per-function': [level, { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
});

export default [
  ...vitaEslint({ dirname: import.meta.dirname, layer: 'server', envModule: 'src/env.ts' }),
  // Shipped code only: tests, the benchmarks and the reliability harness read as scripts.
  { files: ['src/**/*.ts'], ignores: ['src/**/*.test.ts'], rules: maxLines('error') },
];
