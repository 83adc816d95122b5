import type { ConfigArray } from 'typescript-eslint';

/** The shared flat config for one workspace; `layer` decides which imports are banned. */
export declare function vitaEslint(options: {
  dirname: string;
  layer: 'core' | 'ui' | 'server' | 'app';
  ignores?: string[];
  /** The app's one module allowed to read `process.env` (relative to `dirname`). */
  envModule?: string;
  /** The longest function (React components count) the shipped sources (`src`, not tests) may have. */
  maxFunctionLines?: number;
}): ConfigArray;

/** React's hook rules, for packages with components (after {@link vitaEslint}). */
export declare const vitaReact: ConfigArray;

/** Rules for plain-JavaScript Node scripts (`.mjs`), which no tsconfig covers. */
export declare const nodeScripts: ConfigArray;
