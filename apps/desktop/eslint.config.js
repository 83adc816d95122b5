import { vitaEslint, vitaReact } from '@vita-docs/eslint-config';

/** A function too long to read in one sitting is several things: split it by what it does. */
const maxLines = (level) => ({
  'max-lines-per-function': [level, { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
});

export default [
  ...vitaEslint({
    dirname: import.meta.dirname,
    layer: 'app',
    ignores: ['release/**'],
    envModule: 'src/main/env.ts',
  }),
  // Only the renderer has components; main's `useServer` is a setting, not a hook.
  ...vitaReact.map((config) => ({ ...config, files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx'] })),
  // Shipped code only: tests and their support read as scripts.
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'src/main/inbox/test-support.ts'],
    rules: maxLines('error'),
  },
];
