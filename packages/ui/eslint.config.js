import { vitaEslint, vitaReact } from '@vita-docs/eslint-config';

export default [
  ...vitaEslint({ dirname: import.meta.dirname, layer: 'ui', maxFunctionLines: 80 }),
  ...vitaReact,
];
