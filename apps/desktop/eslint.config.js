import { vitaEslint, vitaReact } from '@vita-docs/eslint-config';

export default [
  ...vitaEslint({
    dirname: import.meta.dirname,
    layer: 'app',
    ignores: ['release/**'],
    envModule: 'src/main/env.ts',
  }),
  // Only the renderer has components; main's `useServer` is a setting, not a hook.
  ...vitaReact.map((config) => ({ ...config, files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx'] })),
];
