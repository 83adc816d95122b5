import { vitaEslint } from '@vita-docs/eslint-config';

export default [
  ...vitaEslint({ dirname: import.meta.dirname, layer: 'server', envModule: 'src/env.ts' }),
  // Its `switch` on `string | undefined` maps everything else to SELECT through `default:` on purpose.
  // The PGlite pool is on its way out (embedded PostgreSQL replaces it): drop this block with the file.
  {
    files: ['src/db/pglite-pool.ts'],
    rules: { '@typescript-eslint/switch-exhaustiveness-check': 'off' },
  },
];
