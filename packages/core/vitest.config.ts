import { configDefaults, defineConfig } from 'vitest/config';
import { vitaVitestConfig } from '@vita-docs/vitest-config';

// test/pack checks the packed package and needs a build first: `pnpm publint` runs it.
export default defineConfig(vitaVitestConfig({ exclude: [...configDefaults.exclude, 'test/pack/**'] }));
