import { defineConfig } from 'vitest/config';
import { vitaVitestConfig } from '@vita-docs/vitest-config';

export default defineConfig(vitaVitestConfig());
