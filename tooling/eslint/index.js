import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const APPS = ['@vita-docs/server', '@vita-docs/web', '@vita-docs/desktop'];

/** Imports nobody may make: an app, another package's sources, or a relative path out of the package. */
const everywhere = [
  {
    group: [...APPS, ...APPS.map((a) => `${a}/*`)],
    message: 'Nothing imports an app: apps are composition roots.',
  },
  {
    group: ['@vita-docs/*/src', '@vita-docs/*/src/*'],
    message: "Import the package's public exports, not its src.",
  },
  {
    group: ['../../../*'],
    message: 'Do not reach out of the package with relative paths; import the package.',
  },
];

/** Node built-ins by exact name (gitignore-style patterns would also catch a local `./domain/x.js`). */
const nodeBuiltinPaths = (message) => builtinModules.map((name) => ({ name, message }));

/**
 * Which imports each layer may not make. Keys are layer names used by {@link vitaEslint}.
 * apps → ui → core; server → core. Nothing points back up.
 */
const layerBans = {
  core: [
    ...everywhere,
    {
      group: ['react', 'react-dom', 'react/*', 'react-dom/*', 'wouter'],
      message: 'core is headless: no React.',
    },
    { group: ['electron', 'electron/*'], message: 'core runs everywhere: no Electron.' },
    { group: ['@vita-docs/ui', '@vita-docs/ui/*'], message: 'core must not import ui.' },
    {
      group: ['node:*'],
      message: 'core runs in browsers and workers: no Node built-ins. Take a port instead.',
    },
  ],
  ui: [
    ...everywhere,
    { group: ['electron', 'electron/*'], message: 'ui is shared by web and desktop: no Electron.' },
    { group: ['node:*'], message: 'ui runs in the browser: no Node built-ins.' },
  ],
  server: [
    ...everywhere,
    {
      group: ['@vita-docs/ui', '@vita-docs/ui/*', 'react', 'react-dom'],
      message: 'The server uses core only.',
    },
  ],
  app: everywhere,
};

/** Exact-name bans per layer, next to the patterns above. */
const layerPaths = {
  core: nodeBuiltinPaths('core runs in browsers and workers: no Node built-ins. Take a port instead.'),
  ui: nodeBuiltinPaths('ui runs in the browser: no Node built-ins.'),
  server: [],
  app: [],
};

/** Globals that headless code must receive as ports instead of reaching for them. */
const coreGlobalBans = [
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'location',
  'alert',
  'confirm',
  'fetch',
  'XMLHttpRequest',
  'setTimeout',
  'setInterval',
  'clearTimeout',
  'clearInterval',
  'process',
  'Buffer',
  'require',
  '__dirname',
].map((name) => ({
  name,
  message: `core is headless: use the injected port instead of the global ${name}.`,
}));

/** Test files of every package: they may read the environment and use Node, never focus a test. */
const TEST_FILES = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.ts', 'e2e/**/*.ts'];

/**
 * Every way to reach the environment. Scope: the shipped code, `src/**` of apps and packages, minus
 * each app's one config module (`envModule`), which parses and validates it once. Tests, benches and
 * scripts sit outside src and may read it (TEST_DATABASE_URL, CHROMIUM_PATH, CI); so may `*.test.ts`.
 */
const envBans = [
  'MemberExpression[object.name="process"][property.name="env"]',
  'MemberExpression[object.name="process"][property.value="env"]',
  'MemberExpression[object.property.name="process"][property.name="env"]',
  'VariableDeclarator[init.name="process"] > ObjectPattern > Property[key.name="env"]',
  'ImportDeclaration[source.value=/^(node:)?process$/] > ImportSpecifier[imported.name="env"]',
].map((selector) => ({
  selector,
  message:
    "Read the environment only in the app's config module (apps/server/src/env.ts, apps/desktop/src/main/env.ts); pass values in.",
}));

/**
 * A focused test (`it.only`, `describe.only`, `test.concurrent.only`, …) silently skips the rest of
 * the suite. vitest's `allowOnly: false` (tooling/vitest) also fails such a run.
 */
const focusBans = [
  'MemberExpression[property.name="only"][object.name=/^(describe|suite|it|test|bench)$/]',
  'MemberExpression[property.name="only"][object.type="MemberExpression"][object.object.name=/^(describe|suite|it|test|bench)$/]',
].map((selector) => ({ selector, message: 'Do not commit a focused test: remove `.only`.' }));

/** What Node scripts (`.mjs` benches, tooling) may use without importing it. */
const NODE_SCRIPT_GLOBALS = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'fetch',
    'Response',
    'Request',
    'Headers',
    'Blob',
    'File',
    'FormData',
    'AbortController',
    'AbortSignal',
    'performance',
    'structuredClone',
    'TextEncoder',
    'TextDecoder',
    'queueMicrotask',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'global',
    'globalThis',
    'crypto',
    'WeakRef',
    'FinalizationRegistry',
  ].map((name) => [name, 'readonly']),
);

/**
 * The plain-JavaScript Node scripts (benches, tooling): linted with the rules that need no types,
 * since no tsconfig covers them.
 */
export const nodeScripts = [
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: NODE_SCRIPT_GLOBALS },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      '@typescript-eslint/switch-exhaustiveness-check': 'off',
      '@typescript-eslint/consistent-type-imports': 'off',
      'no-restricted-syntax': ['error', ...focusBans],
      // Scripts run in Node, outside every layer's bundle; they still never import an app.
      'no-restricted-imports': ['error', { patterns: everywhere }],
    },
  },
];

/**
 * The server's routes parse, authorise, call a domain module and shape the answer: data access lives
 * in the domain modules beside them (documents/, clients/, client-links/, …). Neither the query
 * builder nor the database handle's module is imported there (a route passes `services.db` along as
 * `Services['db']`), and no statement is built there.
 */
const ROUTE_FILES = ['src/routes/**/*.ts'];
const ROUTE_NO_SQL = 'Routes do no data access: put the statement in a domain module and call it.';
const routeImportBans = [
  { group: ['kysely', 'kysely/*', 'pg', 'pg/*'], message: ROUTE_NO_SQL },
  { group: ['../db/*', '**/db/*'], message: ROUTE_NO_SQL },
];
const routeSyntaxBans = [
  'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom|transaction|executeQuery)$/]',
  'TaggedTemplateExpression[tag.name="sql"]',
  'TaggedTemplateExpression[tag.object.name="sql"]',
  'CallExpression[callee.object.name="sql"]',
].map((selector) => ({ selector, message: ROUTE_NO_SQL }));

/** The React rules every package with components adds after {@link vitaEslint}. */
export const vitaReact = [
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
];

/**
 * The shared flat config. `maxFunctionLines`: the longest function (React components count) the
 * package's shipped sources may have; a function that reads better whole says why on its disable line.
 * @param {{ dirname: string, layer: keyof typeof layerBans, ignores?: string[], envModule?: string, maxFunctionLines?: number }} options
 */
export function vitaEslint({ dirname, layer, ignores = [], envModule, maxFunctionLines }) {
  return tseslint.config(
    { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', '*.config.*', ...ignores] },
    js.configs.recommended,
    ...tseslint.configs.recommendedTypeChecked,
    {
      // A disable comment that no longer disables anything hides the next real problem on that line.
      linterOptions: { reportUnusedDisableDirectives: 'error' },
      languageOptions: {
        parserOptions: { projectService: true, tsconfigRootDir: dirname },
      },
      rules: {
        // Every `switch (event.type)` names every member: a new event type cannot be silently ignored,
        // and a `default:` branch does not count as handling the members it would swallow.
        '@typescript-eslint/switch-exhaustiveness-check': [
          'error',
          { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: true },
        ],
        // Narrow, guard or throw instead: `!` turns a wrong assumption into a crash far from its cause.
        '@typescript-eslint/no-non-null-assertion': 'error',
        '@typescript-eslint/no-floating-promises': 'error',
        '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
        '@typescript-eslint/consistent-type-imports': 'error',
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
        'no-restricted-imports': ['error', { paths: layerPaths[layer], patterns: layerBans[layer] }],
        // Handlers and port implementations are async by contract even when they need no await.
        '@typescript-eslint/require-await': 'off',
        eqeqeq: ['error', 'smart'],
      },
    },
    layer === 'core'
      ? {
          files: ['src/**/*.ts'],
          ignores: ['src/**/*.test.ts', 'src/**/*.node.ts'],
          rules: { 'no-restricted-globals': ['error', ...coreGlobalBans] },
        }
      : {},
    // The server's shipped code takes core's contract only: the root barrel would load every flow
    // and pdf-lib at each start, and nothing else keeps a route from calling a flow. Its reliability
    // scenarios and benchmarks drive it as clients do, so they may use the whole of core.
    layer === 'server'
      ? {
          files: ['src/**/*.ts'],
          ignores: TEST_FILES,
          rules: {
            'no-restricted-imports': [
              'error',
              {
                paths: [
                  {
                    name: '@vita-docs/core',
                    message: 'Import from @vita-docs/core/contract: the server takes the contract only.',
                  },
                ],
                patterns: layerBans.server,
              },
            ],
          },
        }
      : {},
    {
      files: ['src/**/*.ts', 'src/**/*.tsx'],
      ignores: [...TEST_FILES, ...(envModule ? [envModule] : [])],
      rules: { 'no-restricted-syntax': ['error', ...envBans] },
    },
    layer === 'server'
      ? {
          files: ROUTE_FILES,
          ignores: TEST_FILES,
          rules: {
            'no-restricted-imports': [
              'error',
              {
                paths: [
                  {
                    name: '@vita-docs/core',
                    message: 'Import from @vita-docs/core/contract: the server takes the contract only.',
                  },
                ],
                patterns: [...layerBans.server, ...routeImportBans],
              },
            ],
            'no-restricted-syntax': ['error', ...envBans, ...routeSyntaxBans],
          },
        }
      : {},
    {
      files: [...TEST_FILES, 'bench/**/*.ts'],
      rules: { 'no-restricted-syntax': ['error', ...focusBans] },
    },
    maxFunctionLines
      ? {
          files: ['src/**/*.ts', 'src/**/*.tsx'],
          ignores: TEST_FILES,
          rules: {
            'max-lines-per-function': [
              'error',
              { max: maxFunctionLines, skipBlankLines: true, skipComments: true, IIFEs: true },
            ],
          },
        }
      : {},
    // Tests may use Node to set up the world (spawn a server, read fixtures), never import an app.
    {
      files: TEST_FILES,
      rules: {
        // In a test a `!` on a fixture or a response is an assertion: when it is wrong the test fails
        // on that line, which is what a test is for. Shipped code (src, and benches) keeps the rule.
        '@typescript-eslint/no-non-null-assertion': 'off',
        'no-restricted-imports': ['error', { patterns: everywhere }],
        // Tests read untyped JSON bodies; asserting on them is the point.
        '@typescript-eslint/no-explicit-any': 'off',
        '@typescript-eslint/no-unsafe-member-access': 'off',
        '@typescript-eslint/no-unsafe-assignment': 'off',
        '@typescript-eslint/no-unsafe-argument': 'off',
        '@typescript-eslint/no-unsafe-call': 'off',
        '@typescript-eslint/no-unsafe-return': 'off',
      },
    },
    ...nodeScripts,
  );
}
