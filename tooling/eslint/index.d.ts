import type { ConfigArray } from 'typescript-eslint';

/** The shared flat config for one workspace; `layer` decides which imports are banned. */
export declare function vitaEslint(options: {
  dirname: string;
  layer: 'core' | 'ui' | 'server' | 'app';
  ignores?: string[];
}): ConfigArray;
