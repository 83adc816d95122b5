import type { ViteUserConfig } from 'vitest/config';

/** Shared vitest settings: resolves workspace packages to their sources (`vita-source` condition). */
export declare function vitaVitestConfig(test?: ViteUserConfig['test']): ViteUserConfig;
