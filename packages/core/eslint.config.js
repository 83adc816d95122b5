import { vitaEslint } from '@vita-docs/eslint-config';

export default [
  ...vitaEslint({ dirname: import.meta.dirname, layer: 'core', maxFunctionLines: 80 }),
  // The benchmark drives Chromium and the file system from Node, like the tests do.
  {
    files: ['bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@vita-docs/*/src', '@vita-docs/*/src/*'],
              message: "Import the package's public exports.",
            },
          ],
        },
      ],
    },
  },
  // `*.node.ts` are the Node implementations of core's ports (`@vita-docs/core/node`): Node's
  // built-ins are what they are for; nothing else in core imports them.
  {
    files: ['src/**/*.node.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@vita-docs/*/src', '@vita-docs/*/src/*'],
              message: "Import the package's public exports.",
            },
          ],
        },
      ],
    },
  },
];
