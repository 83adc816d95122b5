import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const APPS = ['@vita-docs/server', '@vita-docs/web', '@vita-docs/desktop'];

/** Imports nobody may make: an app, another package's sources, or a relative path out of the package. */
const everywhere = [
  { group: [...APPS, ...APPS.map((a) => `${a}/*`)], message: 'Nothing imports an app: apps are composition roots.' },
  { group: ['@vita-docs/*/src', '@vita-docs/*/src/*'], message: "Import the package's public exports, not its src." },
  { group: ['../../../*'], message: 'Do not reach out of the package with relative paths; import the package.' },
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
    { group: ['react', 'react-dom', 'react/*', 'react-dom/*', 'react-router'], message: 'core is headless: no React.' },
    { group: ['electron', 'electron/*'], message: 'core runs everywhere: no Electron.' },
    { group: ['@vita-docs/ui', '@vita-docs/ui/*'], message: 'core must not import ui.' },
    { group: ['node:*'], message: 'core runs in browsers and workers: no Node built-ins. Take a port instead.' },
  ],
  ui: [
    ...everywhere,
    { group: ['electron', 'electron/*'], message: 'ui is shared by web and desktop: no Electron.' },
    { group: ['node:*'], message: 'ui runs in the browser: no Node built-ins.' },
  ],
  server: [
    ...everywhere,
    { group: ['@vita-docs/ui', '@vita-docs/ui/*', 'react', 'react-dom'], message: 'The server uses core only.' },
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
].map((name) => ({ name, message: `core is headless: use the injected port instead of the global ${name}.` }));

/**
 * The shared flat config.
 * @param {{ dirname: string, layer: keyof typeof layerBans, ignores?: string[] }} options
 */
export function vitaEslint({ dirname, layer, ignores = [] }) {
  return tseslint.config(
    { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', '*.config.*', '**/*.mjs', ...ignores] },
    js.configs.recommended,
    ...tseslint.configs.recommendedTypeChecked,
    {
      languageOptions: {
        parserOptions: { projectService: true, tsconfigRootDir: dirname },
      },
      rules: {
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
    // Tests may use Node to set up the world (spawn a server, read fixtures), never import an app.
    {
      files: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.ts', 'e2e/**/*.ts'],
      rules: {
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
  );
}
