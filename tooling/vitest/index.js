import { defaultClientConditions, defaultServerConditions } from 'vite';

/**
 * Shared vitest settings. Workspace packages are resolved to their TypeScript sources through the
 * `vita-source` export condition, so tests never need a prior build of the packages they import.
 * @param {import('vitest/config').ViteUserConfig['test']} [test]
 * @returns {import('vitest/config').ViteUserConfig}
 */
export function vitaVitestConfig(test = {}) {
  return {
    resolve: { conditions: ['vita-source', ...defaultClientConditions] },
    ssr: { resolve: { conditions: ['vita-source', ...defaultServerConditions] } },
    test: {
      include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      ...test,
    },
  };
}
