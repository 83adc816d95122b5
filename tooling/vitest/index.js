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
    // Without `module`: Node would load a package's `module` build (e.g. the AWS SDK's dist-es, whose
    // extensionless imports only bundlers understand) instead of the build Node itself would pick.
    ssr: {
      resolve: { conditions: ['vita-source', ...defaultServerConditions.filter((c) => c !== 'module')] },
    },
    test: {
      include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // The JSON report feeds the one-line total `npm test` prints at the end (tooling/repo-checks/run-checks.mjs).
      reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
      ...test,
      // A committed `.only` would skip the rest of the suite and still pass: fail the run instead,
      // locally too (vitest only does so by default when CI is set). Lint catches it first.
      allowOnly: false,
    },
  };
}
