import { defineConfig } from 'vitest/config';
import { vitaVitestConfig } from '@vita-docs/vitest-config';

// Inbox tests watch real folders and the end-to-end test spawns a server: keep files in sequence on 2 cores.
export default defineConfig(vitaVitestConfig({ fileParallelism: false }));
