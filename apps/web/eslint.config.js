import { vitaEslint } from '@vita-docs/eslint-config';
import reactHooks from 'eslint-plugin-react-hooks';

export default [
  ...vitaEslint({ dirname: import.meta.dirname, layer: 'app' }),
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
];
